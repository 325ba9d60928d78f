// A frozen TaskGraph, as an ExecutionPlan takes it.
package dev.loopjit.api;

/**
 * A frozen {@link TaskGraph} made by {@link TaskGraph#snapshot()}: later changes to the
 * {@code TaskGraph} do not affect it.
 *
 * <pre>{@code
 * ImmutableTaskGraph g = new TaskGraph("g").task("t", Kernels::saxpy, 2f, x, y).snapshot();
 * new ExecutionPlan(g).execute();
 * }</pre>
 */
public final class ImmutableTaskGraph {
  private final Engine.Graph graph;
  private final java.util.List<Object> persisted;
  private final java.util.Map<String, java.util.List<Object>> consumed;

  ImmutableTaskGraph(Engine.Graph graph, java.util.List<Object> persisted, java.util.Map<String, java.util.List<Object>> consumed) {
    this.graph = graph;
    this.persisted = persisted;
    this.consumed = java.util.Collections.unmodifiableMap(consumed);
  }

  /** The arrays {@link TaskGraph#persistOnDevice} named. */
  java.util.List<Object> persisted() {
    return persisted;
  }

  /** The arrays {@link TaskGraph#consumeFromDevice} named, by the graph they come from ("" for any). */
  java.util.Map<String, java.util.List<Object>> consumed() {
    return consumed;
  }

  /** The graph's name. */
  public String getTaskGraphName() {
    return graph.name();
  }

  /** The ids of its tasks, in the order they run. */
  public java.util.List<String> taskIds() {
    return graph.taskIds();
  }

  /** The engine's frozen graph, for {@link ExecutionPlan}. */
  Engine.Graph graph() {
    return graph;
  }

  @Override
  public String toString() {
    return graph.toString();
  }
}
