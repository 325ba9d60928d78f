// Timing events written as a Chrome trace (chrome://tracing, Perfetto), as TornadoVM's ChromeEventTracer: the calls its example programs make.
package dev.loopjit.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * With the system property {@code tornado.chrome.event.tracer.enabled=true}, each {@code enqueue…}
 * call records a complete event ({@code "ph":"X"}) with its tag, start and duration, and the events
 * are written when the JVM exits to the file {@code tornado.chrome.event.tracer.filename} names
 * (default {@code chrome.json}), for chrome://tracing or Perfetto. Without the property every call
 * does nothing. These are the program's own events; LoopJIT's own timings of a plan's copies and
 * kernels are its profile ({@code withProfiler}).
 */
public final class ChromeEventTracer {
  public static final String CHROME_EVENT_TRACER_FILENAME_KEY = "tornado.chrome.event.tracer.filename";
  public static final String CHROME_EVENT_TRACER_ENABLED_KEY = "tornado.chrome.event.tracer.enabled";
  public static final String CHROME_EVENT_TRACER_FILENAME = System.getProperty(CHROME_EVENT_TRACER_FILENAME_KEY, "chrome.json");

  private static final List<String> EVENTS = new ArrayList<>();
  private static boolean hooked;

  public ChromeEventTracer() {}

  public static ChromeEventTracer create() {
    return new ChromeEventTracer();
  }

  public static String getChromeEventTracerFileName() {
    return CHROME_EVENT_TRACER_FILENAME;
  }

  public static boolean isChromeEventTracerEnabled() {
    return Boolean.getBoolean(CHROME_EVENT_TRACER_ENABLED_KEY);
  }

  public static boolean isEnabled() {
    return isChromeEventTracerEnabled();
  }

  /** A copy to the device of {@code bytes} from {@code startNs} to {@code endNs} ({@code System.nanoTime()}). */
  public static void enqueueWriteIfEnabled(String tag, long bytes, long startNs, long endNs) {
    record("write " + tag + " (" + bytes + " bytes)", startNs, endNs);
  }

  /** A copy back to the host. */
  public static void enqueueReadIfEnabled(String tag, long bytes, long startNs, long endNs) {
    record("read " + tag + " (" + bytes + " bytes)", startNs, endNs);
  }

  /** A kernel launch. */
  public static void enqueueNDRangeKernelIfEnabled(String tag, long startNs, long endNs) {
    record("kernel " + tag, startNs, endNs);
  }

  /** Any span of the program's work. */
  public static void enqueueTaskIfEnabled(String tag, long startNs, long endNs) {
    record(tag, startNs, endNs);
  }

  /** Runs {@code r}, recorded as a span named {@code tag}. */
  public static void trace(String tag, Runnable r) {
    long start = System.nanoTime();
    r.run();
    enqueueTaskIfEnabled(tag, start, System.nanoTime());
  }

  /** Returns {@code b}'s value, its computation recorded as a span named {@code tag}. */
  public static <T> T trace(String tag, Builder<T> b) {
    long start = System.nanoTime();
    T value = b.build();
    enqueueTaskIfEnabled(tag, start, System.nanoTime());
    return value;
  }

  /** What {@link #trace(String, Builder)} computes. */
  public interface Builder<T> {
    T build();
  }

  private static synchronized void record(String tag, long startNs, long endNs) {
    if (!isChromeEventTracerEnabled()) return;
    if (!hooked) {
      hooked = true;
      Runtime.getRuntime().addShutdownHook(new Thread(ChromeEventTracer::write, "chrome-event-tracer"));
    }
    String name = tag.replace("\\", "\\\\").replace("\"", "\\\"");
    EVENTS.add(String.format(java.util.Locale.ROOT, "{\"name\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f}", name,
        Thread.currentThread().threadId(), startNs / 1e3, (endNs - startNs) / 1e3));
  }

  private static synchronized void write() {
    try {
      Files.writeString(Path.of(CHROME_EVENT_TRACER_FILENAME), "{\"traceEvents\":[\n" + String.join(",\n", EVENTS) + "\n]}\n");
    } catch (IOException e) {
      System.err.println("ChromeEventTracer: cannot write " + CHROME_EVENT_TRACER_FILENAME + ": " + e.getMessage());
    }
  }
}
