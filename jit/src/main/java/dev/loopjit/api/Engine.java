// The runtime behind the API, found by ServiceLoader: the API's classes are builders and values, the engine does the work.
package dev.loopjit.api;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * What {@link TaskGraph}, {@link ExecutionPlan}, {@link Devices} and {@link KernelCode} ask of the
 * runtime. The API is the bottom of LoopJIT: it depends on nothing but {@code dev.loopjit.types},
 * and the runtime that implements this interface is found with {@link ServiceLoader} (LoopJIT's
 * own is {@code dev.loopjit.runtime.LoopJitEngine}). Programs never call it; it is public so that
 * another runtime could stand behind the same API.
 */
public interface Engine {
  /** A task as the engine resolved and checked it. */
  interface Task {
    /** The task's id within its graph. */
    String id();
  }

  /** One transfer of a task graph, as the engine checked it. */
  interface Transfer {}

  /** A frozen task graph. */
  interface Graph {
    /** The graph's name. */
    String name();

    /** Its tasks' ids, in order. */
    List<String> taskIds();
  }

  /** The device side of one plan on one device: buffers, kernels, executions. */
  interface Executor extends AutoCloseable {
    /** Runs every graph once: prepares every task (compile, check), then copies, launches, copies back. */
    Profile execute(List<Graph> graphs, ExecutionOptions options);

    /** Prepares every task of these graphs now (compiles, checks), running nothing. */
    void compile(List<Graph> graphs, ExecutionOptions options);

    /** Frees the device buffers, keeping the kernels; the next execution allocates and copies again. */
    void freeMemory();

    /** Bytes of device memory held (buffers that are not the host memory itself). */
    long memoryBytes();

    /** Copies these arrays back from the device now (UNDER_DEMAND). */
    Profile transferToHost(List<Graph> graphs, List<Object> arrays, boolean profile);

    /**
     * Copies elements [{@code offset}, {@code offset + length}) of {@code array} back from the
     * device now, leaving the host's other elements as they are ({@link DataRange}).
     */
    default Profile transferToHost(List<Graph> graphs, Object array, long offset, long length, boolean profile) {
      throw new UnsupportedOperationException("this engine copies whole arrays back only");
    }

    /**
     * The schedule the next execution of these graphs would run, as lines headed by their device
     * (the kernels compiled, nothing allocated, copied or run).
     */
    default List<String> schedule(List<Graph> graphs, ExecutionOptions options) {
      throw new UnsupportedOperationException("this engine does not plan its executions ahead");
    }

    /** Marks these arrays of the graphs as changed on the host: the next execution copies them in, whatever their mode. */
    void hostChanged(List<Graph> graphs, List<Object> arrays);

    /** Frees the plan's device memory and kernels. */
    @Override
    void close();
  }

  /**
   * What one execution asks for: device-event timing, launch grids by {@code "graph.task"}, and all
   * the plan's graphs (device buffers are laid out for all of them, even when one runs), or null
   * for just the graphs executed.
   */
  record ExecutionOptions(boolean profile, GridScheduler scheduler, List<Graph> plan) {
    public ExecutionOptions(boolean profile, GridScheduler scheduler) {
      this(profile, scheduler, null);
    }
  }

  /** Every device, jvm first. */
  List<Device> devices();

  /** The device {@link Devices#best()} returns (honouring {@code loopjit.device}). */
  Device best();

  /** Why backends found no devices, one line each, for messages. */
  List<String> problems();

  /** Resolves the method behind {@code code} and checks {@code args} against it; IllegalArgumentException naming the task and parameter. */
  Task task(String graph, String id, Serializable code, Object[] args);

  /** Checks a prebuilt kernel's arguments against its accesses; IllegalArgumentException naming the task and argument. */
  Task prebuiltTask(String graph, String id, PrebuiltKernel kernel, Object[] args);

  /** Checks the values of a transfer; IllegalArgumentException naming the graph and the argument. */
  List<Transfer> transfers(String graph, String what, DataTransferMode mode, Object[] values);

  /** A frozen graph of these parts. */
  Graph graph(String name, List<Transfer> toDevice, List<Task> tasks, List<Transfer> toHost);

  /**
   * Opens an executor for one plan on {@code device}. {@code settings} override LoopJIT's settings
   * for this plan ({@code "fastMath"}, {@code "dump"}, {@code "threadInfo"}, keys as after {@code loopjit.}).
   */
  Executor open(Device device, Map<String, String> settings);

  /**
   * Where a plan's tasks run: those named in {@code tasks} (by {@code "graph.task"}) on their
   * device, every other task on {@code device}. With {@code concurrent}, tasks on different devices
   * that share no array an earlier one writes run at the same time.
   */
  record Placement(Device device, Map<String, Device> tasks, boolean concurrent) {
    public Placement {
      java.util.Objects.requireNonNull(device, "device");
      tasks = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tasks));
    }

    /** The device of task {@code "graph.task"}. */
    public Device deviceOf(String task) {
      return tasks.getOrDefault(task, device);
    }

    /** Every device named, the plan's own first, each once (by id). */
    public List<Device> devices() {
      Map<String, Device> byId = new java.util.LinkedHashMap<>();
      byId.put(device.id(), device);
      for (Device d : tasks.values()) byId.putIfAbsent(d.id(), d);
      return List.copyOf(byId.values());
    }
  }

  /**
   * Opens an executor for one plan whose tasks are placed on one or more devices;
   * {@code settings} gives the plan's settings for each device. An engine that runs a plan on one
   * device only refuses a placement over several.
   */
  default Executor open(Placement placement, java.util.function.Function<Device, Map<String, String>> settings) {
    if (placement.devices().size() == 1) return open(placement.device(), settings.apply(placement.device()));
    throw new UnsupportedOperationException("this engine runs a plan on one device, not on " + placement.devices().size());
  }

  /**
   * The device the settings give task {@code "graph.task"} (TornadoVM's {@code -Dgraph.task.device=B:D}),
   * as written ({@code "0:1"}, {@code "opencl:0"}), or null.
   */
  default String settingsDeviceOf(String task) {
    return null;
  }

  /** Whether the settings ask plans over several devices to run them concurrently (TornadoVM's {@code -Dtornado.concurrent.devices=True}). */
  default boolean settingsConcurrentDevices() {
    return false;
  }

  /** The code {@code code} becomes for {@code target}; see {@link KernelCode#of}. */
  String code(Serializable code, String target);

  /** The engine on the class path (loaded once). */
  static Engine get() {
    return LoadedEngine.ENGINE;
  }
}

/** The engine, loaded on first use. */
final class LoadedEngine {
  private LoadedEngine() {}

  static final Engine ENGINE = ServiceLoader.load(Engine.class, Engine.class.getClassLoader()).findFirst()
      .orElseThrow(() -> new IllegalStateException("no LoopJIT engine on the class path (META-INF/services/dev.loopjit.api.Engine)"));
}
