// Runs a whole task graph on the jvm (the reference) and on every other device, and compares the arrays it names.
package dev.loopjit.testing;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.TaskGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Checks a task graph against the jvm, as {@link KernelCheck} checks one kernel: the supplier
 * builds the graph over fresh arrays (the same values every call: seed them with {@link Inputs})
 * and names the arrays to compare; {@link #run()} executes it once on the {@code jvm} and once on
 * every other device, copies the named arrays back ({@code ExecutionResult.transferToHost}, so
 * even arrays the graph keeps on the device are compared), and compares them element by element.
 * A difference fails with an {@link AssertionError} naming the device, the array, the first
 * differing index with both values and the named arrays' values there before the run.
 *
 * <pre>{@code
 * GraphCheck.of("normalize", () -> {
 *   FloatArray m = new Inputs(5).floatArray(rows * cols, -1, 1), means = new FloatArray(rows);
 *   return GraphCheck.graph(Normalize.graph(m, means, cols)).compare("m", m).compare("means", means);
 * }).run();
 * }</pre>
 */
public final class GraphCheck {
  /** One run's graph and the arrays to compare, by name. */
  public static final class Run {
    private final TaskGraph graph;
    private final Map<String, Object> arrays = new LinkedHashMap<>();

    private Run(TaskGraph graph) {
      this.graph = Objects.requireNonNull(graph, "graph");
    }

    /** Compares {@code array} (a primitive array or a {@code dev.loopjit.types} array) after the run, as {@code name}. */
    public Run compare(String name, Object array) {
      Objects.requireNonNull(name, "name");
      if (!ArrayDiff.isKernelArray(array))
        throw new IllegalArgumentException("compare(\"" + name + "\", ...): " + array + " is not a kernel array");
      if (arrays.putIfAbsent(name, array) != null) throw new IllegalArgumentException("compare: \"" + name + "\" is named twice");
      return this;
    }
  }

  private final String name;
  private final Supplier<Run> runs;
  private Tolerance tolerance = Tolerance.EXACT;
  private GridScheduler grids;

  private GraphCheck(String name, Supplier<Run> runs) {
    this.name = Objects.requireNonNull(name, "name");
    this.runs = Objects.requireNonNull(runs, "runs");
  }

  /** A check of the graph {@code runs} builds (called once per device, with fresh arrays each time). */
  public static GraphCheck of(String name, Supplier<Run> runs) {
    return new GraphCheck(name, runs);
  }

  /** A run of {@code graph}; name the arrays to compare with {@link Run#compare}. */
  public static Run graph(TaskGraph graph) {
    return new Run(graph);
  }

  /** How close floating-point results must be (default {@link Tolerance#EXACT}). */
  public GraphCheck tolerance(Tolerance tolerance) {
    this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
    return this;
  }

  /** Launch grids for the graph's {@code KernelContext} tasks (or local sizes for its {@code @Parallel} ones). */
  public GraphCheck grids(GridScheduler grids) {
    this.grids = Objects.requireNonNull(grids, "grids");
    return this;
  }

  /** Runs on the jvm and on every other device and compares; fails (AssertionError) on any difference. */
  public KernelCheck.Result run() {
    KernelCheck.checkRequiredDevices();
    Run reference = fresh();
    if (reference.arrays.isEmpty()) throw new IllegalArgumentException(name + ": name at least one array to compare with Run.compare");
    Map<String, String> inputs = snapshot(reference);
    runOn(Devices.jvm(), reference);
    List<String> ran = new ArrayList<>(List.of("jvm"));
    for (Device d : Devices.all()) {
      if (d.backend().equals("jvm")) continue;
      Run r = fresh();
      if (!snapshot(r).equals(inputs))
        throw new AssertionError(name + ": the supplier gave different arrays on a second call; seed its random inputs");
      runOn(d, r);
      for (String array : reference.arrays.keySet()) {
        Object expected = reference.arrays.get(array), actual = r.arrays.get(array);
        String why = ArrayDiff.compare(d.id() + " (" + d.name() + ")", name + " array " + array + " (" + ArrayDiff.describe(actual) + ")",
            expected, actual, tolerance);
        if (why != null) throw new AssertionError(why + inputsAt(ArrayDiff.firstDifference(expected, actual, tolerance)));
      }
      ran.add(d.id());
    }
    return new KernelCheck.Result(name, List.copyOf(ran));
  }

  private Run fresh() {
    Run r = runs.get();
    if (r == null) throw new IllegalArgumentException(name + ": the supplier gave no run");
    return r;
  }

  private void runOn(Device device, Run r) {
    try (ExecutionPlan plan = new ExecutionPlan(r.graph.snapshot())) {
      plan.withDevice(device);
      if (grids != null) plan.withGridScheduler(grids);
      plan.execute().transferToHost(r.arrays.values().toArray());
    } catch (RuntimeException e) {
      throw new AssertionError(name + " failed on " + device.id() + " (" + device.name() + "): " + e, e);
    }
  }

  /** The named arrays of a fresh run at {@code index}, as they are before it runs. */
  private String inputsAt(int index) {
    if (index < 0) return "";
    List<String> shown = new ArrayList<>();
    fresh().arrays.forEach((n, a) -> {
      if (index < ArrayDiff.length(a)) shown.add(n + "[" + index + "] = " + ArrayDiff.element(a, index));
    });
    return shown.isEmpty() ? "" : String.format("%n  before the run, at the same index: %s", String.join(", ", shown));
  }

  private static Map<String, String> snapshot(Run r) {
    Map<String, String> s = new LinkedHashMap<>();
    r.arrays.forEach((n, a) -> s.put(n, ArrayDiff.describe(a) + "#" + Arrays.hashCode(ArrayDiff.bits(a))));
    return s;
  }
}
