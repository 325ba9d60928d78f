// Runs a plan whose tasks are placed on several devices: one GraphRunner per device, arrays moved between them through the host.
package dev.loopjit.runtime;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Engine;
import dev.loopjit.api.Profile;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.TaskSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The executor of a plan over several devices ({@code withDevice("graph.task", device)}). Each graph
 * is cut into segments, runs of consecutive tasks on one device, and each device's segments run on
 * that device's own {@link GraphRunner}, which keeps its buffers and kernels as for a plan on that
 * device alone. This runner keeps where each array's current value is — on the host, on which
 * devices — and before a segment runs, brings every array it uses up to date on its device: an array
 * last written on another device is copied back to its host array first (the only way between two
 * drivers), then in. The graph's own transfers keep their meaning: {@code transferToDevice} makes
 * the host's value current (every execution, or the first), {@code transferToHost} brings the
 * current value back at the end of the graph.
 *
 * <p>Before anything runs, every device prepares its tasks (kernels, grids, local memory) and
 * allocates its buffers, so errors surface first, as on one device. Segments run in graph order;
 * with {@code concurrent}, each device's segments run on a thread of their own and a segment waits
 * only for the earlier segments on other devices that write an array it uses or use an array it
 * writes. An array moved between devices passes through its host array, which then holds the
 * value it had at that point of the graph, as it would in Java.
 */
final class MultiDeviceRunner implements Engine.Executor {
  private final Engine.Placement placement;
  private final Map<String, GraphRunner> runners;
  private final boolean printSchedule;
  private final Map<List<Engine.Graph>, Layout> layouts = new IdentityHashMap<>();
  /** Where each array's current value is; an array not here is current on the host only. */
  private final Map<HostArray, Where> where = new HashMap<>();
  private boolean executedOnce;

  /** Where an array's current value is: its host array, and the devices whose copies are current. */
  private static final class Where {
    boolean host = true;
    final Set<GraphRunner> devices = new LinkedHashSet<>();
  }

  /** A run of consecutive tasks of one graph on one device, as a graph of its own for that device's runner. */
  private record Segment(int index, GraphRunner runner, List<Engine.Graph> graph, List<TaskSpec> tasks, Set<HostArray> uses) {
    GraphSpec spec() {
      return (GraphSpec) graph.getFirst();
    }
  }

  /** A plan's graphs cut into segments, and each device's segments (its runner lays out buffers for all of them). */
  private record Layout(Map<GraphSpec, List<Segment>> segments, Map<GraphRunner, List<Engine.Graph>> byDevice, Map<HostArray, String> names) {}

  MultiDeviceRunner(Engine.Placement placement, Map<String, GraphRunner> runners, boolean printSchedule) {
    this.placement = placement;
    this.runners = Map.copyOf(runners);
    this.printSchedule = printSchedule;
    this.runners.values().forEach(GraphRunner::runSegments);
  }

  private Layout layout(List<Engine.Graph> plan) {
    return layouts.computeIfAbsent(plan, p -> {
      Map<GraphSpec, List<Segment>> segments = new LinkedHashMap<>();
      Map<GraphRunner, List<Engine.Graph>> byDevice = new LinkedHashMap<>();
      int index = 0;
      for (Engine.Graph eg : p) {
        GraphSpec g = (GraphSpec) eg;
        List<Segment> list = new ArrayList<>();
        List<TaskSpec> run = new ArrayList<>();
        GraphRunner on = null;
        for (TaskSpec t : g.tasks()) {
          GraphRunner r = runners.get(placement.deviceOf(t.qualifiedName()).id());
          if (on != null && r != on) {
            list.add(segment(index++, on, g, run));
            run = new ArrayList<>();
          }
          on = r;
          run.add(t);
        }
        if (on != null) list.add(segment(index++, on, g, run));
        for (Segment s : list) byDevice.computeIfAbsent(s.runner(), r -> new ArrayList<>()).add(s.spec());
        segments.put(g, list);
      }
      Map<HostArray, String> names = GraphRunner.arrayNames(p.stream().map(GraphSpec.class::cast).toList());
      if (printSchedule)
        for (Map.Entry<String, GraphRunner> e : runners.entrySet())
          e.getValue().tellSteps(line -> System.out.println(e.getKey() + "  " + line), names);
      return new Layout(segments, byDevice, names);
    });
  }

  private static Segment segment(int index, GraphRunner runner, GraphSpec g, List<TaskSpec> tasks) {
    Set<HostArray> uses = new HashSet<>();
    for (TaskSpec t : tasks)
      for (Object a : t.args()) {
        HostArray h = HostArray.of(a);
        if (h != null) uses.add(h);
      }
    return new Segment(index, runner, List.of(new GraphSpec(g.name(), List.of(), tasks, List.of())), List.copyOf(tasks), Set.copyOf(uses));
  }

  private Engine.ExecutionOptions optionsFor(Layout layout, GraphRunner r, Engine.ExecutionOptions options) {
    return new Engine.ExecutionOptions(options.profile(), options.scheduler(), layout.byDevice().get(r));
  }

  @Override
  public synchronized Profile execute(List<Engine.Graph> graphs, Engine.ExecutionOptions options) {
    Layout layout = layout(options.plan() != null ? options.plan() : graphs);
    Profile total = Profiles.EMPTY;
    // Every device prepares its tasks and allocates before anything runs anywhere.
    for (Engine.Graph g : graphs)
      for (Segment s : layout.segments().get((GraphSpec) g))
        total = Profiles.plus(total, s.runner().check(s.graph(), optionsFor(layout, s.runner(), options)));
    Plan plan = plan(layout, graphs);
    try {
      for (Engine.Graph eg : graphs) {
        GraphSpec g = (GraphSpec) eg;
        for (GraphSpec.Transfer t : g.toDevice())
          if (t.mode() == DataTransferMode.EVERY_EXECUTION || !executedOnce) currentOnHost(t.array());
        List<Segment> segments = layout.segments().get(g);
        total = Profiles.plus(total, placement.concurrent() ? concurrently(layout, plan, segments, options) : inOrder(layout, plan, segments, options));
        for (GraphSpec.Transfer t : g.toHost())
          if (t.mode() == DataTransferMode.EVERY_EXECUTION || (t.mode() == DataTransferMode.FIRST_EXECUTION && !executedOnce))
            total = Profiles.plus(total, toHost(t.array(), layout, options.profile()));
      }
    } catch (RuntimeException | Error e) {
      // as on one device: the devices' state is unknown now, the host's arrays are what the next execution copies
      where.clear();
      throw e;
    }
    executedOnce = true;
    return total;
  }

  private Profile inOrder(Layout layout, Plan plan, List<Segment> segments, Engine.ExecutionOptions options) {
    Profile p = Profiles.EMPTY;
    for (Segment s : segments) p = Profiles.plus(p, run(layout, plan.before().get(s), s, options));
    return p;
  }

  /**
   * Each device's segments on a thread of their own, in order; a segment starts when the earlier
   * segments on other devices that it depends on (an array one writes and the other uses) ended.
   * The first failure in graph order is thrown after every segment ended or was skipped.
   */
  private Profile concurrently(Layout layout, Plan plan, List<Segment> segments, Engine.ExecutionOptions options) {
    Map<Segment, CompletableFuture<Profile>> done = new LinkedHashMap<>();
    for (Segment s : segments) done.put(s, new CompletableFuture<>());
    Map<GraphRunner, List<Segment>> byDevice = new LinkedHashMap<>();
    for (Segment s : segments) byDevice.computeIfAbsent(s.runner(), r -> new ArrayList<>()).add(s);
    List<Thread> threads = new ArrayList<>();
    for (Map.Entry<GraphRunner, List<Segment>> e : byDevice.entrySet()) {
      threads.add(Thread.ofPlatform().daemon().name("loopjit " + e.getKey().device().device().id()).start(() -> {
        for (Segment s : e.getValue()) {
          CompletableFuture<Profile> f = done.get(s);
          try {
            for (Segment before : segments) {
              if (before.index() >= s.index()) break;
              if (before.runner() != s.runner() && dependsOn(s, before)) done.get(before).join();
            }
            f.complete(run(layout, plan.before().get(s), s, options));
          } catch (CompletionException skipped) {
            f.completeExceptionally(new Skipped());
          } catch (Throwable t) {
            f.completeExceptionally(t);
          }
        }
      }));
    }
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the devices of a plan", e);
      }
    }
    Profile p = Profiles.EMPTY;
    for (CompletableFuture<Profile> f : done.values()) {
      try {
        p = Profiles.plus(p, f.join());
      } catch (CompletionException e) {
        if (e.getCause() instanceof Skipped) continue;
        if (e.getCause() instanceof RuntimeException r) throw r;
        if (e.getCause() instanceof Error r) throw r;
        throw new IllegalStateException(e.getCause());
      }
    }
    return p;
  }

  /** A segment not run because one it waited for failed. */
  private static final class Skipped extends RuntimeException {
    Skipped() {
      super("skipped", null, false, false);
    }
  }

  /** Whether {@code later} must wait for {@code earlier}: one writes an array the other uses. */
  private boolean dependsOn(Segment later, Segment earlier) {
    Set<HostArray> laterUses = uses(later), earlierUses = uses(earlier);
    for (HostArray h : writes(earlier)) if (laterUses.contains(h)) return true;
    for (HostArray h : writes(later)) if (earlierUses.contains(h)) return true;
    return false;
  }

  private static Set<HostArray> uses(Segment s) {
    return s.uses();
  }

  /** The arrays a segment's kernels may write, read from them once they were prepared (every device prepares before anything runs). */
  private final Map<Segment, Set<HostArray>> writes = java.util.Collections.synchronizedMap(new IdentityHashMap<>());

  private Set<HostArray> writes(Segment s) {
    return writes.computeIfAbsent(s, x -> {
      Set<HostArray> out = new HashSet<>();
      for (TaskSpec t : x.tasks()) out.addAll(x.runner().written(t));
      return Set.copyOf(out);
    });
  }

  /** What must happen before a segment runs: arrays brought back to the host from the device holding them, and the arrays stale on its device. */
  private record Before(List<Move> moves, List<HostArray> stale, Set<HostArray> current, boolean first) {}

  /** {@code array}'s current value copied from device {@code from} to its host array, on its way to {@code to}. */
  private record Move(HostArray array, GraphRunner from, GraphRunner to) {}

  /** An execution's plan over the devices: what comes before each segment, computed before anything runs. */
  private record Plan(Map<Segment, Before> before, List<String> lines) {}

  /** The plan of the last execution, and the state it was planned from. */
  private Plan lastPlan;
  private List<Engine.Graph> lastGraphs;
  private Map<HostArray, Where> lastWhere;
  private boolean lastFirst;

  /**
   * The plan of one execution of {@code graphs}: where each array's value is when the execution
   * starts, followed through the graphs' transfers and segments in graph order (as they run, or as
   * their dependencies order them when concurrent), gives for each segment the moves through the host
   * and the arrays its device must copy in afresh. The steady state reuses the last plan; with
   * {@code withPrintSchedule} a new plan is printed before the devices print their own schedules.
   */
  private Plan plan(Layout layout, List<Engine.Graph> graphs) {
    Map<HostArray, Where> start = copy(where);
    if (lastPlan != null && graphs == lastGraphs && lastFirst == !executedOnce && same(start, lastWhere)) return lastPlan;
    Map<HostArray, Where> w = copy(where);
    Map<Segment, Before> before = new IdentityHashMap<>();
    Set<GraphRunner> ran = new HashSet<>();
    List<String> lines = new ArrayList<>();
    for (Engine.Graph eg : graphs) {
      GraphSpec g = (GraphSpec) eg;
      for (GraphSpec.Transfer t : g.toDevice())
        if (t.mode() == DataTransferMode.EVERY_EXECUTION || !executedOnce) w.remove(t.array());
      for (Segment s : layout.segments().get(g)) {
        GraphRunner r = s.runner();
        List<Move> moves = new ArrayList<>();
        List<HostArray> stale = new ArrayList<>();
        for (HostArray h : uses(s)) {
          Where x = w.computeIfAbsent(h, k -> new Where());
          if (x.devices.contains(r)) continue;
          if (!x.host) {
            GraphRunner from = x.devices.iterator().next();
            moves.add(new Move(h, from, r));
            lines.add("move      " + layout.names().get(h) + " " + h.describe() + " from " + id(from) + " to " + id(r) + " through the host");
            x.host = true;
          }
          stale.add(h);
        }
        Set<HostArray> current = new HashSet<>();
        for (HostArray h : uses(s)) if (w.get(h).devices.contains(r)) current.add(h);
        before.put(s, new Before(List.copyOf(moves), List.copyOf(stale), Set.copyOf(current), !executedOnce && ran.add(r)));
        lines.add("run       " + g.name() + " [" + String.join(", ", s.tasks().stream().map(TaskSpec::id).toList()) + "] on " + id(r));
        for (HostArray h : uses(s)) w.get(h).devices.add(r);
        for (HostArray h : writes(s)) {
          Where x = w.get(h);
          x.devices.clear();
          x.devices.add(r);
          x.host = false;
        }
      }
      for (GraphSpec.Transfer t : g.toHost())
        if (t.mode() == DataTransferMode.EVERY_EXECUTION || (t.mode() == DataTransferMode.FIRST_EXECUTION && !executedOnce)) {
          Where x = w.get(t.array());
          if (x != null && !x.host) {
            lines.add("copy out  " + layout.names().get(t.array()) + " " + t.array().describe() + " from " + id(x.devices.iterator().next()));
            x.host = true;
          }
        }
    }
    List<String> numbered = new ArrayList<>();
    numbered.add("host  plan      " + (executedOnce ? "of this execution" : "of the first execution") + ": " + lines.size() + " steps");
    for (int i = 0; i < lines.size(); i++) numbered.add(String.format("host  plan%3d  %s", i + 1, lines.get(i)));
    if (printSchedule) numbered.forEach(System.out::println);
    lastPlan = new Plan(before, List.copyOf(numbered));
    lastGraphs = graphs;
    lastWhere = start;
    lastFirst = !executedOnce;
    return lastPlan;
  }

  /** The plan over the devices, then each segment's schedule on its device, as that segment would start. */
  @Override
  public synchronized List<String> schedule(List<Engine.Graph> graphs, Engine.ExecutionOptions options) {
    Layout layout = layout(options.plan() != null ? options.plan() : graphs);
    Plan plan = plan(layout, graphs);
    List<String> out = new ArrayList<>(plan.lines());
    for (Engine.Graph g : graphs)
      for (Segment s : layout.segments().get((GraphSpec) g)) {
        Before b = plan.before().get(s);
        out.addAll(s.runner().schedule(s.graph(), optionsFor(layout, s.runner(), options), b.current(), b.first(), layout.names()));
      }
    return out;
  }

  private static String id(GraphRunner r) {
    return r.device().device().id();
  }

  private static Map<HostArray, Where> copy(Map<HostArray, Where> m) {
    Map<HostArray, Where> out = new HashMap<>();
    for (Map.Entry<HostArray, Where> e : m.entrySet()) {
      Where w = new Where();
      w.host = e.getValue().host;
      w.devices.addAll(e.getValue().devices);
      out.put(e.getKey(), w);
    }
    return out;
  }

  private static boolean same(Map<HostArray, Where> a, Map<HostArray, Where> b) {
    if (!a.keySet().equals(b.keySet())) return false;
    for (Map.Entry<HostArray, Where> e : a.entrySet()) {
      Where x = e.getValue(), y = b.get(e.getKey());
      if (x.host != y.host || !x.devices.equals(y.devices)) return false;
    }
    return true;
  }

  /**
   * Runs one segment on its device as planned: the arrays it uses that another device holds are
   * brought back to the host first, the arrays stale on its device marked so (its runner copies them
   * in); afterwards the arrays it wrote are current on this device alone.
   */
  private Profile run(Layout layout, Before before, Segment s, Engine.ExecutionOptions options) {
    GraphRunner r = s.runner();
    Profile p = Profiles.EMPTY;
    for (Move m : before.moves()) {
      if (printSchedule) System.out.println("host  " + layout.names().get(m.array()) + " " + m.array().describe() + " moves from " + id(m.from())
          + " to " + id(m.to()));
      synchronized (m.from()) {
        p = Profiles.plus(p, m.from().copyToHost(m.array(), options.profile()));
      }
    }
    synchronized (where) {   // not this: execute() holds it while device threads run segments
      for (HostArray h : before.stale()) where.computeIfAbsent(h, x -> new Where()).host = true;
    }
    synchronized (r) {
      for (HostArray h : before.stale()) r.invalidate(h);
    }
    Profile ran;
    synchronized (r) {
      ran = r.execute(s.graph(), optionsFor(layout, r, options));
    }
    synchronized (where) {
      for (HostArray h : uses(s)) where.get(h).devices.add(r);
      for (HostArray h : writes(s)) {
        Where w = where.get(h);
        w.devices.clear();
        w.devices.add(r);
        w.host = false;
      }
    }
    return Profiles.plus(p, ran);
  }

  /** Makes the host's value of {@code h} the current one: every device's copy is stale. */
  private void currentOnHost(HostArray h) {
    where.remove(h);
    for (GraphRunner r : runners.values()) r.invalidate(h);
  }

  /** Brings the current value of {@code h} to its host array, from a device if the host's is not current. */
  private Profile toHost(HostArray h, Layout layout, boolean profile) {
    Where w = where.get(h);
    if (w == null || w.host) return Profiles.EMPTY;
    GraphRunner from = w.devices.iterator().next();
    Profile p = from.copyToHost(h, profile);
    w.host = true;
    return p;
  }

  @Override
  public synchronized void compile(List<Engine.Graph> graphs, Engine.ExecutionOptions options) {
    Layout layout = layout(options.plan() != null ? options.plan() : graphs);
    for (Engine.Graph g : graphs)
      for (Segment s : layout.segments().get((GraphSpec) g)) s.runner().compile(s.graph(), optionsFor(layout, s.runner(), options));
  }

  @Override
  public synchronized void freeMemory() {
    for (GraphRunner r : runners.values()) r.freeMemory();
    where.clear();
  }

  @Override
  public synchronized long memoryBytes() {
    long bytes = 0;
    for (GraphRunner r : runners.values()) bytes += r.memoryBytes();
    return bytes;
  }

  @Override
  public synchronized Profile transferToHost(List<Engine.Graph> graphs, List<Object> arrays, boolean profile) {
    Layout layout = layout(graphs);
    for (Object o : arrays) {
      HostArray h = HostArray.of(o);
      if (h == null || !layout.names().containsKey(h))
        throw new IllegalArgumentException("transferToHost: " + (h == null ? String.valueOf(o) : h.describe()) + " is not held by this plan on "
            + String.join(", ", placement.devices().stream().map(d -> d.id()).toList()));
    }
    Profile p = Profiles.EMPTY;
    for (Object o : arrays) p = Profiles.plus(p, toHost(HostArray.of(o), layout, profile));
    return p;
  }

  @Override
  public synchronized Profile transferToHost(List<Engine.Graph> graphs, Object array, long offset, long length, boolean profile) {
    Layout layout = layout(graphs);
    HostArray h = HostArray.of(array);
    if (h == null || !layout.names().containsKey(h)) return transferToHost(graphs, List.of(array), profile);   // refused there, with its message
    Where w = where.get(h);
    if (w == null || w.host) return Profiles.EMPTY;   // the host's value is the current one
    return w.devices.iterator().next().transferToHost(graphs, array, offset, length, profile);   // only part of it: the host is not current after
  }

  @Override
  public synchronized void hostChanged(List<Engine.Graph> graphs, List<Object> arrays) {
    for (GraphRunner r : runners.values()) r.hostChanged(graphs, arrays);   // checks the arrays, then marks each device's copy stale
    for (Object o : arrays) where.remove(HostArray.of(o));
  }

  @Override
  public synchronized void close() {
    RuntimeException first = null;
    for (GraphRunner r : runners.values()) {
      try {
        r.close();
      } catch (RuntimeException e) {
        if (first == null) first = e;
      }
    }
    if (first != null) throw first;
  }
}
