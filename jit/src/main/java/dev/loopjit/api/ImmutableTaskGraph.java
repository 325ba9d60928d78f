// A frozen TaskGraph, as an ExecutionPlan takes it.
package dev.loopjit.api;

import dev.loopjit.runtime.GraphSpec;

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
  private final GraphSpec spec;

  ImmutableTaskGraph(GraphSpec spec) {
    this.spec = spec;
  }

  /** The graph's name. */
  public String getTaskGraphName() {
    return spec.name();
  }

  /** For the runtime: the graph's content. */
  public GraphSpec spec() {
    return spec;
  }

  @Override
  public String toString() {
    return spec.toString();
  }
}
