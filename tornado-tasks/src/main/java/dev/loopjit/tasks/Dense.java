// A dense (fully connected) layer's forward pass as a 2-D @Parallel loop; weights stored as in PyTorch's Linear, (out, in).
package dev.loopjit.tasks;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * The forward pass of a dense layer, {@code y = x·Wᵀ + bias}, over flat row-major arrays. Plain
 * Java: call it directly for the sequential reference, or run it in a task graph.
 */
public final class Dense {
  private Dense() {}

  /**
   * {@code y[b][o] = bias[o] + Σ_i x[b][i]·w[o][i]}, one work-item per output (b, o); o is the
   * innermost (x) dimension, so neighbouring work-items share the row of x. The sum starts from the
   * bias and adds the products in order of i (the order nn-layers' tiled kernels keep, so they agree
   * with this reference bit for bit).
   */
  public static void forward(FloatArray x,      // x: (batch, in)
                             FloatArray w,      // w: (out, in)
                             FloatArray bias,   // bias: (out)
                             FloatArray y,      // y: (batch, out)
                             int batch, int in, int out) {
    forwardAt(x, w, 0, bias, 0, y, batch, in, out);
  }

  /**
   * As {@link #forward(FloatArray, FloatArray, FloatArray, FloatArray, int, int, int)}, with W at
   * offset {@code w} of {@code weights} and the bias at offset {@code b} of {@code biases} (one flat
   * parameter array may hold both, as nn-layers keeps them).
   */
  public static void forwardAt(FloatArray x, FloatArray weights, int w, FloatArray biases, int b, FloatArray y, int batch, int in, int out) {
    for (@Parallel int r = 0; r < batch; r++)
      for (@Parallel int o = 0; o < out; o++) {
        float acc = biases.get(b + o);
        for (int i = 0; i < in; i++) acc += x.get(r * in + i) * weights.get(w + o * in + i);
        y.set(r * out + o, acc);
      }
  }
}
