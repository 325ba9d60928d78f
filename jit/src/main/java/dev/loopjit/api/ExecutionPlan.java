// Runs task graphs on a device: picks the device, keeps device buffers and compiled kernels between runs.
package dev.loopjit.api;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Executes one or more task graphs, in order, on one device or with tasks placed on several ({@link #withDevice(String, Device)}). The plan keeps, per device, one
 * buffer for each host array and the compiled kernels, so later executions copy only what the
 * transfer modes ask and compile nothing. Close it to free device memory.
 *
 * <pre>{@code
 * try (ExecutionPlan plan = new ExecutionPlan(graph.snapshot())) {
 *   ExecutionResult r = plan.withDevice(Devices.best()).withProfiler().execute();
 *   System.out.println(r.profile());
 * }
 * }</pre>
 *
 * Nothing falls back silently: if a kernel cannot be compiled for the device the plan throws
 * {@link KernelCompilationException} before anything runs, unless it was made
 * {@link #withFallback(Device)}, in which case the result says where it ran and why.
 */
public class ExecutionPlan implements AutoCloseable {
  private final List<Engine.Graph> graphs;
  private List<Engine.Graph> selected;
  private final Map<String, String> settings = new LinkedHashMap<>();
  private final List<String> ignoredFlags = new ArrayList<>();
  private final Map<TornadoVMBackendType, List<String>> backendFlags = new java.util.EnumMap<>(TornadoVMBackendType.class);
  private Device device;
  /** Devices chosen for single tasks, by "graph.task"; the other tasks run on {@link #device}. */
  private final Map<String, Device> taskDevices = new LinkedHashMap<>();
  private boolean concurrentDevices;
  private Device fallback;
  private boolean profiler, printProfiles;
  private GridScheduler scheduler;
  private static final java.util.concurrent.atomic.AtomicLong PLANS = new java.util.concurrent.atomic.AtomicLong();
  private final long id = PLANS.incrementAndGet();
  private Engine.Executor executor;
  private Engine.Executor fallbackExecutor;
  private boolean closed;

  /** A plan over these graphs, run in the order given. */
  public ExecutionPlan(ImmutableTaskGraph... graphs) {
    if (graphs.length == 0) throw new IllegalArgumentException("an ExecutionPlan needs at least one task graph");
    this.graphs = Arrays.stream(graphs).map(g -> Objects.requireNonNull(g, "task graph").graph()).toList();
    for (int i = 0; i < this.graphs.size(); i++)
      for (int j = 0; j < i; j++)
        if (this.graphs.get(i).name().equals(this.graphs.get(j).name()))
          throw new IllegalArgumentException("two task graphs named \"" + this.graphs.get(i).name() + "\" in one plan");
    checkHandOvers(graphs);
    this.selected = this.graphs;
  }

  /** Each array a graph consumes from the device is persisted by the graph it names (any graph of the plan, when none is named). */
  private static void checkHandOvers(ImmutableTaskGraph[] graphs) {
    for (ImmutableTaskGraph g : graphs)
      for (var e : g.consumed().entrySet())
        for (Object array : e.getValue()) {
          boolean found = false, named = e.getKey().isEmpty();
          for (ImmutableTaskGraph p : graphs) {
            if (!e.getKey().isEmpty() && !p.getTaskGraphName().equals(e.getKey())) continue;
            named = true;
            for (Object o : p.persisted()) found |= o == array;
          }
          String what = "graph \"" + g.getTaskGraphName() + "\" consumes a " + array.getClass().getSimpleName() + " from the device";
          if (!named) throw new IllegalArgumentException(what + " as graph \"" + e.getKey() + "\" left it, but this plan has no graph \"" + e.getKey() + "\"");
          if (!found)
            throw new IllegalArgumentException(what + (e.getKey().isEmpty() ? " that no graph of this plan persists"
                : " that graph \"" + e.getKey() + "\" does not persist") + " (persistOnDevice)");
        }
  }

  /**
   * Runs every task on {@code device} from the next execution on (default: {@link Devices#best()});
   * devices chosen before for single tasks are forgotten, as in TornadoVM.
   */
  public synchronized ExecutionPlan withDevice(Device device) {
    open();
    Objects.requireNonNull(device, "device");
    if (this.device != null && !this.device.id().equals(device.id()) || !taskDevices.isEmpty()) closeExecutor();
    taskDevices.clear();
    this.device = device;
    return this;
  }

  /**
   * Runs the task {@code task} ({@code "graph.task"}, as TornadoVM names tasks) on {@code device},
   * the others where they were: one plan over several devices. Each device keeps its own buffers
   * and kernels; an array a task on one device wrote and a task on another uses is copied back to
   * its host array and then in (there is no other way between two drivers), so the host array holds
   * the value it had at that point of the graph. Every device prepares its tasks before anything
   * runs anywhere. Tasks run in graph order unless {@link #withConcurrentDevices()}. Takes effect
   * from the next execution.
   *
   * <pre>{@code
   * plan.withDevice("g.scale", Devices.get("opencl:0")).withDevice("g.sum", Devices.get("jvm-mt"));
   * }</pre>
   */
  public synchronized ExecutionPlan withDevice(String task, Device device) {
    open();
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(device, "device");
    List<String> names = new ArrayList<>();
    for (Engine.Graph g : graphs) for (String t : g.taskIds()) names.add(g.name() + "." + t);
    if (!names.contains(task))
      throw new IllegalArgumentException("withDevice: no task \"" + task + "\" in this plan; its tasks are " + String.join(", ", names));
    Device before = taskDevices.put(task, device);
    if (before == null || !before.id().equals(device.id())) closeExecutor();
    return this;
  }

  /** {@link #withDevice(String, Device)} for a variable declared as TornadoVM's {@link TornadoDevice}. */
  public ExecutionPlan withDevice(String task, TornadoDevice device) {
    return withDevice(task, (Device) device);
  }

  /**
   * Lets tasks on different devices ({@link #withDevice(String, Device)}) run at the same time: a
   * task waits only for the earlier tasks on other devices that write an array it uses or use an
   * array it writes; each device still runs its own tasks in graph order. The results are those of
   * the graph run in order.
   */
  public synchronized ExecutionPlan withConcurrentDevices() {
    open();
    if (!concurrentDevices) closeExecutor();
    concurrentDevices = true;
    return this;
  }

  /** Runs tasks in graph order again, one device at a time (after {@link #withConcurrentDevices()}). */
  public synchronized ExecutionPlan withoutConcurrentDevices() {
    open();
    if (concurrentDevices) closeExecutor();
    concurrentDevices = false;
    return this;
  }

  /** The devices this plan's tasks run on: its own ({@link #device()}) first, then those chosen for single tasks. */
  public synchronized List<Device> devices() {
    return placement().devices();
  }

  /** The device task {@code "graph.task"} runs on. */
  public synchronized Device device(String task) {
    return placement().deviceOf(task);
  }

  /**
   * Prints each step of every execution as it is issued — the graph, copies in and out, launches,
   * bounds checks, waits, arrays moved between devices — each line headed by its device, arrays
   * named {@code a0}, {@code a1}, … in the order the graphs first use them.
   */
  public synchronized ExecutionPlan withPrintSchedule() {
    return withSetting("printSchedule", "true");
  }

  /**
   * Runs each graph whose arrays are larger than {@code size} ({@code "256MB"}, {@code "1GB"},
   * {@code "512KB"} or a number of bytes; units are powers of 1024) in slices, as TornadoVM's
   * {@code withBatch} does, so that data larger than a device's memory can be processed: slice k
   * holds elements [k·S, (k+1)·S) of every array the tasks use element by element (S elements of
   * the largest element type in {@code size}), each copied in, computed and the written ones copied
   * back before the next. The result is the one the whole graph gives: each task must work element by
   * element — one {@code @Parallel} loop from 0 to an array's length, each such array touched only
   * at the loop index, other arrays only read — which the plan proves from the code before anything
   * runs, refusing a graph that does not (naming the task and why). One device only. The same as
   * {@code withSetting("batch", bytes)}.
   */
  public synchronized ExecutionPlan withBatch(String size) {
    return withSetting("batch", Long.toString(bytes("withBatch", size)));
  }

  /** {@code "256MB"}, {@code "1GB"}, {@code "512KB"} or a number of bytes (units are powers of 1024), for {@code what}. */
  private static long bytes(String what, String size) {
    Objects.requireNonNull(size, "size");
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)\\s*(\\d+(?:\\.\\d+)?)\\s*(B|KB|MB|GB)?\\s*").matcher(size);
    double n = m.matches() ? Double.parseDouble(m.group(1)) : -1;
    String unit = m.matches() && m.group(2) != null ? m.group(2).toUpperCase(java.util.Locale.ROOT) : "B";
    long bytes = (long) (n * switch (unit) { case "GB" -> 1L << 30; case "MB" -> 1L << 20; case "KB" -> 1L << 10; default -> 1L; });
    if (!(n > 0) || bytes < 1)
      throw new IllegalArgumentException(what + ": a size is a positive number of bytes, KB, MB or GB (\"256MB\"), not \"" + size + "\"");
    return bytes;
  }

  /**
   * Limits the device memory this plan's buffers may take ({@code "1GB"}, as {@link #withBatch}), as
   * TornadoVM's {@code withMemoryLimit} does: an execution that would allocate past it throws
   * {@link TornadoMemoryException} before anything runs, naming what it needs. Arrays a device
   * uses in place (host memory) count nothing. Takes effect from the next execution.
   */
  public synchronized ExecutionPlan withMemoryLimit(String size) {
    return withSetting("memoryLimit", Long.toString(bytes("withMemoryLimit", size)));
  }

  /** Lifts the limit of {@link #withMemoryLimit(String)}. */
  public synchronized ExecutionPlan withoutMemoryLimit() {
    return withSetting("memoryLimit", null);
  }

  /** Runs graphs whole again (after {@link #withBatch(String)}). */
  public synchronized ExecutionPlan withoutBatch() {
    return withSetting("batch", null);
  }

  /**
   * TornadoVM's reductions for this plan: before each execution, every element a {@code @Reduce}
   * update writes is set to its operator's neutral element (0 for a sum, 1 for a product, +∞ / −∞
   * or the integer type's MAX / MIN for min / max), on every device, so each execution reduces
   * afresh. Without it (the default) a reduction starts from the array's value, as Java's loop
   * does: the host's value when the array is copied in, else what the previous execution left on
   * the device. The same as {@code withSetting("reduceReset", "true")}.
   */
  public synchronized ExecutionPlan withReduceReset() {
    return withSetting("reduceReset", "true");
  }

  /** Reductions start from the arrays' values again (after {@link #withReduceReset()}). */
  public synchronized ExecutionPlan withoutReduceReset() {
    return withSetting("reduceReset", null);
  }

  /**
   * TornadoVM's {@code withCUDAGraph()}: there, the plan's CUDA launches are captured into a CUDA
   * graph and replayed. LoopJIT does not capture graphs yet; it accepts the call so that the
   * program compiles and runs the same kernels with the same results. Returns this plan.
   */
  public synchronized ExecutionPlan withCUDAGraph() {
    open();
    return this;
  }

  /**
   * TornadoVM's {@code withIntraPlanConcurrency()}: there, copies and kernels that do not depend on
   * each other go to separate CUDA streams. LoopJIT runs a device's work in order on one queue; it
   * accepts the call, with the same results. Returns this plan.
   */
  public synchronized ExecutionPlan withIntraPlanConcurrency() {
    open();
    return this;
  }

  /** TornadoVM's {@code withoutIntraPlanConcurrency()}: see {@link #withIntraPlanConcurrency()}. */
  public synchronized ExecutionPlan withoutIntraPlanConcurrency() {
    open();
    return this;
  }

  /** TornadoVM's {@code withoutCUDAGraph()}: see {@link #withCUDAGraph()}. */
  public synchronized ExecutionPlan withoutCUDAGraph() {
    open();
    return this;
  }

  /** Stops printing the steps (after {@link #withPrintSchedule()}). */
  public synchronized ExecutionPlan withoutPrintSchedule() {
    return withSetting("printSchedule", null);
  }

  /** The plan's device, the tasks it placed elsewhere, and those TornadoVM's {@code -Dgraph.task.device=B:D} places. */
  private Engine.Placement placement() {
    Map<String, Device> tasks = new LinkedHashMap<>();
    for (Engine.Graph g : graphs)
      for (String t : g.taskIds()) {
        String name = g.name() + "." + t;
        String setting = Engine.get().settingsDeviceOf(name);
        if (setting != null && !taskDevices.containsKey(name)) tasks.put(name, settingDevice(name, setting));
      }
    tasks.putAll(taskDevices);
    return new Engine.Placement(device(), tasks, concurrentDevices || Engine.get().settingsConcurrentDevices());
  }

  /** The device {@code -D<task>.device=<value>} names: {@code B:D} as {@link #getDevice(int, int)}, or a device id. */
  private static Device settingDevice(String task, String value) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+):(\\d+)").matcher(value);
    try {
      return m.matches() ? getDevice(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))) : Devices.get(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("-D" + task + ".device=" + value + ": " + e.getMessage(), e);
    }
  }

  /** {@link #withDevice(Device)} for a variable declared as TornadoVM's {@link TornadoDevice} (every one is a {@link Device}). */
  public ExecutionPlan withDevice(TornadoDevice device) {
    return withDevice((Device) device);
  }

  /**
   * TornadoVM's {@code TornadoExecutionPlan.getDevice(backendIndex, deviceIndex)}: device
   * {@code deviceIndex} of backend {@code backendIndex} as {@link TornadoRuntime} numbers them
   * (backend 0, device 0 is {@link Devices#best()}).
   */
  public static Device getDevice(int backendIndex, int deviceIndex) {
    return TornadoRuntime.INSTANCE.getBackend(backendIndex).getDevice(deviceIndex);
  }

  /**
   * Runs on the device with this id ({@code "jvm"}, {@code "opencl:0"}, {@code "cuda:0"}). An
   * OpenCL id may name the form its programs take: {@code "opencl:0/spirv"} (SPIR-V, as
   * {@code withSetting("opencl.program", "spirv")}) or {@code "opencl:0/source"} (OpenCL C).
   */
  public ExecutionPlan withDevice(String id) {
    Objects.requireNonNull(id, "id");
    int slash = id.indexOf('/');
    if (slash < 0) return withDevice(Devices.get(id));
    String form = id.substring(slash + 1);
    Device d = Devices.get(id.substring(0, slash));
    if (!d.backend().equals("opencl") || !(form.equals("spirv") || form.equals("source")))
      throw new IllegalArgumentException("device \"" + id + "\": a program form (/spirv or /source) is given to OpenCL devices only"
          + (d.backend().equals("opencl") ? ", not /" + form : "; " + d.id() + " is a " + d.backend() + " device"));
    return withDevice(d).withSetting("opencl.program", form);
  }

  /**
   * The schedule the next {@link #execute()} will run, one step a line headed by its device: each
   * copy in (and why), launch, bounds check, wait and copy back, and on a plan over several devices
   * first the arrays that move between them. Compiles the kernels (errors surface here) but
   * allocates, copies and runs nothing. {@code loopjit dump --schedule} prints it from the command line.
   */
  public synchronized String schedule() {
    open();
    return String.join("\n", executor().schedule(selected, options()));
  }

  /**
   * Compiles every task's kernel for the device now, so that the first {@link #execute()} only
   * copies and launches; compile errors surface here. Returns this plan.
   */
  public synchronized ExecutionPlan withPreCompilation() {
    open();
    executor().compile(graphs, options());
    return this;
  }

  /**
   * Compiler flags, as TornadoVM programs pass them. Those with a LoopJIT meaning are applied:
   * {@code -cl-fast-relaxed-math}, {@code -cl-unsafe-math-optimizations}, {@code -cl-mad-enable},
   * {@code -cl-finite-math-only}, {@code -use_fast_math}/{@code --use_fast_math} and
   * {@code -ftz=true} relax strict Java float semantics for this plan (as {@code loopjit.fastMath});
   * the others are accepted and reported by {@link #ignoredCompilerFlags()}. Takes effect from the
   * next execution (the plan's device state is rebuilt).
   */
  public synchronized ExecutionPlan withCompilerFlags(String... flags) {
    open();
    if (split(flags).stream().anyMatch(FAST_MATH_FLAGS::contains)) settings.put("fastMath", "true");
    closeExecutor();
    return this;
  }

  /** The single flags in {@code flags} (each may hold several, space-separated); those with no LoopJIT meaning are added to {@link #ignoredCompilerFlags()}. */
  private List<String> split(String... flags) {
    List<String> list = new ArrayList<>();
    for (String f : Objects.requireNonNull(flags, "flags"))
      for (String flag : Objects.requireNonNull(f, "flag").trim().split("\\s+")) {
        if (flag.isEmpty()) continue;
        list.add(flag);
        if (!FAST_MATH_FLAGS.contains(flag) && !ignoredFlags.contains(flag)) ignoredFlags.add(flag);
      }
    return list;
  }

  /**
   * Compiler flags for one kind of device, as TornadoVM programs pass them
   * ({@code withCompilerFlags(TornadoVMBackendType.PTX, "-use_fast_math")}): the same flags as
   * {@link #withCompilerFlags(String...)}, applied only when the plan runs on a device of
   * {@code backend} (see {@link TornadoVMBackendType}); flags with no LoopJIT meaning are reported by
   * {@link #ignoredCompilerFlags()}. A later call for the same backend replaces its flags. Takes
   * effect from the next execution.
   */
  public synchronized ExecutionPlan withCompilerFlags(TornadoVMBackendType backend, String flags) {
    open();
    Objects.requireNonNull(backend, "backend");
    backendFlags.put(backend, List.copyOf(split(flags)));
    closeExecutor();
    return this;
  }

  /** The plan's settings for {@code d}: its own, with fast math where flags given for {@code d}'s backend ask for it. */
  Map<String, String> settingsFor(Device d) {
    TornadoVMBackendType kind = TornadoVMBackendType.of(d, settings.get("opencl.program"));
    List<String> flags = new ArrayList<>();
    backendFlags.forEach((backend, given) -> {
      if (backend.covers(kind)) flags.addAll(given);
    });
    if (flags.stream().noneMatch(FAST_MATH_FLAGS::contains)) return settings;
    Map<String, String> s = new LinkedHashMap<>(settings);
    s.put("fastMath", "true");
    return s;
  }

  private static final List<String> FAST_MATH_FLAGS = List.of("-cl-fast-relaxed-math", "-cl-unsafe-math-optimizations", "-cl-mad-enable",
      "-cl-finite-math-only", "-use_fast_math", "--use_fast_math", "-ftz=true");

  /** The compiler flags given to {@link #withCompilerFlags} that have no LoopJIT meaning, in order. */
  public synchronized List<String> ignoredCompilerFlags() {
    return List.copyOf(ignoredFlags);
  }

  /**
   * Sets one of LoopJIT's settings for this plan only: {@code key} as after {@code loopjit.} in the
   * settings table of docs/guide/devices.md (e.g. {@code withSetting("opencl.program", "spirv")} to build this plan's kernels
   * from SPIR-V, {@code withSetting("fastMath", "true")}); null removes the plan's value. Takes
   * effect from the next execution (the plan's device state is rebuilt).
   */
  public synchronized ExecutionPlan withSetting(String key, String value) {
    open();
    Objects.requireNonNull(key, "key");
    if (value == null) settings.remove(key);
    else settings.put(key, value);
    closeExecutor();
    return this;
  }

  /**
   * Ends an execution whose kernels run longer than {@code timeout}: {@link #execute()} throws
   * {@link KernelTimeoutException} naming the task, the plan abandons its device state and cannot be
   * used again, host arrays are unchanged. With a timeout the device never uses host memory in place
   * (zero-copy), so that a kernel still running cannot write into them. The default comes from the
   * {@code loopjit.timeout} setting (e.g. {@code 30s}); {@code null} removes the plan's own.
   */
  public synchronized ExecutionPlan withTimeout(java.time.Duration timeout) {
    open();
    if (timeout != null && (timeout.isNegative() || timeout.isZero()))
      throw new IllegalArgumentException("a timeout must be positive, not " + timeout);
    return withSetting("timeout", timeout == null ? null : timeout.toMillis() + "ms");
  }

  /** Prints each kernel's generated code (OpenCL C, PTX, …) when it is compiled for this plan. */
  public synchronized ExecutionPlan withPrintKernel() {
    open();
    settings.put("printKernel", "true");
    closeExecutor();
    return this;
  }

  /** Prints each launch's shape (global and local work sizes, device) as it is enqueued. */
  public synchronized ExecutionPlan withThreadInfo() {
    open();
    settings.put("threadInfo", "true");
    closeExecutor();
    return this;
  }

  /** Stops printing launches (after {@link #withThreadInfo()}). */
  public synchronized ExecutionPlan withoutThreadInfo() {
    open();
    if (settings.remove("threadInfo") != null) closeExecutor();
    return this;
  }

  /** Stops printing kernels as they are compiled (after {@link #withPrintKernel()}). */
  public synchronized ExecutionPlan withoutPrintKernel() {
    open();
    if (settings.remove("printKernel") != null) closeExecutor();
    return this;
  }

  /** Runs only the graph at {@code index} (in the order given to the constructor) from the next execution on. */
  public synchronized ExecutionPlan withGraph(int index) {
    open();
    if (index < 0 || index >= graphs.size())
      throw new IllegalArgumentException("graph index " + index + " is not in this plan of " + graphs.size() + " graph(s)");
    selected = List.of(graphs.get(index));
    return this;
  }

  /** Runs every graph again (after {@link #withGraph(int)}). */
  public synchronized ExecutionPlan withAllGraphs() {
    open();
    selected = graphs;
    return this;
  }

  /**
   * Frees the plan's device memory now, keeping its compiled kernels: the next execution
   * allocates again and copies every array in, as the first did.
   */
  public synchronized ExecutionPlan freeDeviceMemory() {
    open();
    if (executor != null) executor.freeMemory();
    if (fallbackExecutor != null) fallbackExecutor.freeMemory();
    return this;
  }

  /** Bytes of device memory the plan holds now (its buffers; arrays used in place count nothing). */
  public synchronized long getDeviceMemoryUsage() {
    open();
    return (executor == null ? 0 : executor.memoryBytes()) + (fallbackExecutor == null ? 0 : fallbackExecutor.memoryBytes());
  }

  /** Measures kernel and copy times with device events; see {@link Profile}. */
  public synchronized ExecutionPlan withProfiler() {
    return withProfiler(ProfilerMode.SILENT);
  }

  /** {@link #withProfiler()}, and with {@link ProfilerMode#CONSOLE} each execution's profile printed to standard output too. */
  public synchronized ExecutionPlan withProfiler(ProfilerMode mode) {
    open();
    profiler = true;
    printProfiles = Objects.requireNonNull(mode, "mode") == ProfilerMode.CONSOLE;
    return this;
  }

  /** Stops measuring kernel and copy times (after {@link #withProfiler()}): a profile then has only what is always filled. */
  public synchronized ExecutionPlan withoutProfiler() {
    open();
    profiler = false;
    printProfiles = false;
    return this;
  }

  /**
   * TornadoVM's {@code getTraceExecutionPlan()}: what this plan will do, as text — its graphs and
   * their tasks, the devices, and the settings and switches given to it. The same plan gives the
   * same text.
   */
  public synchronized String getTraceExecutionPlan() {
    StringBuilder b = new StringBuilder("ExecutionPlan ").append(id).append('\n');
    for (Engine.Graph g : selected) b.append("  graph ").append(g.name()).append(' ').append(g.taskIds()).append('\n');
    b.append("  devices ").append(devices().stream().map(Device::id).toList());
    if (!taskDevices.isEmpty()) {
      b.append(", tasks");
      taskDevices.forEach((t, d) -> b.append(' ').append(t).append('=').append(d.id()));
    }
    if (concurrentDevices) b.append(", concurrent");
    b.append('\n');
    if (!settings.isEmpty()) b.append("  settings ").append(settings).append('\n');
    if (profiler) b.append("  profiler\n");
    if (scheduler != null) b.append("  grid scheduler\n");
    if (fallback != null) b.append("  fallback ").append(fallback.id()).append('\n');
    return b.toString();
  }

  /** How many plans this JVM has made. */
  static long plansMade() {
    return PLANS.get();
  }

  /** How many graphs the plan has. */
  int graphCount() {
    return graphs.size();
  }

  /** This plan's number: 1 for the first plan made in this JVM, then 2, 3, … */
  public long getId() {
    return id;
  }

  /** Launch grids for tasks, by {@code "graph.task"}; needed by {@link KernelContext} tasks. */
  public synchronized ExecutionPlan withGridScheduler(GridScheduler scheduler) {
    open();
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    return this;
  }

  /** Drops the {@link GridScheduler} given to {@link #withGridScheduler}: every task gets the launch the plan chooses, as if none had been given. */
  public synchronized ExecutionPlan withDefaultScheduler() {
    open();
    scheduler = null;
    return this;
  }

  /**
   * If a kernel cannot be compiled for the device, runs the whole plan on {@code fallback}
   * (usually {@link Devices#jvm()}) instead; {@link ExecutionResult#fellBack()} then says so.
   */
  public synchronized ExecutionPlan withFallback(Device fallback) {
    open();
    this.fallback = Objects.requireNonNull(fallback, "fallback");
    return this;
  }

  /** The device the plan runs on. */
  public synchronized Device device() {
    if (device == null) device = Devices.best();
    return device;
  }

  /** Runs every graph once (or the one chosen with {@link #withGraph(int)}). */
  public synchronized ExecutionResult execute() {
    open();
    Device d = device();
    Engine.ExecutionOptions options = options();
    ExecutionResult r;
    try {
      Profile p = executor().execute(selected, options);
      r = new ExecutionResult(this, executor, d, p, null);
    } catch (KernelCompilationException e) {
      if (fallback == null || fallback.id().equals(d.id())) throw e;
      if (fallbackExecutor == null) {
        // the jvm as a fallback runs the Java methods as written, the kernels no compiled device takes included
        Map<String, String> s = new LinkedHashMap<>(settingsFor(fallback));
        s.put("jvm.asWritten", "true");
        fallbackExecutor = Engine.get().open(fallback, s);
      }
      Profile p = fallbackExecutor.execute(selected, options);
      r = new ExecutionResult(this, fallbackExecutor, fallback, p, e.getMessage());
    }
    if (printProfiles) System.out.println(r.profile());
    return r;
  }

  /**
   * Copies these arrays from the host to the device at the start of the next execution, whatever
   * their {@link DataTransferMode}: for an array the graph keeps on the device
   * ({@code FIRST_EXECUTION}) that the host has changed since, e.g. a model's parameters loaded from
   * elsewhere. An array that no graph of the plan uses is refused with an
   * {@link IllegalArgumentException}, before anything is marked. Returns this plan.
   */
  public synchronized ExecutionPlan transferToDevice(Object... arrays) {
    open();
    List<Object> list = Arrays.asList(arrays);
    executor().hostChanged(graphs, list);
    if (fallbackExecutor != null) fallbackExecutor.hostChanged(graphs, list);
    return this;
  }

  synchronized Profile transferToHost(Engine.Executor from, DataRange range) {
    open();
    if (from != executor && from != fallbackExecutor)
      throw new IllegalStateException("this result's device buffers were released (the plan changed device)");
    return from.transferToHost(graphs, range.getArray(), range.getOffset(), range.getPartialSize(), profiler);
  }

  synchronized Profile transferToHost(Engine.Executor from, Object[] arrays) {
    open();
    if (from != executor && from != fallbackExecutor)
      throw new IllegalStateException("this result's device buffers were released (the plan changed device)");
    return from.transferToHost(graphs, Arrays.asList(arrays), profiler);
  }

  private Engine.ExecutionOptions options() {
    return new Engine.ExecutionOptions(profiler, scheduler == null ? new GridScheduler() : scheduler, graphs);
  }

  private Engine.Executor executor() {
    if (executor == null) executor = Engine.get().open(placement(), this::settingsFor);
    return executor;
  }

  private void open() {
    if (closed) throw new TornadoExecutionPlanException("this ExecutionPlan was closed");
  }

  private void closeExecutor() {
    if (executor != null) executor.close();
    executor = null;
    if (fallbackExecutor != null) fallbackExecutor.close();
    fallbackExecutor = null;
  }

  /** Frees device memory and kernels; the plan cannot be used afterwards. */
  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    closeExecutor();
  }
}
