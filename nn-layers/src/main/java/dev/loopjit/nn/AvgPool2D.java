// Average pooling of images as a layer: the shape rule and the tasks; the backward spreads each gradient evenly over its window.
package dev.loopjit.nn;

/**
 * Average pooling over {@code size × size} windows, {@code stride} apart, no padding
 * ({@link PoolKernels}): (C, H, W) → (C, (H - size) / stride + 1, (W - size) / stride + 1).
 */
public record AvgPool2D(int size, int stride) implements Layer {
  static final int CODE = 7;

  public AvgPool2D {
    if (size <= 0 || stride <= 0) throw new IllegalArgumentException("average pool needs size and stride ≥ 1, not " + size + " and " + stride);
  }

  @Override
  public String describe() {
    return "avg pool " + size + "×" + size + (stride != size ? " stride " + stride : "");
  }

  @Override
  public Shape outputShape(Shape in) {
    return MaxPool2D.pooled(in, size, stride);
  }

  @Override
  public void addForward(LayerSite s) {
    s.graph().task(s.id("avgpool"), PoolKernels::avgPoolForward, s.x, s.y, s.rows, s.in.channels(), s.in.dim(1), s.in.dim(2), size, stride,
        s.out.dim(1), s.out.dim(2));
  }

  @Override
  public void addBackward(LayerSite s) {
    if (!s.needsInputGradient()) return;
    s.graph().task(s.id("avgpool_dx"), PoolKernels::avgPoolBackward, s.dy, s.dx, s.rows, s.in.channels(), s.in.dim(1), s.in.dim(2), size,
        stride, s.out.dim(1), s.out.dim(2));
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public int[] config() {
    return new int[] {size, stride};
  }

  static AvgPool2D fromConfig(int[] c) {
    Layer.expect(c, 2, "average pool");
    return new AvgPool2D(c[0], c[1]);
  }
}
