// Runs one generated kernel on the jvm and on each device, and says where a device's result differs, throws or hangs.
package dev.loopjit.fuzz;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelArithmeticException;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.spi.HostArray;
import dev.loopjit.testing.ArrayDiff;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The differential check: the jvm runs the Java method (the reference), each device runs the
 * compiled kernel on fresh copies of the same arguments, and every array must come back equal bit
 * for bit ({@link Tolerance#EXACT}: NaNs alike whatever their payload, -0.0 distinct from 0.0),
 * except the sink array, which holds the results of built-ins OpenCL only promises within some
 * ulps, and is compared with {@link #SINK_TOLERANCE}. A device that throws, or runs longer than the
 * time limit, is a finding too. A kernel the jvm refuses (its parallel loop would not keep Java's
 * meaning, {@code Compiler.checkParallelMeaning}) must be refused by every device at the same line,
 * and one whose {@code Math.*Exact} overflows on the jvm must throw Java's ArithmeticException everywhere. Runs happen on daemon threads so that a kernel that never ends
 * costs a thread, not the run.
 */
final class Differential {
  /** For the sink: OpenCL's sin, exp, pow, ... (a few ulps), near-zero results (absolute), and large-argument trig. */
  static final Tolerance SINK_TOLERANCE = new Tolerance(64, 1e-9, 1e-300);

  private static final ExecutorService RUNNER = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "fuzz-run");
    t.setDaemon(true);
    return t;
  });

  private Differential() {}

  /** What went wrong on one device. {@code kind}: "differs", "throws", "refuses", "runs" (what the jvm refused) or "hangs". */
  record Finding(String device, String kind, String key, String detail) {
    /** What must stay the same while the minimiser shrinks the kernel. */
    String signature() {
      return device + " " + kind + " " + key;
    }
  }

  /**
   * The result of one kernel.
   *
   * @param invalid  why the kernel itself is no test (the jvm threw: a generator bug), or null
   * @param findings what each device got wrong
   * @param ranOn    the devices that ran it
   * @param refused  whether the jvm refused it (then "ran" means: refused it too, at the same line)
   * @param threw    whether the jvm threw Java's ArithmeticException (then "ran" means: threw it too)
   */
  record Outcome(String invalid, List<Finding> findings, List<String> ranOn, boolean refused, boolean threw) {
    Outcome(String invalid, List<Finding> findings, List<String> ranOn) {
      this(invalid, findings, ranOn, false, false);
    }
  }

  /** The kernel in {@code task} (compiled from {@code k}) on the jvm and every other of {@code devices}. */
  static Outcome run(FuzzKernel k, Serializable task, Device jvm, List<Where> places, Duration limit) {
    Object[] reference = k.arguments();
    try {
      execute(k, task, new Where(jvm, false), reference, limit);
    } catch (KernelCompilationException | KernelArithmeticException failed) {
      return failedEverywhere(k, task, failed, jvm, places, limit);
    } catch (Throwable e) {
      return new Outcome("the jvm reference failed: " + firstLine(e), List.of(), List.of());
    }
    List<Finding> findings = new ArrayList<>();
    List<String> ran = new ArrayList<>(List.of(jvm.id()));
    for (Where w : places) {
      if (w.device().id().equals(jvm.id())) continue;
      Finding f = compare(k, task, w, reference, limit);
      if (f != null) findings.add(f);
      ran.add(w.id());
    }
    return new Outcome(null, findings, ran);
  }

  /**
   * The jvm refused {@code k} (a loop whose iterations would not give Java's result run at once), or
   * it threw Java's ArithmeticException (a {@code Math.*Exact} overflowed): every device must do the
   * same — refuse it at the same line, or throw a {@link KernelArithmeticException} (which work-item's
   * overflow is reported may differ) — and leave every array as it was.
   */
  private static Outcome failedEverywhere(FuzzKernel k, Serializable task, RuntimeException failed, Device jvm, List<Where> places,
      Duration limit) {
    boolean refused = failed instanceof KernelCompilationException;
    List<Finding> findings = new ArrayList<>();
    List<String> ran = new ArrayList<>(List.of(jvm.id()));
    for (Where w : places) {
      if (w.device().id().equals(jvm.id())) continue;
      ran.add(w.id());
      Object[] a = k.arguments();
      try {
        execute(k, task, w, a, limit);
        findings.add(new Finding(w.id(), "runs", "", "runs what the jvm " + (refused ? "refuses: " : "throws for: ") + firstLine(failed)));
      } catch (TimeoutException e) {
        findings.add(new Finding(w.id(), "hangs", "", "did not finish within " + limit.toSeconds() + " s"));
      } catch (Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof KernelCompilationException) && !(cause instanceof KernelArithmeticException)) cause = cause.getCause();
        boolean alike = failed instanceof KernelCompilationException r
            ? cause instanceof KernelCompilationException c && c.line() == r.line() && c.construct().equals(r.construct())
            : cause instanceof KernelArithmeticException;
        if (!alike)
          findings.add(new Finding(w.id(), "throws", key(cause), "the jvm " + (refused ? "refused" : "threw") + " (" + firstLine(failed) + "), this device: "
              + firstLines(cause, 40)));
        else {
          Object[] fresh = k.arguments();
          for (int i = 0; i < a.length; i++)
            if (HostArray.of(a[i]) != null && ArrayDiff.compare(w.id(), "parameter " + k.params().get(i).name(), fresh[i], a[i], Tolerance.EXACT) != null)
              findings.add(new Finding(w.id(), "differs", "", "refused, but changed " + k.params().get(i).name()));
        }
      }
    }
    return new Outcome(null, findings, ran, refused, !refused);
  }

  /** {@code k} on {@code w} against the jvm's {@code reference} results; null when they agree. */
  static Finding compare(FuzzKernel k, Serializable task, Where w, Object[] reference, Duration limit) {
    Object[] a = k.arguments();
    try {
      execute(k, task, w, a, limit);
    } catch (TimeoutException e) {
      return new Finding(w.id(), "hangs", "", "did not finish within " + limit.toSeconds() + " s");
    } catch (Throwable e) {
      Throwable cause = e;
      while (cause.getCause() != null && !(cause instanceof KernelCompilationException)) cause = cause.getCause();
      boolean refused = cause instanceof KernelCompilationException;
      return new Finding(w.id(), refused ? "refuses" : "throws", key(cause), firstLines(cause, 40));
    }
    List<Integer> sinks = k.sinkIndices();
    for (int i = 0; i < a.length; i++) {
      if (HostArray.of(a[i]) == null) continue;
      Tolerance t = sinks.contains(i) ? SINK_TOLERANCE : Tolerance.EXACT;
      String why = ArrayDiff.compare(w.id(), "parameter " + k.params().get(i).name(), reference[i], a[i], t);
      if (why != null) return new Finding(w.id(), "differs", "", why);
    }
    return null;
  }

  private static void execute(FuzzKernel k, Serializable task, Where w, Object[] args, Duration limit) throws Exception {
    Future<?> f = RUNNER.submit(() -> {
      Map<Object, Boolean> seen = new IdentityHashMap<>();
      for (Object o : args) if (HostArray.of(o) != null) seen.put(o, true);
      Object[] arrays = seen.keySet().toArray();
      TaskGraph g = new TaskGraph("fuzz").transferToDevice(DataTransferMode.EVERY_EXECUTION, arrays);
      KernelCheck.addTask(g, "k", task, args);
      g.transferToHost(DataTransferMode.EVERY_EXECUTION, arrays);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
        w.apply(plan);
        if (k.localSize() > 0) plan.withGridScheduler(new GridScheduler("fuzz.k", new WorkerGrid1D(k.globalSize()).setLocalWork(k.localSize(), 1, 1)));
        plan.execute();
      }
      return null;
    });
    try {
      f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception x ? x : new RuntimeException(e.getCause());
    } catch (TimeoutException e) {
      f.cancel(true);
      throw e;
    }
  }

  /** A short, stable name for an exception: its class and the words of its message without numbers and names. */
  static String key(Throwable e) {
    String all = String.valueOf(e.getMessage());
    String m = all.lines().findFirst().orElse("").replaceFirst("^\\S+\\.(kernel|nest|h[0-9]+)( \\([^)]*\\))?: ", "");
    m = m.replaceFirst(" for opencl:.*", ""); // the device, with its name
    // a driver's build log: its first error says which problem this is
    String error = all.lines().filter(l -> l.contains("error:")).findFirst().orElse(null);
    if (error != null) m += " / " + error.substring(error.lastIndexOf(": ") + 2);
    m = m.replaceAll("[0-9]+", "N").replaceAll("'[^']*'", "'…'");
    return e.getClass().getSimpleName() + ": " + (m.length() > 120 ? m.substring(0, 120) : m);
  }

  static String firstLine(Throwable e) {
    return e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }

  static String firstLines(Throwable e, int n) {
    return e.getClass().getName() + ": " + String.join("\n", String.valueOf(e.getMessage()).lines().limit(n).toList());
  }
}
