// An optimizer's state arrays on the host, and their copies to and from the device of the plan that keeps them.
package dev.loopjit.nn;

import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.types.FloatArray;
import java.util.List;

/** What {@link TrainingStep} and {@link ParameterUpdate} share: the state {@link Optimizer#newState} made, pulled and pushed. */
final class OptimizerState {
  final List<FloatArray> arrays;

  OptimizerState(Optimizer optimizer, int parameters) {
    arrays = optimizer == null ? List.of() : optimizer.newState(Math.max(parameters, 1));
  }

  /** Copies the state from the device that ran {@code last} (nothing before the first run). */
  void pull(ExecutionResult last) {
    if (last != null && !arrays.isEmpty()) last.transferToHost(arrays.toArray());
  }

  /** Marks the host's state for copying to the device before {@code plan}'s next execution. */
  void push(ExecutionPlan plan) {
    if (!arrays.isEmpty()) plan.transferToDevice(arrays.toArray());
  }

  /** A learning-rate scale checked: finite and ≥ 0. */
  static float checkScale(float scale) {
    if (!(scale >= 0f) || Float.isInfinite(scale)) throw new IllegalArgumentException("learning-rate scale must be finite and ≥ 0, not " + scale);
    return scale;
  }
}
