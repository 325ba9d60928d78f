// A named sequence of tasks plus the data each needs copied in and out: what a plan executes.
package dev.loopjit.api;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A named group of tasks with the data they move. Each task is a static method given as a method
 * reference plus its arguments, which are captured when {@code task} is called: primitives (their
 * values), primitive arrays and the off-heap arrays of {@code dev.loopjit.types} (by reference),
 * and a {@link KernelContext} for explicit kernels.
 *
 * <pre>{@code
 * TaskGraph g = new TaskGraph("step")
 *     .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)
 *     .transferToDevice(DataTransferMode.EVERY_EXECUTION, y)
 *     .task("saxpy", Kernels::saxpy, 2f, x, y)
 *     .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
 * try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
 *   plan.execute();
 * }
 * }</pre>
 *
 * Tasks run in the order they were added. Arrays that tasks share stay on the device between
 * them; an array no {@code transferToDevice} names is copied in on its first use and then stays
 * resident (as {@code FIRST_EXECUTION}). {@code task} checks the arguments against the method's
 * parameters and throws {@link IllegalArgumentException} naming the task and the parameter when
 * they do not fit.
 */
public final class TaskGraph {
  private final String name;
  private final Engine engine = Engine.get();
  private final List<Engine.Transfer> toDevice = new ArrayList<>();
  private final List<Engine.Task> tasks = new ArrayList<>();
  private final List<Engine.Transfer> toHost = new ArrayList<>();
  private final List<Object> persisted = new ArrayList<>();
  /** Arrays this graph takes from the device as another graph of the plan left them: by that graph's name ("" for any). */
  private final java.util.Map<String, List<Object>> consumed = new java.util.LinkedHashMap<>();

  /** An empty graph; {@code name} is used in {@code "name.task"} ids and must not contain a dot. */
  public TaskGraph(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.contains(".")) throw new IllegalArgumentException("graph name must be non-empty and contain no '.': \"" + name + "\"");
    this.name = name;
  }

  /** The graph's name. */
  public String getTaskGraphName() {
    return name;
  }

  /** Copies these arrays to the device before the tasks run, as {@code mode} says. */
  public TaskGraph transferToDevice(DataTransferMode mode, Object... arrays) {
    checkTransfer("transferToDevice", mode, arrays);
    if (mode == DataTransferMode.UNDER_DEMAND)
      throw new IllegalArgumentException("graph \"" + name + "\": UNDER_DEMAND is for transferToHost; use FIRST_EXECUTION or EVERY_EXECUTION");
    toDevice.addAll(engine.transfers(name, "transferToDevice", mode, arrays));
    return this;
  }

  /** Copies these arrays back to the host after the tasks ran, as {@code mode} says. */
  public TaskGraph transferToHost(DataTransferMode mode, Object... arrays) {
    checkTransfer("transferToHost", mode, arrays);
    toHost.addAll(engine.transfers(name, "transferToHost", mode, arrays));
    return this;
  }

  /**
   * TornadoVM's {@code persistOnDevice}: these arrays stay on the device after the graph runs, for
   * another graph of the same plan to use ({@link #consumeFromDevice(String, Object...)}). In
   * LoopJIT every array a plan's graphs use stays on the device between them anyway (one buffer per
   * array per plan); this names the hand-over, which the plan checks. Returns this graph.
   */
  public TaskGraph persistOnDevice(Object... arrays) {
    checkTransfer("persistOnDevice", DataTransferMode.FIRST_EXECUTION, arrays);
    engine.transfers(name, "persistOnDevice", DataTransferMode.FIRST_EXECUTION, arrays);   // arrays only, checked as transfers are
    persisted.addAll(java.util.Arrays.asList(arrays));
    return this;
  }

  /**
   * TornadoVM's {@code consumeFromDevice}: these arrays are used as graph {@code graph} of the same
   * plan left them on the device ({@link #persistOnDevice}), not copied from the host. The plan
   * refuses, when it is made, a graph it does not hold or one that does not persist them. An array
   * consumed before the producing graph ever ran is copied in from the host on first use, as any
   * array a task uses. Returns this graph.
   */
  public TaskGraph consumeFromDevice(String graph, Object... arrays) {
    Objects.requireNonNull(graph, "graph");
    checkTransfer("consumeFromDevice", DataTransferMode.FIRST_EXECUTION, arrays);
    engine.transfers(name, "consumeFromDevice", DataTransferMode.FIRST_EXECUTION, arrays);
    consumed.computeIfAbsent(graph, g -> new ArrayList<>()).addAll(java.util.Arrays.asList(arrays));
    return this;
  }

  /** {@link #consumeFromDevice(String, Object...)} from whichever graph of the plan persists them. */
  public TaskGraph consumeFromDevice(Object... arrays) {
    return consumeFromDevice("", arrays);
  }

  /** A null mode, or a null array list ({@code (Object[]) null}), is a mistake in the graph: say which graph. */
  private void checkTransfer(String what, DataTransferMode mode, Object[] arrays) {
    if (mode == null) throw new IllegalArgumentException("graph \"" + name + "\": " + what + " needs a DataTransferMode, not null");
    if (arrays == null)
      throw new IllegalArgumentException("graph \"" + name + "\": " + what + " was given a null array list; name the arrays to copy");
  }

  /** A frozen copy of this graph, to give to an {@link ExecutionPlan}. */
  public ImmutableTaskGraph snapshot() {
    java.util.Map<String, List<Object>> consumes = new java.util.LinkedHashMap<>();
    consumed.forEach((g, l) -> consumes.put(g, List.copyOf(l)));
    return new ImmutableTaskGraph(engine.graph(name, toDevice, tasks, toHost), List.copyOf(persisted), consumes);
  }

  private TaskGraph add(String id, Serializable code, Object[] args) {
    Objects.requireNonNull(code, "task code");
    checkId(id);
    tasks.add(engine.task(name, id, code, args));
    return this;
  }

  private void checkId(String id) {
    Objects.requireNonNull(id, "task id");
    if (id.isEmpty() || id.contains(".")) throw new IllegalArgumentException("task id must be non-empty and contain no '.': \"" + id + "\"");
    for (Engine.Task t : tasks)
      if (t.id().equals(id)) throw new TornadoTaskRuntimeException("graph \"" + name + "\" already has a task \"" + id + "\"");
  }

  /**
   * Adds a task whose kernel is written by hand in a device language; its arguments are in the
   * entry point's order and its grid comes from the plan's {@link GridScheduler}. See
   * {@link PrebuiltKernel}.
   */
  public TaskGraph prebuiltTask(String id, PrebuiltKernel kernel, Object... args) {
    Objects.requireNonNull(kernel, "kernel");
    checkId(id);
    tasks.add(engine.prebuiltTask(name, id, kernel, args == null ? new Object[] {null} : args));
    return this;
  }

  /**
   * TornadoVM's form: the kernel {@code entryPoint} in the file {@code filename} (OpenCL C if it
   * ends in {@code .cl}, PTX if {@code .ptx}; see {@link PrebuiltKernel#fromFile}), its arguments
   * and their uses from {@code accessors}, in the entry point's order. The file is read now; a
   * missing one, an argument not set, or another ending is an {@link IllegalArgumentException}.
   * The kernel takes LoopJIT's arguments (arrays as buffers, primitives as values, nothing
   * added), not TornadoVM's own calling convention, so a kernel file TornadoVM generated does not
   * run as it is.
   */
  public TaskGraph prebuiltTask(String id, String entryPoint, String filename, AccessorParameters accessors) {
    return prebuiltTask(id, entryPoint, filename, accessors, null);
  }

  /**
   * {@link #prebuiltTask(String, String, String, AccessorParameters)} with TornadoVM's atomics:
   * {@code atomics} (when not null) is passed after the other arguments, as an int array the kernel
   * reads and writes.
   */
  public TaskGraph prebuiltTask(String id, String entryPoint, String filename, AccessorParameters accessors, int[] atomics) {
    Objects.requireNonNull(filename, "filename");
    Objects.requireNonNull(accessors, "accessors");
    java.util.List<Object> args = new java.util.ArrayList<>();
    java.util.List<Access> uses = new java.util.ArrayList<>();
    for (int i = 0; i < accessors.numAccessors(); i++) {
      AccessorParameters.PairAccessor a = accessors.getAccessor(i);
      if (a == null) throw new IllegalArgumentException("prebuilt task \"" + id + "\": accessor " + i + " of " + accessors.numAccessors() + " was not set");
      args.add(a.object());
      uses.add(a.access());
    }
    if (atomics != null) {
      args.add(atomics);
      uses.add(Access.READ_WRITE);
    }
    PrebuiltKernel kernel = PrebuiltKernel.fromFile(entryPoint, java.nio.file.Path.of(filename), uses.toArray(Access[]::new));
    return prebuiltTask(id, kernel, args.toArray());
  }

  /** Adds a task of 0 argument(s); see {@link TaskGraph}. */
  public TaskGraph task(String id, Task0 code) {
    return add(id, code, new Object[] {});
  }

  /** Adds a task of 1 argument(s); see {@link TaskGraph}. */
  public <T1> TaskGraph task(String id, Task1<T1> code, T1 a1) {
    return add(id, code, new Object[] {a1});
  }

  /** Adds a task of 2 argument(s); see {@link TaskGraph}. */
  public <T1, T2> TaskGraph task(String id, Task2<T1, T2> code, T1 a1, T2 a2) {
    return add(id, code, new Object[] {a1, a2});
  }

  /** Adds a task of 3 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3> TaskGraph task(String id, Task3<T1, T2, T3> code, T1 a1, T2 a2, T3 a3) {
    return add(id, code, new Object[] {a1, a2, a3});
  }

  /** Adds a task of 4 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4> TaskGraph task(String id, Task4<T1, T2, T3, T4> code, T1 a1, T2 a2, T3 a3, T4 a4) {
    return add(id, code, new Object[] {a1, a2, a3, a4});
  }

  /** Adds a task of 5 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5> TaskGraph task(String id, Task5<T1, T2, T3, T4, T5> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5});
  }

  /** Adds a task of 6 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6> TaskGraph task(String id, Task6<T1, T2, T3, T4, T5, T6> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6});
  }

  /** Adds a task of 7 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7> TaskGraph task(String id, Task7<T1, T2, T3, T4, T5, T6, T7> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7});
  }

  /** Adds a task of 8 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8> TaskGraph task(String id, Task8<T1, T2, T3, T4, T5, T6, T7, T8> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8});
  }

  /** Adds a task of 9 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9> TaskGraph task(String id, Task9<T1, T2, T3, T4, T5, T6, T7, T8, T9> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9});
  }

  /** Adds a task of 10 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> TaskGraph task(String id, Task10<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10});
  }

  /** Adds a task of 11 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11> TaskGraph task(String id, Task11<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11});
  }

  /** Adds a task of 12 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12> TaskGraph task(String id, Task12<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12});
  }

  /** Adds a task of 13 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13> TaskGraph task(String id, Task13<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13});
  }

  /** Adds a task of 14 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14> TaskGraph task(String id, Task14<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14});
  }

  /** Adds a task of 15 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15> TaskGraph task(String id, Task15<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14, T15 a15) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15});
  }

  /** Adds a task of 16 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16> TaskGraph task(String id, Task16<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14, T15 a15, T16 a16) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16});
  }

  /** Adds a task of 17 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17> TaskGraph task(String id, Task17<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14, T15 a15, T16 a16, T17 a17) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17});
  }

  /** Adds a task of 18 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18> TaskGraph task(String id, Task18<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14, T15 a15, T16 a16, T17 a17, T18 a18) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18});
  }

  /** Adds a task of 19 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18, T19> TaskGraph task(String id, Task19<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18, T19> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14, T15 a15, T16 a16, T17 a17, T18 a18, T19 a19) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19});
  }

  /** Adds a task of 20 argument(s); see {@link TaskGraph}. */
  public <T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18, T19, T20> TaskGraph task(String id, Task20<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18, T19, T20> code, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14, T15 a15, T16 a16, T17 a17, T18 a18, T19 a19, T20 a20) {
    return add(id, code, new Object[] {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20});
  }
}
