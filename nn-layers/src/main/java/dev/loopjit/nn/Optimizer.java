// How parameters follow their gradients: SGD, momentum, Adam; each knows its state arrays and its update tasks.
package dev.loopjit.nn;

import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.util.List;

/**
 * An optimizer's settings. The state it needs (velocity; Adam's moments and β powers) lives in
 * arrays that stay on the device for the whole run; the update is one kernel over the whole
 * parameter array ({@link OptimizerKernels}).
 *
 * <pre>{@code
 * Optimizer.sgd(0.01f)
 * Optimizer.adam(1e-3f).withWeightDecay(1e-4f)
 * }</pre>
 * Settings are {@link java.io.Serializable}, so that they travel to other JVMs (Spark executors).
 */
public sealed interface Optimizer extends java.io.Serializable permits Optimizer.Sgd, Optimizer.Momentum, Optimizer.Adam {
  /** Plain SGD; {@code weightDecay} adds λp to the gradient. */
  record Sgd(float learningRate, float weightDecay) implements Optimizer {
    public Sgd withWeightDecay(float wd) { return new Sgd(learningRate, wd); }
  }

  /** SGD with heavy-ball momentum μ. */
  record Momentum(float learningRate, float momentum, float weightDecay) implements Optimizer {
    public Momentum withWeightDecay(float wd) { return new Momentum(learningRate, momentum, wd); }
  }

  /** Adam; {@code weightDecay} is decoupled from the gradient (AdamW). */
  record Adam(float learningRate, float beta1, float beta2, float epsilon, float weightDecay) implements Optimizer {
    public Adam withWeightDecay(float wd) { return new Adam(learningRate, beta1, beta2, epsilon, wd); }
  }

  static Sgd sgd(float learningRate) {
    return new Sgd(learningRate, 0f);
  }

  static Momentum momentum(float learningRate, float momentum) {
    return new Momentum(learningRate, momentum, 0f);
  }

  /** Adam with the usual β1 = 0.9, β2 = 0.999, ε = 1e-8. */
  static Adam adam(float learningRate) {
    return new Adam(learningRate, 0.9f, 0.999f, 1e-8f, 0f);
  }

  /** The optimizer named on the command line: {@code sgd}, {@code momentum} (μ = 0.9) or {@code adam}. */
  static Optimizer named(String name, float learningRate, float weightDecay) {
    return switch (name) {
      case "sgd" -> new Sgd(learningRate, weightDecay);
      case "momentum" -> new Momentum(learningRate, 0.9f, weightDecay);
      case "adam" -> adam(learningRate).withWeightDecay(weightDecay);
      default -> throw new IllegalArgumentException("unknown optimizer \"" + name + "\" (sgd, momentum, adam)");
    };
  }

  float learningRate();

  /** Fresh state for {@code n} parameters, in the order {@link #addUpdate} takes it. */
  default List<FloatArray> newState(int n) {
    return switch (this) {
      case Sgd s -> List.of();
      case Momentum m -> List.of(new FloatArray(n));
      case Adam a -> List.of(new FloatArray(n), new FloatArray(n), FloatArray.fromElements(1f, 1f));
    };
  }

  /** Adds the update of all {@code n} parameters; the learning rate is multiplied by {@code scale[0]} (1 element). */
  default void addUpdate(Wiring w, FloatArray params, FloatArray grads, List<FloatArray> state, FloatArray scale, int n) {
    addUpdate(w, "", params, grads, state, scale, n);
  }

  /** As above, the task ids starting with {@code prefix}: for a graph that updates several parameter arrays, each with its optimizer. */
  default void addUpdate(Wiring w, String prefix, FloatArray params, FloatArray grads, List<FloatArray> state, FloatArray scale, int n) {
    TaskGraph g = w.graph();
    switch (this) {
      case Sgd s -> g.task(w.id(prefix + "sgd"), OptimizerKernels::sgdUpdate, params, grads, scale, s.learningRate(), s.weightDecay(), n);
      case Momentum m -> g.task(w.id(prefix + "momentum"), OptimizerKernels::momentumUpdate, params, grads, scale, state.get(0), m.learningRate(),
          m.momentum(), m.weightDecay(), n);
      case Adam a -> g.task(w.id(prefix + "adam_tick"), OptimizerKernels::adamTick, state.get(2), a.beta1(), a.beta2())
          .task(w.id(prefix + "adam"), OptimizerKernels::adamUpdate, params, grads, scale, state.get(0), state.get(1), state.get(2),
              a.learningRate(), a.beta1(), a.beta2(), a.epsilon(), a.weightDecay(), n);
    }
  }
}
