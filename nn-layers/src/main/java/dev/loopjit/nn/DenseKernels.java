// The dense (fully connected) layer as @Parallel-loop kernels: y = x · Wᵀ + b over a batch, and its backward pass.
// Not a layer object: Sequential places W and b in the flat parameter array and wires these into task graphs.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * A dense layer in the manner of llm.c: plain loops over flat arrays, one work-item per output
 * element, a sequential sum inside. Shapes, row-major:
 * <pre>
 * B = rows of the batch, IN = input features, OUT = output features
 * x (B, IN), y (B, OUT), W (OUT, IN) at params[w], b (OUT) at params[bias]
 * </pre>
 * Every sum runs in the same order on every device and Java forbids FMA contraction, so the jvm
 * and a device agree bit for bit on these kernels.
 */
public final class DenseKernels {
  private DenseKernels() {}

  /** {@code y = x · Wᵀ + b}. x (B, IN), params: W (OUT, IN) at w, b (OUT) at bias; y (B, OUT). */
  public static void denseForward(FloatArray x, FloatArray params, int w, int bias, FloatArray y, int batch, int in, int out) {
    for (@Parallel int b = 0; b < batch; b++)
      for (@Parallel int o = 0; o < out; o++) {
        float acc = params.get(bias + o);
        for (int i = 0; i < in; i++) acc += x.get(b * in + i) * params.get(w + o * in + i);
        y.set(b * out + o, acc);
      }
  }

  /** {@code dx = dy · W}: the gradient passed down. dy (B, OUT), params: W (OUT, IN) at w; dx (B, IN). */
  public static void denseBackwardInput(FloatArray dy, FloatArray params, int w, FloatArray dx, int batch, int in, int out) {
    for (@Parallel int b = 0; b < batch; b++)
      for (@Parallel int i = 0; i < in; i++) {
        float acc = 0f;
        for (int o = 0; o < out; o++) acc += dy.get(b * out + o) * params.get(w + o * in + i);
        dx.set(b * in + i, acc);
      }
  }

  /**
   * {@code dW = dyᵀ · x}, written over (not added to) the gradient, so a step needs no zeroing.
   * dy (B, OUT), x (B, IN); grads: dW (OUT, IN) at w.
   */
  public static void denseBackwardWeights(FloatArray dy, FloatArray x, FloatArray grads, int w, int batch, int in, int out) {
    for (@Parallel int o = 0; o < out; o++)
      for (@Parallel int i = 0; i < in; i++) {
        float acc = 0f;
        for (int b = 0; b < batch; b++) acc += dy.get(b * out + o) * x.get(b * in + i);
        grads.set(w + o * in + i, acc);
      }
  }

  /** {@code db = Σ_b dy[b]}. dy (B, OUT); grads: db (OUT) at bias. */
  public static void denseBackwardBias(FloatArray dy, FloatArray grads, int bias, int batch, int out) {
    for (@Parallel int o = 0; o < out; o++) {
      float acc = 0f;
      for (int b = 0; b < batch; b++) acc += dy.get(b * out + o);
      grads.set(bias + o, acc);
    }
  }
}
