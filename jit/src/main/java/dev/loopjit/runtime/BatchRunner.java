// withBatch: a graph over arrays larger than a device's memory, run in slices of at most the batch size, with the same result.
package dev.loopjit.runtime;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Engine;
import dev.loopjit.api.Profile;
import dev.loopjit.compiler.Elementwise;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.TaskSpec;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The executor of a plan made {@code withBatch("256MB")}: each graph whose sliced arrays are larger
 * than the batch runs as slices. A graph may be run so only if every task's kernel works element by
 * element ({@link Elementwise}: iteration i touches element i of each sliced array, other arrays
 * only read) and its sliced arrays all have one length N; that is checked before anything runs, and
 * a graph that does not qualify is refused naming the task and the reason. Slice k then holds
 * elements [k·S, min((k+1)·S, N)) of every sliced array, S the most elements whose largest element
 * type fits the batch: each slice's elements are copied into arrays of the slice's length (kept
 * for the next slice of that length), the graph runs on them on the device, and every sliced array
 * a task writes is copied back into its host array's slice — so the device holds one slice of each
 * array (and the whole arrays) at a time. With every slice of every sliced array copied in and the
 * written ones copied back each execution, transfer modes do not apply to sliced arrays (they cannot
 * stay on a device they do not fit); whole arrays keep theirs. A graph whose arrays fit in one
 * batch runs as without it.
 */
final class BatchRunner implements Engine.Executor {
  private final GraphRunner inner;
  private final long batchBytes;
  private final Map<GraphSpec, Slicing> slicings = new IdentityHashMap<>();

  /** How one graph runs in slices: its sliced and written arrays, their length, the slice length, and the graphs of each slice length. */
  private record Slicing(GraphSpec graph, Set<HostArray> sliced, Set<HostArray> written, int length, int slice,
      Map<Integer, SliceGraph> byLength) {}

  /** A graph over one slice length's own arrays, and which host array each stands for. */
  private record SliceGraph(List<Engine.Graph> graph, Map<HostArray, Object> arrays) {}

  BatchRunner(GraphRunner inner, long batchBytes) {
    this.inner = inner;
    this.batchBytes = batchBytes;
  }

  @Override
  public Profile execute(List<Engine.Graph> graphs, Engine.ExecutionOptions options) {
    List<Slicing> plan = new ArrayList<>();
    for (Engine.Graph g : graphs) plan.add(slicing((GraphSpec) g));   // every graph checked before anything runs
    Profile total = Profiles.EMPTY;
    for (int i = 0; i < graphs.size(); i++) {
      Slicing s = plan.get(i);
      if (s == null) {
        List<Engine.Graph> one = single(graphs.get(i));
        total = Profiles.plus(total, inner.check(one, new Engine.ExecutionOptions(options.profile(), options.scheduler(), one)));
      } else {
        for (SliceGraph sg : s.byLength().values()) total = Profiles.plus(total, inner.check(sg.graph(), options(sg, options)));
      }
    }
    for (int i = 0; i < graphs.size(); i++) {
      Slicing s = plan.get(i);
      if (s == null) {
        List<Engine.Graph> one = single(graphs.get(i));
        total = Profiles.plus(total, inner.execute(one, new Engine.ExecutionOptions(options.profile(), options.scheduler(), one)));
        continue;
      }
      for (int start = 0; start < s.length(); start += s.slice()) {
        int n = Math.min(s.slice(), s.length() - start);
        SliceGraph sg = s.byLength().get(n);
        for (HostArray h : s.sliced()) copy(h.array(), start, sg.arrays().get(h), 0, n, h);
        total = Profiles.plus(total, inner.execute(sg.graph(), options(sg, options)));
        for (HostArray h : s.written()) copy(sg.arrays().get(h), 0, h.array(), start, n, h);
      }
    }
    return total;
  }

  private final Map<Engine.Graph, List<Engine.Graph>> singles = new IdentityHashMap<>();

  /** The same list for the same graph (the runner lays out buffers per list). */
  private List<Engine.Graph> single(Engine.Graph g) {
    return singles.computeIfAbsent(g, List::of);
  }

  private static Engine.ExecutionOptions options(SliceGraph sg, Engine.ExecutionOptions options) {
    return new Engine.ExecutionOptions(options.profile(), options.scheduler(), sg.graph());
  }

  /** How {@code g} runs in slices, or null when its sliced arrays fit in one batch; refuses a graph that cannot be sliced. */
  private Slicing slicing(GraphSpec g) {
    if (slicings.containsKey(g)) return slicings.get(g);
    Set<HostArray> sliced = new LinkedHashSet<>(), whole = new LinkedHashSet<>(), written = new LinkedHashSet<>();
    Map<TaskSpec, Elementwise.Use> uses = new LinkedHashMap<>();
    for (TaskSpec t : g.tasks()) {
      String task = "withBatch: task \"" + t.qualifiedName() + "\"";
      if (t.method() == null) throw new dev.loopjit.api.TornadoBailoutRuntimeException(task + " is a prebuilt kernel, which cannot be proven to work element by element");
      if (!t.fixedArguments()) throw new dev.loopjit.api.TornadoBailoutRuntimeException(task + " reads fields of an object or static fields, which slices cannot split");
      Elementwise.Use u;
      try {
        u = Elementwise.of(t.method());
      } catch (IllegalArgumentException e) {
        throw new dev.loopjit.api.TornadoBailoutRuntimeException(task + " cannot run in slices: " + e.getMessage(), e);
      }
      uses.put(t, u);
      for (int p : u.sliced()) sliced.add(HostArray.of(t.args().get(p)));
      for (int p : u.whole()) whole.add(HostArray.of(t.args().get(p)));
      for (int p : u.written()) written.add(HostArray.of(t.args().get(p)));
    }
    for (HostArray h : whole)
      if (sliced.contains(h) || written.contains(h))
        throw new dev.loopjit.api.TornadoBailoutRuntimeException("withBatch: graph \"" + g.name() + "\": " + h.describe()
            + " is read whole by one task and element by element or written by another, so it cannot be cut into slices");
    int length = -1;
    int elementBytes = 1;
    for (HostArray h : sliced) {
      if (length >= 0 && h.length() != length)
        throw new dev.loopjit.api.TornadoBailoutRuntimeException("withBatch: graph \"" + g.name() + "\": its element-by-element arrays have different lengths ("
            + String.join(", ", sliced.stream().map(HostArray::describe).toList()) + "); slices need one");
      length = h.length();
      elementBytes = Math.max(elementBytes, (int) (h.byteSize() / Math.max(1, h.length())));
      if (h.array() instanceof boolean[] || h.array() instanceof dev.loopjit.types.NativeCollection || h.cell())
        throw new dev.loopjit.api.TornadoBailoutRuntimeException("withBatch: graph \"" + g.name() + "\": " + h.describe() + " is not cut into slices (boolean arrays, collections and AtomicIntegers are not)");
    }
    int slice = (int) Math.max(1, Math.min(Integer.MAX_VALUE, batchBytes / elementBytes));
    Slicing s = null;
    if (length > slice) {
      Map<Integer, SliceGraph> byLength = new HashMap<>();
      byLength.put(slice, sliceGraph(g, sliced, written, slice));
      if (length % slice != 0) byLength.put(length % slice, sliceGraph(g, sliced, written, length % slice));
      s = new Slicing(g, sliced, written, length, slice, byLength);
    }
    slicings.put(g, s);
    return s;
  }

  /**
   * {@code g} over arrays of {@code n} elements standing for its sliced ones: each copied in every
   * execution, the written ones copied back; whole arrays and values as they were.
   */
  private static SliceGraph sliceGraph(GraphSpec g, Set<HostArray> sliced, Set<HostArray> written, int n) {
    Map<HostArray, Object> arrays = new LinkedHashMap<>();
    for (HostArray h : sliced) arrays.put(h, h.newZeroed(n));
    List<TaskSpec> tasks = new ArrayList<>();
    for (TaskSpec t : g.tasks()) {
      List<Object> args = new ArrayList<>(t.args());
      for (int i = 0; i < args.size(); i++) {
        HostArray h = HostArray.of(args.get(i));
        if (h != null && arrays.containsKey(h)) args.set(i, arrays.get(h));
      }
      tasks.add(new TaskSpec(t.graph(), t.id(), t.method(), java.util.Collections.unmodifiableList(args)));
    }
    List<GraphSpec.Transfer> in = new ArrayList<>(), out = new ArrayList<>();
    for (GraphSpec.Transfer t : g.toDevice()) if (!arrays.containsKey(t.array())) in.add(t);
    for (Object a : arrays.values()) in.add(new GraphSpec.Transfer(DataTransferMode.EVERY_EXECUTION, HostArray.of(a)));
    for (GraphSpec.Transfer t : g.toHost()) if (!arrays.containsKey(t.array())) out.add(t);
    for (HostArray h : written) out.add(new GraphSpec.Transfer(DataTransferMode.EVERY_EXECUTION, HostArray.of(arrays.get(h))));
    return new SliceGraph(List.of(new GraphSpec(g.name(), in, tasks, out)), arrays);
  }

  /** Copies {@code n} elements of one array into another of the same class ({@code h} describes them). */
  private static void copy(Object from, int fromIndex, Object to, int toIndex, int n, HostArray h) {
    long bytes = h.byteSize() / Math.max(1, h.length());
    MemorySegment.copy(HostArray.of(from).segment(), fromIndex * bytes, HostArray.of(to).segment(), toIndex * bytes, n * bytes);
  }

  @Override
  public void compile(List<Engine.Graph> graphs, Engine.ExecutionOptions options) {
    for (Engine.Graph g : graphs) {
      Slicing s = slicing((GraphSpec) g);
      if (s == null) inner.compile(single(g), options);
      else for (SliceGraph sg : s.byLength().values()) inner.compile(sg.graph(), options(sg, options));
    }
  }

  @Override
  public void freeMemory() {
    inner.freeMemory();
  }

  @Override
  public long memoryBytes() {
    return inner.memoryBytes();
  }

  @Override
  public Profile transferToHost(List<Engine.Graph> graphs, List<Object> arrays, boolean profile) {
    // a sliced array is on the host already, every slice copied back; the others are the inner runner's
    List<Object> rest = new ArrayList<>();
    for (Object o : arrays) {
      HostArray h = HostArray.of(o);
      boolean sliced = false;
      for (Slicing s : slicings.values()) sliced |= s != null && h != null && s.sliced().contains(h);
      if (!sliced) rest.add(o);
    }
    return rest.isEmpty() ? Profiles.EMPTY : inner.transferToHost(graphs, rest, profile);
  }

  @Override
  public Profile transferToHost(List<Engine.Graph> graphs, Object array, long offset, long length, boolean profile) {
    HostArray h = HostArray.of(array);
    for (Slicing s : slicings.values()) if (s != null && h != null && s.sliced().contains(h)) return Profiles.EMPTY;   // on the host already
    return inner.transferToHost(graphs, array, offset, length, profile);
  }

  @Override
  public List<String> schedule(List<Engine.Graph> graphs, Engine.ExecutionOptions options) {
    throw new UnsupportedOperationException("a plan in batches plans one schedule per slice as it runs them: withPrintSchedule() prints each");
  }

  @Override
  public void hostChanged(List<Engine.Graph> graphs, List<Object> arrays) {
    inner.hostChanged(graphs, arrays);
  }

  @Override
  public void close() {
    inner.close();
  }
}
