// Max and average pooling of NCHW images as @Parallel-loop kernels; each backward is a gather, so no two work-items write one element.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * Pooling over {@code size × size} windows, {@code stride} apart, no padding. Shapes:
 * <pre>
 * B = rows, C = channels, H × W = input, OH = (H - size) / stride + 1, OW likewise
 * x (B, C, H, W), y (B, C, OH, OW), choice (B, C, OH, OW): the input position ih·W + iw a max window chose
 * </pre>
 * The backward kernels run one work-item per input element and add up the windows that contain
 * it, in order (oh, then ow), so overlapping windows (stride &lt; size) need no atomics and
 * every device gets the same sums. Inputs no window reaches get 0.
 */
public final class PoolKernels {
  private PoolKernels() {}

  /** {@code y = max over the window}; {@code choice} records where the maximum was (the first, on ties). */
  public static void maxPoolForward(FloatArray x, FloatArray y, IntArray choice, int rows, int channels, int height, int width, int size,
      int stride, int outH, int outW) {
    for (@Parallel int bc = 0; bc < rows * channels; bc++)
      for (@Parallel int p = 0; p < outH * outW; p++)
        windowMax(x, bc * height * width, p / outW * stride, p % outW * stride, width, size, y, choice, bc * outH * outW + p);
  }

  /**
   * {@code y[o]} = the window's largest element and {@code choice[o]} its position ({@code ih·W + iw}), the
   * first in row order on ties; a NaN first element stays chosen. The value is kept as it is found, not
   * read again at the chosen (data-dependent) index, so the host proves every index in range and the
   * kernels run unchecked.
   */
  private static void windowMax(FloatArray x, int plane, int top, int left, int width, int size, FloatArray y, IntArray choice, int o) {
    int at = top * width + left;
    float best = x.get(plane + at);
    for (int kh = 0; kh < size; kh++)
      for (int kw = 0; kw < size; kw++) {
        int i = (top + kh) * width + left + kw;
        float v = x.get(plane + i);
        if (v > best) {
          best = v;
          at = i;
        }
      }
    y.set(o, best);
    choice.set(o, at);
  }

  /** {@code dx[i] = Σ dy} over the windows that chose input i (0 when none did): the reference, for any windows. */
  public static void maxPoolBackward(FloatArray dy, IntArray choice, FloatArray dx, int rows, int channels, int height, int width, int size,
      int stride, int outH, int outW) {
    for (@Parallel int bc = 0; bc < rows * channels; bc++)
      for (@Parallel int i = 0; i < height * width; i++) {
        int ih = i / width, iw = i % width, out = bc * outH * outW, hits = 0;
        float acc = -0f;   // so that one window's gradient passes through unchanged, -0 included
        for (int oh = first(ih, size, stride); oh <= Math.min(ih / stride, outH - 1); oh++)
          for (int ow = first(iw, size, stride); ow <= Math.min(iw / stride, outW - 1); ow++)
            if (choice.get(out + oh * outW + ow) == i) {
              acc += dy.get(out + oh * outW + ow);
              hits++;
            }
        dx.set(bc * height * width + i, hits > 0 ? acc : 0f);
      }
  }

  /**
   * {@link #maxPoolBackward} for windows that do not overlap ({@code stride ≥ size}): each input
   * lies in at most one window, found by division, so a work-item does no loop. A work-item per
   * input element on a grid of (plane, row, column), so no division by the image's size. Equal to
   * the reference bit for bit.
   */
  public static void maxPoolBackwardDisjoint(FloatArray dy, IntArray choice, FloatArray dx, int rows, int channels, int height, int width,
      int size, int stride, int outH, int outW) {
    for (@Parallel int bc = 0; bc < rows * channels; bc++)
      for (@Parallel int ih = 0; ih < height; ih++)
        for (@Parallel int iw = 0; iw < width; iw++) {
          int oh = ih / stride, ow = iw / stride;
          boolean inside = ih - oh * stride < size && iw - ow * stride < size && oh < outH && ow < outW;
          int o = bc * outH * outW + Math.min(oh, outH - 1) * outW + Math.min(ow, outW - 1);
          dx.set((bc * height + ih) * width + iw, inside && choice.get(o) == ih * width + iw ? dy.get(o) : 0f);
        }
  }

  /**
   * {@link #maxPoolForward} with one work-item per (image, channel) plane, walking its windows:
   * what CPUs (PoCL, {@code jvm-mt}) run fastest, where the work-items of a group run side by side
   * and a per-element division to find the window costs more than the window's four reads. The same
   * results.
   */
  public static void maxPoolForwardPlanes(FloatArray x, FloatArray y, IntArray choice, int rows, int channels, int height, int width, int size,
      int stride, int outH, int outW) {
    for (@Parallel int bc = 0; bc < rows * channels; bc++) {
      int plane = bc * height * width, out = bc * outH * outW;
      for (int oh = 0; oh < outH; oh++)
        for (int ow = 0; ow < outW; ow++) windowMax(x, plane, oh * stride, ow * stride, width, size, y, choice, out + oh * outW + ow);
    }
  }

  /**
   * {@link #maxPoolBackwardDisjoint} (stride ≥ size) with one work-item per (image, channel) plane:
   * the plane is zeroed, then each window's gradient goes to the input it chose (a choice outside
   * its window is ignored, as the one-element-per-work-item form ignores it). The same results.
   */
  public static void maxPoolBackwardDisjointPlanes(FloatArray dy, IntArray choice, FloatArray dx, int rows, int channels, int height, int width,
      int size, int stride, int outH, int outW) {
    for (@Parallel int bc = 0; bc < rows * channels; bc++) {
      int area = height * width, plane = bc * area, out = bc * outH * outW;
      for (int i = 0; i < area; i++) dx.set(plane + i, 0f);
      for (int oh = 0; oh < outH; oh++)
        for (int ow = 0; ow < outW; ow++) {
          int chosen = choice.get(out + oh * outW + ow), ih = chosen / width - oh * stride, iw = chosen % width - ow * stride;
          // within the plane whenever it is within its window (the layer's windows lie in the image);
          // said here so that the host proves the store in range and the kernel runs unchecked
          if (chosen >= 0 && chosen < area && ih >= 0 && ih < size && iw >= 0 && iw < size) dx.set(plane + chosen, dy.get(out + oh * outW + ow));
        }
    }
  }

  /** {@code y = (Σ over the window, in row order) / size²}. */
  public static void avgPoolForward(FloatArray x, FloatArray y, int rows, int channels, int height, int width, int size, int stride, int outH,
      int outW) {
    for (@Parallel int bc = 0; bc < rows * channels; bc++)
      for (@Parallel int p = 0; p < outH * outW; p++) {
        int top = p / outW * stride, left = p % outW * stride, plane = bc * height * width;
        float acc = 0f;
        for (int kh = 0; kh < size; kh++)
          for (int kw = 0; kw < size; kw++) acc += x.get(plane + (top + kh) * width + left + kw);
        y.set(bc * outH * outW + p, acc / (size * size));
      }
  }

  /** {@code dx[i] = (Σ dy over the windows that contain input i) / size²}. */
  public static void avgPoolBackward(FloatArray dy, FloatArray dx, int rows, int channels, int height, int width, int size, int stride,
      int outH, int outW) {
    for (@Parallel int bc = 0; bc < rows * channels; bc++)
      for (@Parallel int i = 0; i < height * width; i++) {
        int ih = i / width, iw = i % width, out = bc * outH * outW;
        float acc = 0f;
        for (int oh = first(ih, size, stride); oh <= Math.min(ih / stride, outH - 1); oh++)
          for (int ow = first(iw, size, stride); ow <= Math.min(iw / stride, outW - 1); ow++) acc += dy.get(out + oh * outW + ow);
        dx.set(bc * height * width + i, acc / (size * size));
      }
  }

  /** The first window (along one side) that contains input {@code i}: the least o with o·stride + size > i. Inlined. */
  private static int first(int i, int size, int stride) {
    return i < size ? 0 : (i - size + stride) / stride;
  }
}
