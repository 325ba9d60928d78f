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
   * innermost (x) dimension, so neighbouring work-items share the row of x.
   */
  public static void forward(FloatArray x,      // x: (batch, in)
                             FloatArray w,      // w: (out, in)
                             FloatArray bias,   // bias: (out)
                             FloatArray y,      // y: (batch, out)
                             int batch, int in, int out) {
    for (@Parallel int b = 0; b < batch; b++)
      for (@Parallel int o = 0; o < out; o++) {
        float acc = 0f;
        for (int i = 0; i < in; i++) acc += x.get(b * in + i) * w.get(o * in + i);
        y.set(b * out + o, bias.get(o) + acc);
      }
  }
}
