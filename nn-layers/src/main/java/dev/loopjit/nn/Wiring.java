// A task graph being built by nn-layers, and the ids of its tasks in the order they were added.
package dev.loopjit.nn;

import dev.loopjit.api.TaskGraph;
import java.util.ArrayList;
import java.util.List;

/**
 * The graph a {@link TrainingStep}, an {@link Inference} or a {@link Predictor} builds, with the
 * ids of its tasks, so that they can be listed ({@link TrainingStep#tasks()}) without looking
 * inside the engine's graph. Every task is added as {@code wiring.graph().task(wiring.id("name"), …)}.
 */
public final class Wiring {
  private final TaskGraph graph;
  private final List<String> ids = new ArrayList<>();
  /** Whether the layers run on {@code jvm-mt} (see {@link LayerSite#transposesDenseWeights()}). */
  private boolean jvmMt;

  Wiring(String name) {
    graph = new TaskGraph(name);
  }

  /** This wiring's layers run on {@code device}: on {@code jvm-mt} some choose other kernels than on OpenCL CPUs. */
  Wiring on(dev.loopjit.api.Device device) {
    jvmMt = device != null && device.id().equals("jvm-mt");
    return this;
  }

  /** Whether the layers run on {@code jvm-mt}. */
  boolean jvmMt() {
    return jvmMt;
  }

  /** The graph being built. */
  public TaskGraph graph() {
    return graph;
  }

  /** Records a task id, in order, and returns it. */
  public String id(String id) {
    ids.add(id);
    return id;
  }

  /** The task ids added so far, in order. */
  public List<String> ids() {
    return List.copyOf(ids);
  }
}
