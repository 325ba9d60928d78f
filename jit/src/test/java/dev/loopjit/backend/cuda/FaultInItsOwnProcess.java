// A kernel fault on cuda:0, run as its own process: NVIDIA's driver keeps a fault until the process exits, so it must not share a JVM with other tests.
package dev.loopjit.backend.cuda;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link #main} faults cuda:0 (a write far past an array with bounds checks off), then tries the
 * same plan again, closes it, and opens a new plan, printing what each step threw (or {@code ok})
 * as {@code STEP<TAB>message} lines. {@link #run} starts it in a JVM of its own with this one's class
 * path and {@code loopjit.*} settings and returns those lines by step.
 */
final class FaultInItsOwnProcess {
  private FaultInItsOwnProcess() {}

  /** With bounds checks off, writes far past the end of {@code a}: on a GPU an illegal address. */
  static void writeFar(int[] a, int far) {
    for (@Parallel int i = 0; i < a.length; i++) a[i + far] = i;
  }

  static void addOne(int[] a) {
    for (@Parallel int i = 0; i < a.length; i++) a[i] += 1;
  }

  /**
   * How far past the array the kernel writes, tried in turn until one faults: on an H200 a write
   * 64 MiB (2^24 ints) past a fresh process's first array landed in memory the driver had mapped
   * (its local-memory reserve, presumably) and nothing faulted — silently, which is what bounds
   * checks are for — while the same write faulted in a process that had allocated more.
   */
  private static final int[] FAR = {1 << 24, 1 << 28, Integer.MAX_VALUE - 64};

  public static void main(String[] args) {
    CudaDevice d = (CudaDevice) CudaTesting.backend().devices(dev.loopjit.runtime.Settings.options()).get(0);
    ExecutionPlan faulty = null;
    String first = "ok";
    for (int far : FAR) {
      int[] a = new int[64];
      TaskGraph bad = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
          .task("far", FaultInItsOwnProcess::writeFar, a, far).transferToHost(DataTransferMode.EVERY_EXECUTION, a);
      ExecutionPlan plan = new ExecutionPlan(bad.snapshot()).withDevice(d).withSetting("boundsChecks", "false");
      first = outcome(plan::execute);
      System.out.println("far\t" + far + "\t" + first);
      if (!first.equals("ok")) {
        faulty = plan;
        break;
      }
      plan.close();
    }
    System.out.println("first\t" + first);
    if (faulty == null) return;
    ExecutionPlan failed = faulty;
    report("again", failed::execute);
    report("close", failed::close);
    int[] b = {1, 2, 3};
    report("next", () -> {
      try (ExecutionPlan fresh = new ExecutionPlan(new TaskGraph("h").transferToDevice(DataTransferMode.EVERY_EXECUTION, b)
          .task("add", FaultInItsOwnProcess::addOne, b).transferToHost(DataTransferMode.EVERY_EXECUTION, b).snapshot()).withDevice(d)) {
        fresh.execute();
      }
    });
    report("after", () -> new ExecutionPlan(new TaskGraph("i").transferToDevice(DataTransferMode.EVERY_EXECUTION, b)
        .task("add", FaultInItsOwnProcess::addOne, b).snapshot()).withDevice(d).execute());
    System.out.println("b\t" + java.util.Arrays.toString(b));
  }

  private static void report(String step, Runnable r) {
    System.out.println(step + "\t" + outcome(r));
  }

  /** "ok", or what {@code r} threw: its class, message and causes' messages, on one line. */
  private static String outcome(Runnable r) {
    try {
      r.run();
      return "ok";
    } catch (RuntimeException e) {
      StringBuilder m = new StringBuilder(e.getClass().getSimpleName()).append(": ").append(e.getMessage());
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) m.append(" / ").append(c.getMessage());
      return m.toString().replace('\n', ' ');
    }
  }

  /**
   * This JVM's class path, with what the loaders above this class add (JUnit's console launcher, as
   * {@code loopjit test} runs it, loads the tests through a class loader of its own).
   */
  private static String classPath() {
    List<String> entries = new ArrayList<>();
    for (ClassLoader l = FaultInItsOwnProcess.class.getClassLoader(); l != null; l = l.getParent())
      if (l instanceof java.net.URLClassLoader u)
        for (java.net.URL url : u.getURLs())
          if (url.getProtocol().equals("file")) entries.add(Path.of(java.net.URI.create(url.toString())).toString());
    entries.add(System.getProperty("java.class.path"));
    return String.join(java.io.File.pathSeparator, entries);
  }

  /** Runs {@link #main} in a new JVM: its lines by step ({@code first}, {@code again}, {@code close}, {@code next}, {@code after}, {@code b}). */
  static Map<String, String> run() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector", "-cp", classPath()));
    for (String key : System.getProperties().stringPropertyNames())
      if (key.startsWith("loopjit.")) command.add("-D" + key + "=" + System.getProperty(key));
    command.add(FaultInItsOwnProcess.class.getName());
    Path log = Files.createTempFile("loopjit-fault", ".log");
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("the faulting process did not end in 120 s:\n" + Files.readString(log));
      }
      String out = Files.readString(log);
      if (p.exitValue() != 0) throw new AssertionError("the faulting process exited with " + p.exitValue() + ":\n" + out);
      Map<String, String> steps = new LinkedHashMap<>();
      for (String line : out.split("\n")) {
        int tab = line.indexOf('\t');
        if (tab > 0) steps.put(line.substring(0, tab), line.substring(tab + 1));
      }
      return steps;
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
