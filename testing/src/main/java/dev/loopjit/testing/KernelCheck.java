// Runs one kernel on the jvm (the reference) and on every other device, and compares every array argument.
// The loopjit-testing artifact: a user's tests check their kernels the way LoopJIT's own tests check LoopJIT's.
package dev.loopjit.testing;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.Engine;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Task0;
import dev.loopjit.api.Task10;
import dev.loopjit.api.Task11;
import dev.loopjit.api.Task12;
import dev.loopjit.api.Task13;
import dev.loopjit.api.Task14;
import dev.loopjit.api.Task15;
import dev.loopjit.api.Task1;
import dev.loopjit.api.Task2;
import dev.loopjit.api.Task3;
import dev.loopjit.api.Task4;
import dev.loopjit.api.Task5;
import dev.loopjit.api.Task6;
import dev.loopjit.api.Task7;
import dev.loopjit.api.Task8;
import dev.loopjit.api.Task9;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.api.WorkerGrid;
import java.io.Serializable;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodType;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Checks a kernel against the jvm. {@link #run()} builds a task graph that copies every array
 * argument in and back on every execution, runs it on the {@code jvm} device, then on every other
 * device of {@link Devices#all()}, and compares each array argument element by element with the
 * jvm's result ({@link ArrayDiff}, {@link Tolerance}). A difference fails the check with an
 * {@link AssertionError} (JUnit, TestNG and plain {@code assert}-style runners all report it)
 * naming the device, the parameter, how many elements differ, the first differing index with both
 * values and the inputs at that index. Each device gets fresh arguments from the supplier, which
 * must give the same values every time (seeded {@link Inputs}); the check verifies that it does.
 *
 * <pre>{@code
 * KernelCheck.of("saxpy", FloatKernels::saxpy)
 *     .args(() -> { Inputs in = new Inputs(7); return new Object[] {2f, in.floatArray(997, -1, 1), in.floatArray(997, -1, 1)}; })
 *     .run();                                               // exact by default
 * KernelCheck.of("reduce", Explicit::reduce).args(...).grid(new WorkerGrid1D(1024).setLocalWork(64, 1, 1)).run();
 * }</pre>
 *
 * With {@code -Dloopjit.requireDevices=opencl} (or {@code LOOPJIT_REQUIRE_DEVICES=opencl}; a comma
 * list of backends) a check fails when no device of a listed backend exists, so that a suite
 * cannot pass on the jvm alone where devices are expected. Every kernel is also given to each
 * {@link OfflineEmitter} that a {@link KernelCheckExtension} on the class path offers (LoopJIT's
 * own build assembles every kernel's PTX with {@code ptxas} and validates its SPIR-V this way).
 */
public final class KernelCheck {
  /** A kernel as a check saw it, for {@link OfflineEmitter}s: its name, the method reference and the arguments of one run. */
  public record CheckedKernel(String name, Serializable kernel, List<Object> args) {
    public CheckedKernel {
      args = java.util.Collections.unmodifiableList(Arrays.asList(args.toArray()));
    }

    /** The static method behind {@link #kernel()}. */
    public Method method() {
      return methodOf(kernel, name);
    }
  }

  /**
   * A check of the code generated for a kernel with no device: returns null when it passes, else why.
   *
   * @param name  for messages, e.g. {@code "ptxas sm_90"}
   * @param check the check
   */
  public record OfflineEmitter(String name, Function<CheckedKernel, String> check) {}

  /** The offline emitters every check runs by default: those of every {@link KernelCheckExtension} found by ServiceLoader. */
  public static final List<OfflineEmitter> OFFLINE_EMITTERS = loadEmitters();

  /** What a check ran: the kernel's name and the ids of the devices it ran on and matched, jvm first. */
  public record Result(String kernel, List<String> devices) {
    /** Whether some device of {@code backend} ({@code "opencl"}, {@code "cuda"}) ran it. */
    public boolean ranOn(String backend) {
      return devices.stream().anyMatch(id -> id.equals(backend) || id.startsWith(backend + ":"));
    }
  }

  private static final String GRAPH = "check";
  private static final int INPUTS_SHOWN = 8;
  private static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

  private final String name;
  private final Serializable kernel;
  private Supplier<Object[]> args = () -> new Object[0];
  private Tolerance tolerance = Tolerance.EXACT;
  private WorkerGrid grid;
  private List<OfflineEmitter> emitters = OFFLINE_EMITTERS;

  private KernelCheck(String name, Serializable kernel) {
    this.name = Objects.requireNonNull(name, "name");
    this.kernel = Objects.requireNonNull(kernel, "kernel");
  }

  /** A check of {@code kernel}, a {@code Task0}…{@code Task15} method reference to a static method. */
  public static KernelCheck of(String name, Serializable kernel) {
    return new KernelCheck(name, kernel);
  }

  // One overload per arity, so that a plain method reference needs no cast.
  public static KernelCheck of(String name, Task0 k) { return of(name, (Serializable) k); }
  public static <A> KernelCheck of(String name, Task1<A> k) { return of(name, (Serializable) k); }
  public static <A, B> KernelCheck of(String name, Task2<A, B> k) { return of(name, (Serializable) k); }
  public static <A, B, C> KernelCheck of(String name, Task3<A, B, C> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D> KernelCheck of(String name, Task4<A, B, C, D> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E> KernelCheck of(String name, Task5<A, B, C, D, E> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F> KernelCheck of(String name, Task6<A, B, C, D, E, F> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F, G> KernelCheck of(String name, Task7<A, B, C, D, E, F, G> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F, G, H> KernelCheck of(String name, Task8<A, B, C, D, E, F, G, H> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F, G, H, I> KernelCheck of(String name, Task9<A, B, C, D, E, F, G, H, I> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F, G, H, I, J> KernelCheck of(String name, Task10<A, B, C, D, E, F, G, H, I, J> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F, G, H, I, J, K> KernelCheck of(String name, Task11<A, B, C, D, E, F, G, H, I, J, K> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L> KernelCheck of(String name, Task12<A, B, C, D, E, F, G, H, I, J, K, L> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M> KernelCheck of(String name, Task13<A, B, C, D, E, F, G, H, I, J, K, L, M> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M, N> KernelCheck of(String name, Task14<A, B, C, D, E, F, G, H, I, J, K, L, M, N> k) { return of(name, (Serializable) k); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> KernelCheck of(String name, Task15<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> k) { return of(name, (Serializable) k); }

  /** Fresh arguments for one run; called once per device and must give the same values each time. */
  public KernelCheck args(Supplier<Object[]> args) {
    this.args = Objects.requireNonNull(args, "args");
    return this;
  }

  /** How close floating-point results must be (default {@link Tolerance#EXACT}). */
  public KernelCheck tolerance(Tolerance tolerance) {
    this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
    return this;
  }

  /** The launch grid: required for {@code KernelContext} kernels; for {@code @Parallel} ones it sets the local size. */
  public KernelCheck grid(WorkerGrid grid) {
    this.grid = Objects.requireNonNull(grid, "grid");
    return this;
  }

  /** Replaces the default {@link #OFFLINE_EMITTERS} for this check. */
  public KernelCheck offlineEmitters(List<OfflineEmitter> emitters) {
    this.emitters = List.copyOf(emitters);
    return this;
  }

  /** Runs on the jvm and on every other device and compares; fails (AssertionError) on any difference. */
  public Result run() {
    checkRequiredDevices();
    Object[] reference = args.get();
    List<Object> inputs = snapshot(reference);
    runOn(Devices.jvm(), reference);
    List<String> ran = new ArrayList<>(List.of("jvm"));
    for (Device d : Devices.all()) {
      if (d.backend().equals("jvm")) continue;
      Object[] a = fresh(inputs);
      runOn(d, a);
      for (int i = 0; i < a.length; i++) {
        if (!ArrayDiff.isKernelArray(a[i])) continue;
        String why = ArrayDiff.compare(d.id() + " (" + d.name() + ")", name + " " + parameter(i, a[i]), reference[i], a[i], tolerance);
        if (why != null)
          throw new AssertionError(why + inputsAt(methodOf(kernel, name), args.get(), ArrayDiff.firstDifference(reference[i], a[i], tolerance)));
      }
      ran.add(d.id());
    }
    if (Devices.all().size() == 1) fresh(inputs); // check the supplier even when only the jvm runs
    for (OfflineEmitter e : emitters) {
      String why = e.check().apply(new CheckedKernel(name, kernel, Arrays.asList(args.get())));
      if (why != null) throw new AssertionError(name + ": offline emitter " + e.name() + " failed: " + why);
    }
    return new Result(name, List.copyOf(ran));
  }

  private Object[] fresh(List<Object> inputs) {
    Object[] a = args.get();
    if (!snapshot(a).equals(inputs))
      throw new AssertionError(name + ": the argument supplier gave different values on a second call; seed its random inputs");
    return a;
  }

  /** The arguments {@code in} of {@code m} at {@code index} (arrays long enough) and whole (scalars), for a failure message. */
  static String inputsAt(Method m, Object[] in, int index) {
    if (index < 0) return "";
    List<String> shown = new ArrayList<>();
    for (int i = 0; i < in.length && shown.size() < INPUTS_SHOWN; i++) {
      String p = m.getParameters()[i].getName();
      if (ArrayDiff.isKernelArray(in[i])) {
        if (index < ArrayDiff.length(in[i])) shown.add(p + "[" + index + "] = " + ArrayDiff.element(in[i], index));
      } else if (!(in[i] instanceof KernelContext)) {
        shown.add(p + " = " + in[i]);
      }
    }
    return shown.isEmpty() ? "" : String.format("%n  inputs (before the run, same index): %s", String.join(", ", shown));
  }

  /** Runs once on {@code device} with fresh arguments and returns them, arrays as the device left them. */
  public Object[] runOn(Device device) {
    Object[] a = args.get();
    runOn(device, a);
    return a;
  }

  private void runOn(Device device, Object[] a) {
    try (ExecutionPlan plan = new ExecutionPlan(graph(a).snapshot())) {
      plan.withDevice(device);
      if (grid != null) plan.withGridScheduler(new GridScheduler(GRAPH + "." + taskId(), grid));
      plan.execute();
    } catch (RuntimeException e) {
      throw new AssertionError(name + " failed on " + device.id() + " (" + device.name() + "): " + e, e);
    }
    RUNS.computeIfAbsent(device.id(), k -> new AtomicInteger()).incrementAndGet();
  }

  private TaskGraph graph(Object[] a) {
    Map<Object, Boolean> arrays = new IdentityHashMap<>();
    for (Object o : a) if (ArrayDiff.isKernelArray(o)) arrays.put(o, true);
    Object[] moved = arrays.keySet().toArray();
    TaskGraph g = new TaskGraph(GRAPH);
    if (moved.length > 0) g.transferToDevice(DataTransferMode.EVERY_EXECUTION, moved);
    addTask(g, taskId(), kernel, a);
    if (moved.length > 0) g.transferToHost(DataTransferMode.EVERY_EXECUTION, moved);
    return g;
  }

  private String taskId() {
    return name.replaceAll("[^A-Za-z0-9_]", "_");
  }

  private String parameter(int i, Object array) {
    Method m = methodOf(kernel, name);
    return "parameter " + i + " (" + m.getParameters()[i].getName() + ": " + ArrayDiff.describe(array) + ")";
  }

  /** Adds {@code k} (a {@code Task0}…{@code Task15}) to {@code g} as task {@code id} with arguments {@code a}: {@code TaskGraph.task} for any arity. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static TaskGraph addTask(TaskGraph g, String id, Serializable k, Object[] a) {
    int arity = methodOf(k, id).getParameterCount();
    if (arity != a.length)
      throw new IllegalArgumentException("kernel " + id + " takes " + arity + " argument(s); the supplier gave " + a.length);
    return switch (k) {
      case Task0 t -> g.task(id, t);
      case Task1 t -> g.task(id, t, a[0]);
      case Task2 t -> g.task(id, t, a[0], a[1]);
      case Task3 t -> g.task(id, t, a[0], a[1], a[2]);
      case Task4 t -> g.task(id, t, a[0], a[1], a[2], a[3]);
      case Task5 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4]);
      case Task6 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5]);
      case Task7 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
      case Task8 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
      case Task9 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
      case Task10 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
      case Task11 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]);
      case Task12 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
      case Task13 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]);
      case Task14 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]);
      case Task15 t -> g.task(id, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]);
      default -> throw new IllegalArgumentException("kernel " + id + " is a " + k.getClass().getName() + ", not a Task0..Task15");
    };
  }

  /**
   * The static method behind a serializable method reference (through the {@link SerializedLambda}
   * its {@code writeReplace} gives, as the engine finds it); IllegalArgumentException naming
   * {@code what} when there is none.
   */
  static Method methodOf(Serializable code, String what) {
    SerializedLambda sl;
    try {
      Method wr = code.getClass().getDeclaredMethod("writeReplace");
      wr.setAccessible(true);
      sl = (SerializedLambda) wr.invoke(code);
    } catch (ReflectiveOperationException | ClassCastException | SecurityException e) {
      throw new IllegalArgumentException("kernel " + what + ": cannot find the method behind " + code.getClass().getName()
          + "; pass a method reference to a static method, such as Kernels::saxpy", e);
    }
    if (sl.getImplMethodKind() != MethodHandleInfo.REF_invokeStatic || sl.getCapturedArgCount() != 0)
      throw new IllegalArgumentException("kernel " + what + ": " + sl.getImplClass().replace('/', '.') + "::" + sl.getImplMethodName()
          + " is not a method reference to a static method");
    try {
      Class<?> owner = Class.forName(sl.getImplClass().replace('/', '.'), false, code.getClass().getClassLoader());
      MethodType type = MethodType.fromMethodDescriptorString(sl.getImplMethodSignature(), owner.getClassLoader());
      for (Method m : owner.getDeclaredMethods())
        if (m.getName().equals(sl.getImplMethodName()) && Modifier.isStatic(m.getModifiers())
            && MethodType.methodType(m.getReturnType(), m.getParameterTypes()).equals(type)) return m;
      throw new IllegalArgumentException("kernel " + what + ": no static method " + owner.getName() + "." + sl.getImplMethodName());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("kernel " + what + ": class " + sl.getImplClass() + " not found", e);
    }
  }

  /** Arguments as comparable values: arrays by type, length and a hash of their bits, scalars as themselves. */
  private static List<Object> snapshot(Object[] a) {
    List<Object> s = new ArrayList<>(a.length);
    for (Object o : a) {
      if (ArrayDiff.isKernelArray(o)) s.add(ArrayDiff.describe(o) + "#" + Arrays.hashCode(ArrayDiff.bits(o)));
      else if (o instanceof KernelContext) s.add("KernelContext");
      else s.add(o);
    }
    return s;
  }

  /** How many checks ran on each device id in this JVM so far. */
  public static Map<String, Integer> runsByDevice() {
    Map<String, Integer> m = new TreeMap<>();
    RUNS.forEach((k, v) -> m.put(k, v.get()));
    return m;
  }

  /**
   * Throws IllegalStateException when this loopjit-testing and the loopjit-jit on the class path are
   * different versions (as their jars' manifests say; classes from a build directory have none).
   */
  static void checkVersions() {
    String problem = versionProblem(KernelCheck.class.getPackage().getImplementationVersion(), Engine.class.getPackage().getImplementationVersion());
    if (problem != null) throw new IllegalStateException(problem);
  }

  /** Why loopjit-testing {@code testing} cannot run against loopjit-jit {@code engine}, or null. */
  static String versionProblem(String testing, String engine) {
    if (testing == null || engine == null || testing.equals(engine)) return null;
    return "loopjit-testing " + testing + " is running against loopjit-jit " + engine + ": use the same version of both "
        + "(in Maven one property, e.g. <loopjit.version>" + engine + "</loopjit.version>, for dev.loopjit:loopjit-jit and "
        + "dev.loopjit:loopjit-testing)";
  }

  /** Fails when a backend listed in {@code loopjit.requireDevices} / {@code LOOPJIT_REQUIRE_DEVICES} has no device. */
  public static void checkRequiredDevices() {
    checkVersions();
    List<String> missing = missingBackends(requiredDevices(), Devices.all());
    if (!missing.isEmpty())
      throw new AssertionError("loopjit.requireDevices asks for " + missing + " but there is no such device; devices: "
          + Devices.all().stream().map(Device::id).toList() + "; problems: " + Engine.get().problems());
  }

  /** The system property {@code loopjit.requireDevices}, else the environment variable {@code LOOPJIT_REQUIRE_DEVICES}, else null. */
  static String requiredDevices() {
    String v = System.getProperty("loopjit.requireDevices");
    if (v == null || v.isBlank()) v = System.getenv("LOOPJIT_REQUIRE_DEVICES");
    return v == null || v.isBlank() ? null : v.trim();
  }

  /** The backends named in {@code required} (a comma list, or null) that none of {@code devices} belongs to. */
  public static List<String> missingBackends(String required, List<Device> devices) {
    if (required == null || required.isBlank()) return List.of();
    List<String> missing = new ArrayList<>();
    for (String b : required.split(",")) {
      String backend = b.trim().toLowerCase(Locale.ROOT);
      if (!backend.isEmpty() && devices.stream().noneMatch(d -> d.backend().equals(backend))) missing.add(backend);
    }
    return missing;
  }

  private static List<OfflineEmitter> loadEmitters() {
    List<OfflineEmitter> all = new ArrayList<>();
    for (KernelCheckExtension x : ServiceLoader.load(KernelCheckExtension.class, KernelCheck.class.getClassLoader()))
      all.addAll(x.offlineEmitters());
    return List.copyOf(all);
  }
}
