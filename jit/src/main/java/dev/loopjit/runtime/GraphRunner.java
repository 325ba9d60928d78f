// The task-graph runtime shared by every backend: buffers by host-array identity, copies as modes and data flow need.
package dev.loopjit.runtime;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Engine;
import dev.loopjit.api.KernelTimeoutException;
import dev.loopjit.api.Profile;
import dev.loopjit.api.WorkerGrid;
import dev.loopjit.ir.Launch;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.DeviceKernel;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.TaskSpec;
import dev.loopjit.spi.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs task graphs on one {@link DeviceRuntime}. Per plan it keeps one device buffer per host
 * array (by identity) and whether the device copy is valid, and copies only what the transfer
 * modes and the data flow require:
 * <ul>
 * <li>{@code transferToDevice(EVERY_EXECUTION)}: copied in before every execution;
 * {@code FIRST_EXECUTION}: copied in once, then resident;
 * <li>an array a task uses that no transfer names: copied in on first use, then resident
 *     (intermediates written by an earlier task are already valid and never copied);
 * <li>{@code transferToHost(EVERY_EXECUTION)}: copied back after every execution;
 *     {@code FIRST_EXECUTION}: after the first only; {@code UNDER_DEMAND}: only when asked.
 * </ul>
 * An execution first prepares every task (compiles kernels, checks arguments and grids) and
 * allocates every buffer, so that errors surface before anything runs or any host array changes.
 * A profiled execution also counts each launch's work ({@link KernelWork}) and gives the device's
 * measured limits ({@link DeviceLimits}), so the profile can say how well each kernel used them.
 */
public final class GraphRunner implements Engine.Executor {
  private final DeviceRuntime device;
  private final Options options;
  private final Duration timeout;
  private volatile String abandoned;
  /** With a timeout: whether the worker is launching (0), copying back to the host (1), or was abandoned (2). */
  private final AtomicInteger phase = new AtomicInteger();
  private final Map<HostArray, Slot> slots = new LinkedHashMap<>();
  private final Map<TaskSpec, DeviceKernel> kernels = new IdentityHashMap<>();
  /** The bounds report buffer ({@code long[1]}) of each task whose kernel checks array indices itself. */
  private final Map<TaskSpec, Slot> reports = new IdentityHashMap<>();
  private boolean executedOnce;
  private final Map<List<Engine.Graph>, List<GraphSpec>> specs = new IdentityHashMap<>();
  private List<GraphSpec> allocatedFor;
  /** Where each step of an execution is told, as it is issued ({@code withPrintSchedule}); null for nowhere. */
  private volatile java.util.function.Consumer<String> schedule;

  private static final class Slot {
    final DeviceBuffer buffer;
    boolean deviceValid;

    Slot(DeviceBuffer buffer) {
      this.buffer = buffer;
    }
  }

  private record KernelRun(String task, Timing timing, Profile.Work work, String variant) {}

  /** A runner whose profiles never probe the device (backend tests drive runtimes of their own this way). */
  public GraphRunner(DeviceRuntime device) {
    this(device, Options.DEFAULTS.with("probe", "off"));
  }

  /**
   * A runner for one plan, with the settings it was opened with; their {@code timeout} (e.g.
   * {@code 30s}) bounds each execution's copies and launches.
   */
  public GraphRunner(DeviceRuntime device, Options options) {
    this.device = device;
    this.options = options;
    this.timeout = duration(options.get("timeout"));
    if (options.flag("printSchedule")) schedule = line -> System.out.println(device.device().id() + "  " + line);
  }

  /** Tells each step this runner issues to {@code sink} (one line each, without the device), or to nobody when null. */
  void tellSteps(java.util.function.Consumer<String> sink, Map<HostArray, String> names) {
    schedule = sink;
    arrayNames = names;
  }

  /** The names a schedule gives arrays ({@code a0}, {@code a1}, … in the order the plan's graphs first use them). */
  private volatile Map<HostArray, String> arrayNames;

  private String name(HostArray h) {
    Map<HostArray, String> names = arrayNames;
    String n = names == null ? null : names.get(h);
    return (n == null ? "" : n + " ") + h.describe();
  }

  /** Names for the arrays of {@code graphs}: {@code a0}, {@code a1}, … in the order they first appear (copies in, task arguments, copies out). */
  static Map<HostArray, String> arrayNames(List<GraphSpec> graphs) {
    Map<HostArray, String> names = new LinkedHashMap<>();
    java.util.function.Consumer<HostArray> add = h -> {
      if (h != null) names.putIfAbsent(h, "a" + names.size());
    };
    for (GraphSpec g : graphs) {
      g.toDevice().forEach(t -> add.accept(t.array()));
      for (TaskSpec t : g.tasks()) for (Object a : t.args()) add.accept(HostArray.of(a));
      g.toHost().forEach(t -> add.accept(t.array()));
    }
    return names;
  }

  private void step(java.util.function.Supplier<String> what) {
    var s = schedule;
    if (s != null) s.accept(what.get());   // built only when printed: the launch path makes no strings
  }

  /** {@code 500ms}, {@code 30s}, {@code 2m}, or ISO-8601 ({@code PT30S}); null for none. */
  static Duration duration(String v) {
    if (v == null) return null;
    try {
      String t = v.trim().toLowerCase(java.util.Locale.ROOT);
      Duration d = t.endsWith("ms") ? Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2).trim()))
          : t.endsWith("s") && !t.startsWith("pt") ? Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1).trim()) * 1000))
          : t.endsWith("m") && !t.startsWith("pt") ? Duration.ofSeconds(Math.round(Double.parseDouble(t.substring(0, t.length() - 1).trim()) * 60))
          : Duration.parse(v.trim());
      if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("not positive");
      return d;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("loopjit.timeout is \"" + v + "\"; give a positive duration such as 500ms, 30s, 2m or PT30S");
    }
  }

  public DeviceRuntime device() {
    return device;
  }

  @Override
  public Profile execute(List<Engine.Graph> plan, Engine.ExecutionOptions options) {
    usable();
    List<GraphSpec> graphs = specs(plan);
    for (GraphSpec g : graphs) for (TaskSpec t : g.tasks()) t.checkReceiver();   // before anything runs
    Tally tally = new Tally();
    tally.timed = options.profile();
    device.measure(options.profile());
    Map<GraphSpec, List<Schedule.Prepared>> steps = prepare(graphs, options, tally);
    allocate(options.plan() != null ? specs(options.plan()) : graphs);
    if (schedule != null && arrayNames == null) arrayNames = arrayNames(options.plan() != null ? specs(options.plan()) : graphs);
    if (timeout == null) return run(graphs, steps, tally, options);
    // The copies and launches run on a thread of their own; if they take too long the plan stops waiting.
    FutureTask<Profile> work = new FutureTask<>(() -> run(graphs, steps, tally, options));
    Thread.ofPlatform().daemon().name("loopjit " + device.device().id()).start(work);
    try {
      try {
        return work.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        // Stop the worker before its next copy back; if it is copying back now, that copy is bounded: let it end.
        while (!phase.compareAndSet(0, 2)) {
          if (work.isDone()) return work.get();
          Thread.sleep(1);
        }
        throw e;
      }
    } catch (TimeoutException e) {
      List<String> launched;
      synchronized (tally) {
        launched = List.copyOf(tally.launched);
      }
      KernelTimeoutException t = new KernelTimeoutException(launched, timeout, device.device().id());
      abandoned = t.getMessage();
      throw t;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      if (e.getCause() instanceof Error r) throw r;
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abandoned = "the thread waiting for the execution was interrupted";
      throw new IllegalStateException("interrupted while waiting for the execution on " + device.device().id(), e);
    }
  }

  /** Refuses a plan whose device state was abandoned after a timeout. */
  private void usable() {
    if (abandoned != null) throw new IllegalStateException("this plan's device state was abandoned: " + abandoned);
  }

  /**
   * Runs one execution's {@link Schedule}: its copies, launches, bounds checks and copies back in
   * order, then the wait for the device. With a timeout, each graph's kernels are waited for before
   * its copies back, and those start only if the plan was not abandoned meanwhile: host arrays
   * change only by graphs that finished in time.
   */
  private Profile run(List<GraphSpec> graphs, Map<GraphSpec, List<Schedule.Prepared>> prepared, Tally tally, Engine.ExecutionOptions options) {
    fresh.clear();
    try {
      Schedule plan = schedule(graphs, prepared);
      List<Schedule.Prepared> tasks = new ArrayList<>();
      for (GraphSpec g : graphs) tasks.addAll(prepared.get(g));
      Object[] args = null;
      for (Schedule.Step step : plan.steps()) {
        switch (step) {
          case Schedule.Graph g -> step(() -> "graph     " + g.graph());
          case Schedule.CopyIn c -> copyIn(slots.get(c.array()), tally);
          case Schedule.Launch l -> {
            Schedule.Prepared p = tasks.get(l.position());
            if (l.phase() != Launch.Loops.EPILOGUE && (l.phase() == Launch.Loops.PROLOGUE || !p.kernel().prologue())) args = arguments(p, l.report());
            if (l.phase() != 0) launchOnce(p, args, l.phase(), tally);   // once before the loop, even an empty one; once after every iteration
            else launch(p, args, tally, options);
          }
          case Schedule.CheckBounds c -> checkBounds(c.tasks());   // before any copy back: a kernel that indexed out of bounds leaves the host arrays alone
          case Schedule.Sync w -> {
            switch (w.when()) {
              case BEFORE_COPIES_BACK -> {
                device.finish();
                if (!phase.compareAndSet(0, 1)) return null;   // abandoned: the caller has thrown; write nothing to the host
              }
              case AFTER_COPIES_BACK -> {
                device.finish();
                phase.set(0);
              }
              case END -> {
                step(() -> "wait      for the device");
                device.finish();
              }
            }
          }
          case Schedule.CopyOut c -> copyOut(slots.get(c.array()), tally);
        }
      }
    } catch (RuntimeException | Error e) {
      for (Slot s : slots.values()) valid(s, false);   // the device state is unknown now: copy afresh next time
      for (Slot s : reports.values()) s.deviceValid = false;
      if (timeout != null) phase.compareAndSet(1, 0);
      throw e;
    }
    executedOnce = true;
    if (options.profile()) tally.deviceMemoryBytes = memoryBytes();
    return tally.profile(options.profile(), options.profile() ? limits() : null);
  }

  /** A task's arguments for its launches: each array as its device buffer, and the bounds report last where the kernel takes one. */
  private Object[] arguments(Schedule.Prepared p, boolean report) {
    Object[] args = p.task().args().toArray();
    for (int i = 0; i < args.length; i++) {
      HostArray h = HostArray.of(args[i]);
      if (h != null) args[i] = slots.get(h).buffer;
    }
    if (report) {   // the hidden last argument: where the kernel reports a bad index
      args = java.util.Arrays.copyOf(args, args.length + 1);
      args[args.length - 1] = report(p.task()).buffer;
    }
    return args;
  }

  /** The kernel of {@code p} over its grid (nothing when the grid is empty). */
  private void launch(Schedule.Prepared p, Object[] args, Tally tally, Engine.ExecutionOptions options) {
    if (watchReductions()) {   // only until the warning was given: nothing of it on the launch path after that
      if (executedOnce) warnIfReductionContinues(p.task());
      for (int i = 0; i < p.task().args().size(); i++)
        if (p.kernel().access(i).writes() && HostArray.of(p.task().args().get(i)) != null) fresh.add(HostArray.of(p.task().args().get(i)));
    }
    if (empty(p.grid())) return;
    synchronized (tally) {
      tally.launched.add(p.task().qualifiedName());   // before: a launch may run the kernel itself (jvm)
    }
    step(() -> "launch    " + p.task().qualifiedName() + " " + java.util.Arrays.toString(p.grid().counts()));
    long t0 = tally.timed ? System.nanoTime() : 0;
    Timing timing = device.launch(p.kernel(), args, p.grid());
    if (tally.timed) tally.kernelDispatchNanos += System.nanoTime() - t0;
    Profile.Work work = options.profile() ? work(p) : null;
    tally.kernels.add(new KernelRun(p.task().qualifiedName(), timing, work, options.profile() ? p.kernel().variant() : ""));
  }

  /** The schedule that was run last, and the residency and first-execution state it was planned for. */
  private Schedule lastSchedule;
  private List<GraphSpec> lastGraphs;
  private long lastResidency = -1;
  private boolean lastFirst;
  /** Counts every change of a slot's {@code deviceValid}: a schedule planned at the same count sees the same residency. */
  private long residency;

  /**
   * The schedule of this execution: the last one when the graphs, the residency and whether this is
   * the first execution are the same as then (the steady state), else planned now ({@link Schedule#plan})
   * and, with {@code withPrintSchedule}, printed.
   */
  private Schedule schedule(List<GraphSpec> graphs, Map<GraphSpec, List<Schedule.Prepared>> prepared) {
    if (lastSchedule != null && graphs == lastGraphs && residency == lastResidency && lastFirst == !executedOnce) return lastSchedule;
    java.util.Set<HostArray> current = new java.util.HashSet<>();
    for (Map.Entry<HostArray, Slot> e : slots.entrySet()) if (e.getValue().deviceValid) current.add(e.getKey());
    // the segments of a plan over several devices alternate on this runner, each with its own residency: keep each one's schedule
    List<Object> key = List.of(graphs, current, !executedOnce);
    Schedule plan = planned.get(key);
    if (plan == null) {
      plan = Schedule.plan(graphs, prepared, current, !executedOnce, timeout != null);
      if (planned.size() >= 64) planned.clear();
      planned.put(key, plan);
      print(plan);
    }
    lastSchedule = plan;
    lastGraphs = graphs;
    lastResidency = residency;
    lastFirst = !executedOnce;
    return plan;
  }

  /** The schedules planned so far, by graphs (by identity), the arrays current on the device, and whether it was the first execution. */
  private final Map<List<Object>, Schedule> planned = new HashMap<>();

  private void print(Schedule plan) {
    if (schedule != null) {
      List<String> lines = plan.lines(this::name);
      step(() -> "schedule  " + (executedOnce ? "of this execution" : "of the first execution") + ": " + lines.size() + " steps");
      for (String l : lines) step(() -> "schedule" + l);
    }
  }

  /** Sets whether {@code s}'s device copy is current, counting the change. */
  private void valid(Slot s, boolean v) {
    if (s.deviceValid != v) {
      s.deviceValid = v;
      residency++;
    }
  }

  /** The zeroed report buffer of {@code task}'s kernel, on the device. */
  private Slot report(TaskSpec task) {
    Slot s = reports.get(task);
    if (s == null) {
      s = new Slot(device.allocate(HostArray.of(new long[1]), false));
      reports.put(task, s);
    }
    if (!s.deviceValid) {
      ((long[]) s.buffer.host().array())[0] = 0;
      device.copyIn(s.buffer);
      s.deviceValid = true;
    }
    return s;
  }

  /**
   * Reads the report of every launch of a graph that checks its indices, after the device
   * finished; the first (in launch order) that names an access ends the execution with
   * {@link dev.loopjit.api.KernelIndexOutOfBoundsException}. A report of 0 leaves the buffer zeroed for the next launch.
   */
  private void checkBounds(List<TaskSpec> checked) {
    if (checked.isEmpty()) return;
    step(() -> "check     the bounds reports of " + String.join(", ", checked.stream().map(TaskSpec::qualifiedName).toList()) + " (waits)");
    for (TaskSpec t : checked) device.copyOut(reports.get(t).buffer);
    device.finish();
    for (TaskSpec t : checked) {
      long word = ((long[]) reports.get(t).buffer.host().array())[0];
      if (word != 0) throw dev.loopjit.spi.BoundsReports.of(t, kernels.get(t), word, device.device().id());
    }
  }

  /** The device's measured limits, for a profile; never fails an execution. */
  private Profile.Limits limits() {
    try {
      return DeviceLimits.of(device.device(), options);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The graphs as the runtime's specs; the same list for the same list (a plan passes the same ones every time). */
  private List<GraphSpec> specs(List<Engine.Graph> plan) {
    return specs.computeIfAbsent(plan, p -> p.stream().map(GraphSpec.class::cast).toList());
  }

  @Override
  public void compile(List<Engine.Graph> plan, Engine.ExecutionOptions options) {
    // the kernels only: a grid (a KernelContext task's WorkerGrid) may still come, as TornadoVM's withGridScheduler after withPreCompilation;
    // every variant of each kernel, so that no later size builds anything
    Tally tally = new Tally();
    for (GraphSpec g : specs(plan))
      for (TaskSpec t : g.tasks()) {
        DeviceRuntime.Prepared p = device.prepareAll(t);
        kernels.putIfAbsent(t, p.kernel());
        count(p, tally);
      }
  }

  @Override
  public void freeMemory() {
    device.finish();
    try {
      for (Slot s : slots.values()) s.buffer.release();
      for (Slot s : reports.values()) s.buffer.release();
    } finally {
      slots.clear();
      reports.clear();
      allocatedFor = null;
      residency++;   // no array is on the device now
    }
  }

  @Override
  public long memoryBytes() {
    long bytes = 0;
    for (Slot s : slots.values()) if (!s.buffer.inPlace()) bytes += s.buffer.host().byteSize();
    return bytes;
  }

  @Override
  public Profile transferToHost(List<Engine.Graph> graphs, List<Object> arrays, boolean profile) {
    usable();
    device.measure(profile);
    Tally tally = new Tally();
    tally.timed = profile;
    for (Object o : arrays) {
      HostArray h = HostArray.of(o);
      Slot s = h == null ? null : slots.get(h);
      if (s == null)
        throw new IllegalArgumentException("transferToHost: " + (h == null ? String.valueOf(o) : h.describe())
            + " is not held by this plan on " + device.device().id());
    }
    for (Object o : arrays) copyOut(slots.get(HostArray.of(o)), tally);
    device.finish();
    return tally.profile(profile, null);
  }

  /**
   * Copies the whole device copy back, then gives the host's own elements outside the range back
   * to it: devices copy whole buffers, and the host sees only the range change.
   */
  @Override
  public Profile transferToHost(List<Engine.Graph> graphs, Object array, long offset, long length, boolean profile) {
    HostArray h = HostArray.of(array);
    try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {   // the host's own elements, kept aside for the call only
      java.lang.foreign.MemorySegment host = h.segment(), kept = arena.allocate(Math.max(1, h.byteSize()));
      java.lang.foreign.MemorySegment.copy(host, 0, kept, 0, h.byteSize());
      Profile p = transferToHost(graphs, List.of(array), profile);
      long bytes = h.byteSize() / Math.max(1, h.length());
      java.lang.foreign.MemorySegment.copy(kept, 0, host, 0, offset * bytes);
      java.lang.foreign.MemorySegment.copy(kept, (offset + length) * bytes, host, (offset + length) * bytes, h.byteSize() - (offset + length) * bytes);
      return p;
    }
  }

  @Override
  public void hostChanged(List<Engine.Graph> graphs, List<Object> arrays) {
    usable();
    java.util.Set<HostArray> held = new java.util.HashSet<>();
    for (GraphSpec g : specs(graphs)) {
      for (GraphSpec.Transfer t : g.toDevice()) held.add(t.array());
      for (TaskSpec t : g.tasks())
        for (Object a : t.args()) {
          HostArray h = HostArray.of(a);
          if (h != null) held.add(h);
        }
    }
    for (Object o : arrays) {
      HostArray h = HostArray.of(o);
      if (h == null || !held.contains(h))
        throw new IllegalArgumentException("transferToDevice: " + (h == null ? String.valueOf(o) : h.describe()) + " is no array of this plan's graphs");
    }
    for (Object o : arrays) {
      Slot s = slots.get(HostArray.of(o));
      if (s != null) valid(s, false);   // not allocated yet: the first execution copies it anyway
    }
  }

  /**
   * What {@link #execute} does before anything runs, alone: checks the receivers, prepares every task
   * of {@code graphs} (kernels, grids, local memory) and allocates the buffers of {@code options.plan()}.
   * A plan over several devices calls it on each before any runs; returns the JIT's part of a profile.
   */
  Profile check(List<Engine.Graph> plan, Engine.ExecutionOptions options) {
    usable();
    List<GraphSpec> graphs = specs(plan);
    for (GraphSpec g : graphs) for (TaskSpec t : g.tasks()) t.checkReceiver();
    Tally tally = new Tally();
    prepare(graphs, options, tally);
    allocate(options.plan() != null ? specs(options.plan()) : graphs);
    return tally.profile(false, null);
  }

  @Override
  public List<String> schedule(List<Engine.Graph> plan, Engine.ExecutionOptions options) {
    java.util.Set<HostArray> current = new java.util.HashSet<>();
    for (Map.Entry<HostArray, Slot> e : slots.entrySet()) if (e.getValue().deviceValid) current.add(e.getKey());
    return schedule(plan, options, current, !executedOnce, arrayNames(options.plan() != null ? specs(options.plan()) : specs(plan)));
  }

  /**
   * The schedule of an execution of {@code plan} when {@code current} are the arrays current on this
   * device and {@code first} says whether it is the plan's first, as lines headed by the device; the
   * tasks are prepared (compiled), nothing else happens.
   */
  List<String> schedule(List<Engine.Graph> plan, Engine.ExecutionOptions options, java.util.Set<HostArray> current, boolean first,
      Map<HostArray, String> names) {
    usable();
    List<GraphSpec> graphs = specs(plan);
    for (GraphSpec g : graphs) for (TaskSpec t : g.tasks()) t.checkReceiver();
    Schedule s = Schedule.plan(graphs, prepare(graphs, options, new Tally()), current, first, timeout != null);
    String id = device.device().id();
    List<String> out = new ArrayList<>();
    for (String l : s.lines(h -> (names.containsKey(h) ? names.get(h) + " " : "") + h.describe())) out.add(id + "  " + l);
    return out;
  }

  /** Marks this device's copy of {@code h} stale: the next task here that uses it copies it in from the host first. */
  void invalidate(HostArray h) {
    Slot s = slots.get(h);
    if (s != null) valid(s, false);
  }

  /** The arrays {@code t}'s kernel may write, once it was prepared here ({@link #check}); every array argument before. */
  List<HostArray> written(TaskSpec t) {
    DeviceKernel k = kernels.get(t);
    List<HostArray> out = new ArrayList<>();
    for (int i = 0; i < t.args().size(); i++) {
      HostArray h = HostArray.of(t.args().get(i));
      if (h != null && (k == null || k.access(i).writes())) out.add(h);
    }
    return out;
  }

  /** Copies this device's copy of {@code h} to the host and waits for it. */
  Profile copyToHost(HostArray h, boolean profile) {
    usable();
    device.measure(profile);
    Tally tally = new Tally();
    tally.timed = profile;
    copyOut(slots.get(h), tally);
    device.finish();
    return tally.profile(profile, null);
  }

  private Map<GraphSpec, List<Schedule.Prepared>> prepare(List<GraphSpec> graphs, Engine.ExecutionOptions options, Tally tally) {
    Map<GraphSpec, List<Schedule.Prepared>> steps = new IdentityHashMap<>();   // the same specs every time: no deep record hashing
    for (GraphSpec g : graphs) {
      List<Schedule.Prepared> list = new ArrayList<>();
      for (TaskSpec t : g.tasks()) {
        // a WorkerGrid, given now or later (withGridScheduler); no task name is built when there is none
        boolean sized = !options.scheduler().taskNames().isEmpty() && options.scheduler().get(t.qualifiedName()) != null;
        Schedule.Prepared p = sized ? null : preparedTasks.get(t);
        if (p == null) {
          DeviceKernel k = kernel(t, tally);
          Grid grid = grid(t, k, options);
          checkLocalMemory(t, k, grid);
          p = new Schedule.Prepared(t, k, grid);
          if (t.fixedArguments() && !k.explicit() && !sized) preparedTasks.put(t, p);
        }
        list.add(p);
      }
      steps.put(g, list);
    }
    return steps;
  }

  /**
   * Each task's kernel, grid and local-memory check, kept once made when nothing can change them:
   * its arguments fixed (the same scalars and arrays every execution, so the same trip counts) and
   * no WorkerGrid to size it (a program may change one between executions). The steady state then
   * evaluates no launch expression on the host.
   */
  private final Map<TaskSpec, Schedule.Prepared> preparedTasks = new IdentityHashMap<>();
  /** The profile's work of each task kept in {@link #preparedTasks}: counting it walks the kernel, too slow for every launch. */
  private final Map<TaskSpec, Profile.Work> work = new IdentityHashMap<>();

  /** What one launch of {@code p} computes and moves, for the profile. */
  private Profile.Work work(Schedule.Prepared p) {
    if (preparedTasks.get(p.task()) != p) return KernelWork.of(p.task(), p.kernel(), p.grid(), options);
    return work.computeIfAbsent(p.task(), t -> KernelWork.of(t, p.kernel(), p.grid(), options));
  }

  /** The task's kernel, prepared on the device the first time (its JIT time counted in {@code tally}). */
  private DeviceKernel kernel(TaskSpec t, Tally tally) {
    DeviceKernel k = kernels.get(t);
    if (k == null) {
      DeviceRuntime.Prepared p = device.prepare(t);
      k = p.kernel();
      kernels.put(t, k);
      count(p, tally);
    }
    return k;
  }

  private static void count(DeviceRuntime.Prepared p, Tally tally) {
    tally.compiled += p.built();
    tally.compileNanos += p.compileNanos();
    tally.driverNanos += p.driverCompileNanos();
  }

  /** A kernel's prologue or epilogue: one work-item, timed under the task's name and the phase. */
  private void launchOnce(Schedule.Prepared step, Object[] args, int phase, Tally tally) {
    synchronized (tally) {
      tally.launched.add(step.task().qualifiedName());
    }
    String what = phase == Launch.Loops.PROLOGUE ? " (prologue)" : " (epilogue)";
    step(() -> "launch    " + step.task().qualifiedName() + what);
    long t0 = tally.timed ? System.nanoTime() : 0;
    Timing timing = device.launch(step.kernel(), args, Grid.once(step.grid().dims(), phase));
    if (tally.timed) tally.kernelDispatchNanos += System.nanoTime() - t0;
    tally.kernels.add(new KernelRun(step.task().qualifiedName() + what, timing, null, ""));
  }

  private static Grid grid(TaskSpec t, DeviceKernel k, Engine.ExecutionOptions options) {
    WorkerGrid w = options.scheduler().get(t.qualifiedName());
    if (k.explicit()) {
      if (w == null)   // TornadoVM's type for it; an IllegalArgumentException
        throw new dev.loopjit.api.TornadoRuntimeException("task \"" + t.qualifiedName() + "\" takes a KernelContext and needs a launch grid: "
            + "plan.withGridScheduler(new GridScheduler(\"" + t.qualifiedName() + "\", new WorkerGrid1D(n)))"
            + (options.scheduler().taskNames().isEmpty() ? "" : "; the scheduler has grids for " + options.scheduler().taskNames()));
      return new Grid(w.dimension(), w.getGlobalWork(), w.getLocalWork(), w.getGlobalWork());
    }
    long[] counts = k.loopCounts(t.args().toArray());
    long[] global = {1, 1, 1};
    for (int d = 0; d < counts.length; d++) {
      if (counts[d] > Integer.MAX_VALUE)
        throw new IllegalArgumentException("task \"" + t.qualifiedName() + "\": parallel loop " + d + " has " + counts[d]
            + " iterations; at most " + Integer.MAX_VALUE + " are supported");
      global[d] = counts[d];
    }
    int[] per = {k.lanes(), k.rows()};   // a coarsened kernel: chosen only for counts that are multiples of these
    for (int d = 0; d < Math.min(2, counts.length); d++) {
      if (per[d] == 1) continue;
      if (counts[d] % per[d] != 0)
        throw new IllegalStateException("task \"" + t.qualifiedName() + "\": " + counts[d] + " iterations in dimension " + d + " for a kernel that takes "
            + per[d] + " per work-item");
      global[d] = counts[d] / per[d];
    }
    long[] local = null;
    if (w != null) {
      if (w.dimension() != counts.length)
        throw new IllegalArgumentException("task \"" + t.qualifiedName() + "\" has " + counts.length
            + " parallel loop(s) but its WorkerGrid has " + w.dimension() + " dimension(s)");
      local = w.getLocalWork();
    }
    return new Grid(counts.length, global, local, counts);
  }

  /** Local arrays sized at run time are checked against the device before anything runs (the runtimes check again at launch). */
  private void checkLocalMemory(TaskSpec t, DeviceKernel k, Grid grid) {
    long[] local = dev.loopjit.spi.WorkGroups.expectedLocal(grid, k.explicit());
    long need;
    try {
      need = k.localMemoryBytes(t.args().toArray(), local);
    } catch (IllegalStateException e) {
      return;   // the work-group shape is the device's choice: checked at launch
    }
    dev.loopjit.api.Device d = device.device();
    if (need > d.localMemoryBytes())
      throw new IllegalArgumentException("task \"" + t.qualifiedName() + "\": its local arrays need " + need + " bytes of local memory per work-group"
          + (local == null ? "" : " with work-groups of " + java.util.Arrays.toString(local)) + "; " + d.id() + " has " + d.localMemoryBytes());
  }

  private static boolean empty(Grid g) {
    for (long c : g.counts()) if (c <= 0) return true;
    return false;
  }

  private void allocate(List<GraphSpec> graphs) {
    if (graphs == allocatedFor) return; // a plan passes the same graphs each time: every buffer exists already
    SharedMemory.refuse(graphs);
    Map<HostArray, Boolean> seen = new LinkedHashMap<>();
    for (GraphSpec g : graphs) {
      g.toDevice().forEach(t -> seen.put(t.array(), true));
      for (TaskSpec t : g.tasks()) for (Object a : t.args()) if (HostArray.of(a) != null) seen.put(HostArray.of(a), true);
      g.toHost().forEach(t -> seen.put(t.array(), true));
    }
    List<HostArray> added = new ArrayList<>();
    for (HostArray h : seen.keySet())
      if (!slots.containsKey(h)) {
        slots.put(h, new Slot(device.allocate(h, inPlaceAllowed(h, graphs))));
        added.add(h);
        residency++;
      }
    String limit = options.get("memoryLimit");
    if (limit != null && memoryBytes() > Long.parseLong(limit)) {   // over the plan's limit: what was just allocated is freed, nothing ran
      long need = memoryBytes();
      for (HostArray h : added) slots.remove(h).buffer.release();
      throw new dev.loopjit.api.TornadoMemoryException("this plan's arrays need " + need + " bytes on " + device.device().id()
          + ", more than its memory limit of " + limit + " bytes (withMemoryLimit): raise the limit, or run the graphs in slices with withBatch");
    }
    allocatedFor = graphs;
  }

  /**
   * Whether the device may use the host memory itself without changing what the host sees. The
   * array is off-heap and either
   * <ul>
   * <li>copied in before every execution and never written by a kernel (an input), or
   * <li>copied in before every execution and copied back after every execution, or
   * <li>named by no transfer to the device, written but never read by the kernels, and copied back
   *     after every execution (an output: a device copy would start as the host's contents and
   *     come back whole, so the host sees the same, except that host writes between executions to
   *     elements no kernel writes now survive, as they would around a plain Java call).
   * </ul>
   * A kernel that checks its array indices ({@code bounds} pass) may fail after other work-items
   * wrote: no array such a kernel writes is used in place, so a failed execution leaves it alone.
   */
  private boolean inPlaceAllowed(HostArray h, List<GraphSpec> graphs) {
    if (!h.offHeap() || timeout != null) return false;   // a kernel that outlives its timeout must not write host memory
    boolean everyIn = false, anyIn = false, everyOut = false, otherOut = false, written = false, read = false, checked = false;
    for (GraphSpec g : graphs) {
      for (GraphSpec.Transfer t : g.toDevice())
        if (t.array().equals(h)) {
          anyIn = true;
          everyIn |= t.mode() == DataTransferMode.EVERY_EXECUTION;
        }
      for (GraphSpec.Transfer t : g.toHost())
        if (t.array().equals(h)) {
          everyOut |= t.mode() == DataTransferMode.EVERY_EXECUTION;
          otherOut |= t.mode() != DataTransferMode.EVERY_EXECUTION;
        }
      for (TaskSpec t : g.tasks()) {
        DeviceKernel k = kernels.get(t);
        for (int i = 0; i < t.args().size(); i++)
          if (t.args().get(i) == h.array()) {
            DeviceKernel.Access a = k == null ? DeviceKernel.Access.READ_WRITE : k.access(i);
            written |= a.writes();
            checked |= a.writes() && (k == null || !t.fixedArguments() || k.mayFail(t.args().toArray()));
            read |= a == DeviceKernel.Access.READ || a == DeviceKernel.Access.READ_WRITE;
          }
      }
    }
    boolean backEveryTime = everyOut && !otherOut;
    if (checked) return false;
    if (everyIn) return !written || backEveryTime;
    return !anyIn && written && !read && backEveryTime;
  }

  /**
   * Whether this runner runs segments of a plan over several devices ({@link MultiDeviceRunner}):
   * each of its executions is then part of one, so what it copied in or wrote earlier in the plan's
   * execution is not known here, and the reduction warning is not given.
   */
  private volatile boolean segments;

  /** Makes this runner one device of a plan over several. */
  void runSegments() {
    segments = true;
  }

  /** The arrays this execution copied in or a task of it wrote so far: their device values are this execution's. */
  private final java.util.Set<HostArray> fresh = new java.util.HashSet<>();

  /** Whether this runner still looks for a reduction continuing from the previous execution (the warning not given yet, nor asked away). */
  private boolean watchReductions() {
    return !segments && !WARNED_REDUCTION.get() && !options.flag("reduceReset");
  }

  /** Each task's {@code @Reduce} array parameters, read from its method once. */
  private final Map<TaskSpec, int[]> reduceParams = new IdentityHashMap<>();

  private static int[] reduceParams(TaskSpec t) {
    if (t.method() == null) return new int[0];
    java.lang.reflect.Parameter[] params = t.method().method().getParameters();
    return java.util.stream.IntStream.range(0, Math.min(params.length, t.args().size()))
        .filter(i -> params[i].isAnnotationPresent(dev.loopjit.api.Reduce.class)).toArray();
  }

  /** Whether this JVM gave the warning of {@link #warnIfReductionContinues} (tests clear it). */
  static final java.util.concurrent.atomic.AtomicBoolean WARNED_REDUCTION = new java.util.concurrent.atomic.AtomicBoolean();

  /** Where that warning goes: the {@code dev.loopjit.runtime} logger (tests listen here). */
  static volatile java.util.function.Consumer<String> warnings =
      message -> System.getLogger("dev.loopjit.runtime").log(System.Logger.Level.WARNING, message);

  /**
   * Warns once per JVM when a {@code @Reduce} array starts a task with the value a previous execution
   * left on the device: Java's loop (and LoopJIT) continue from it, TornadoVM would have reset it.
   */
  private void warnIfReductionContinues(TaskSpec t) {
    for (int i : reduceParams.computeIfAbsent(t, GraphRunner::reduceParams)) {
      HostArray h = HostArray.of(t.args().get(i));
      if (h == null || fresh.contains(h)) continue;
      if (WARNED_REDUCTION.compareAndSet(false, true))
        warnings.accept("task " + t.qualifiedName() + ": its @Reduce array "
            + t.method().parameterName(i) + " (" + h.describe() + ") starts this execution from the value the previous one left, as Java's loop would;"
            + " TornadoVM resets it to its operator's neutral element before each execution. For TornadoVM's behaviour:"
            + " plan.withReduceReset() or -Dloopjit.reduceReset=true (docs/guide/coming-from-tornadovm.md; this warning is given once)");
      return;
    }
  }

  private void copyIn(Slot s, Tally tally) {
    fresh.add(s.buffer.host());
    step(() -> "copy in   " + name(s.buffer.host()) + (s.buffer.inPlace() ? " (in place: nothing moves)" : ""));
    long t0 = tally.timed ? System.nanoTime() : 0;
    tally.copyIn.add(device.copyIn(s.buffer));
    if (tally.timed) tally.copyDispatchNanos += System.nanoTime() - t0;
    if (!s.buffer.inPlace()) tally.bytesIn += s.buffer.host().byteSize();
    valid(s, true);
  }

  private void copyOut(Slot s, Tally tally) {
    step(() -> "copy out  " + name(s.buffer.host()) + (s.buffer.inPlace() ? " (in place: nothing moves)" : ""));
    long t0 = tally.timed ? System.nanoTime() : 0;
    tally.copyOut.add(device.copyOut(s.buffer));
    if (tally.timed) tally.copyDispatchNanos += System.nanoTime() - t0;
    if (!s.buffer.inPlace()) tally.bytesOut += s.buffer.host().byteSize();
  }

  @Override
  public void close() {
    if (abandoned != null) {   // a kernel may still be running: touching the queue or its buffers could block for ever
      System.getLogger("dev.loopjit.runtime").log(System.Logger.Level.WARNING,
          "the device state of a plan on " + device.device().id() + " is left to the driver: " + abandoned);
      slots.clear();
      reports.clear();
      kernels.clear();
      preparedTasks.clear();
      work.clear();
      return;
    }
    try {
      for (Slot s : slots.values()) s.buffer.release();
      for (Slot s : reports.values()) s.buffer.release();
    } finally {
      slots.clear();
      reports.clear();
      kernels.clear();
      preparedTasks.clear();
      work.clear();
      device.close();
    }
  }

  /** What one execution did, summed into a Profile after the device finished. */
  private static final class Tally {
    int compiled;
    long compileNanos, driverNanos, bytesIn, bytesOut;
    /** Whether the execution is profiled: only then are the dispatch times and device memory measured. */
    boolean timed;
    /** Host time in the driver calls that enqueue copies and launches (on the jvm devices, the work itself). */
    long copyDispatchNanos, kernelDispatchNanos;
    /** The plan's device memory on this device when the execution ended. */
    long deviceMemoryBytes;
    final List<Timing> copyIn = new ArrayList<>(), copyOut = new ArrayList<>();
    final List<KernelRun> kernels = new ArrayList<>();
    /** The tasks launched so far, for a timeout's message (read by the waiting thread). */
    final List<String> launched = new ArrayList<>();

    Profile profile(boolean timed, Profile.Limits limits) {
      List<Profile.TaskTime> tasks = new ArrayList<>();
      long kernelNanos = 0;
      for (KernelRun k : kernels) {
        long ns = timed ? k.timing().nanos() : 0;
        kernelNanos += ns;
        tasks.add(new Profile.TaskTime(k.task(), ns, k.work(), k.work() != null ? limits : null, k.variant()));
      }
      return new Profile(compileNanos, driverNanos, kernelNanos, timed ? sum(copyIn) : 0, timed ? sum(copyOut) : 0,
          bytesIn, bytesOut, compiled, tasks, copyDispatchNanos, kernelDispatchNanos, deviceMemoryBytes);
    }

    private static long sum(List<Timing> l) {
      long s = 0;
      for (Timing t : l) s += t.nanos();
      return s;
    }
  }
}
