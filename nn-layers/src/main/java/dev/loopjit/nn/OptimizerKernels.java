// Parameter updates as one @Parallel loop over the whole flat parameter array: SGD, momentum, Adam (decoupled weight decay).
// The optimizer's settings and which kernel a model uses are in Optimizer; these are only the loops.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * Updates over all P parameters at once (they live in one array, as in llm.c): params, grads,
 * velocity, m, v all (P). {@code powers} (2) holds β1^t and β2^t for Adam's bias correction; it
 * stays on the device and {@link #adamTick} advances it, so no step number crosses the bus.
 * {@code scale} (1) multiplies the learning rate: a schedule changes it between steps without
 * building a new graph (1 leaves every result as without it, bit for bit).
 */
public final class OptimizerKernels {
  private OptimizerKernels() {}

  /** {@code p -= lr (g + λp)}: SGD with L2 weight decay λ. */
  public static void sgdUpdate(FloatArray params, FloatArray grads, FloatArray scale, float lr, float weightDecay, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float p = params.get(i);
      params.set(i, p - lr * scale.get(0) * (grads.get(i) + weightDecay * p));
    }
  }

  /** {@code v = μv + (g + λp); p -= lr·v}: heavy-ball momentum (PyTorch's form). */
  public static void momentumUpdate(FloatArray params, FloatArray grads, FloatArray scale, FloatArray velocity, float lr, float momentum,
      float weightDecay, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float p = params.get(i);
      float v = momentum * velocity.get(i) + grads.get(i) + weightDecay * p;
      velocity.set(i, v);
      params.set(i, p - lr * scale.get(0) * v);
    }
  }

  /** {@code powers *= (β1, β2)}: one work-item, run once per step before {@link #adamUpdate}. powers (2). */
  public static void adamTick(FloatArray powers, float beta1, float beta2) {
    powers.set(0, powers.get(0) * beta1);
    powers.set(1, powers.get(1) * beta2);
  }

  /**
   * Adam with decoupled weight decay (AdamW): {@code m = β1 m + (1-β1) g; v = β2 v + (1-β2) g²;
   * p -= lr (m̂ / (√v̂ + ε) + λp)}, with {@code m̂ = m / (1 - β1^t)}, {@code v̂ = v / (1 - β2^t)}.
   */
  public static void adamUpdate(FloatArray params, FloatArray grads, FloatArray scale, FloatArray m, FloatArray v, FloatArray powers,
      float lr, float beta1, float beta2, float eps, float weightDecay, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float g = grads.get(i);
      float mi = beta1 * m.get(i) + (1f - beta1) * g;
      float vi = beta2 * v.get(i) + (1f - beta2) * g * g;
      m.set(i, mi);
      v.set(i, vi);
      float mHat = mi / (1f - powers.get(0));
      float vHat = vi / (1f - powers.get(1));
      float p = params.get(i);
      params.set(i, p - lr * scale.get(0) * (mHat / ((float) Math.sqrt(vHat) + eps) + weightDecay * p));
    }
  }
}
