// Max pooling of images as a layer: the shape rule and the tasks; the backward routes each gradient to the element the window chose.
package dev.loopjit.nn;

/**
 * Max pooling over {@code size × size} windows, {@code stride} apart, no padding
 * ({@link PoolKernels}): (C, H, W) → (C, (H - size) / stride + 1, (W - size) / stride + 1).
 * The forward keeps where each maximum was for the backward.
 */
public record MaxPool2D(int size, int stride) implements Layer {
  static final int CODE = 6;

  public MaxPool2D {
    if (size <= 0 || stride <= 0) throw new IllegalArgumentException("max pool needs size and stride ≥ 1, not " + size + " and " + stride);
  }

  @Override
  public String describe() {
    return "max pool " + size + "×" + size + (stride != size ? " stride " + stride : "");
  }

  @Override
  public Shape outputShape(Shape in) {
    return pooled(in, size, stride);
  }

  /** The pooled shape, for both poolings; refuses vectors and windows larger than the image. */
  static Shape pooled(Shape in, int size, int stride) {
    if (!in.isImage()) throw new IllegalArgumentException("takes images (channels, height, width) but gets " + in);
    if (size > in.dim(1) || size > in.dim(2))
      throw new IllegalArgumentException("its " + size + "×" + size + " window is larger than the input " + in);
    return Shape.image(in.channels(), (in.dim(1) - size) / stride + 1, (in.dim(2) - size) / stride + 1);
  }

  @Override
  public void addForward(LayerSite s) {
    if (s.compilerCoarsens())   // CPUs: one (image, channel) plane per work-item; the same results
      s.graph().task(s.id("maxpool"), PoolKernels::maxPoolForwardPlanes, s.x, s.y, s.ints("choice", s.rows * s.out.size()), s.rows,
          s.in.channels(), s.in.dim(1), s.in.dim(2), size, stride, s.out.dim(1), s.out.dim(2));
    else s.graph().task(s.id("maxpool"), PoolKernels::maxPoolForward, s.x, s.y, s.ints("choice", s.rows * s.out.size()), s.rows, s.in.channels(),
        s.in.dim(1), s.in.dim(2), size, stride, s.out.dim(1), s.out.dim(2));
  }

  @Override
  public void addBackward(LayerSite s) {
    if (!s.needsInputGradient()) return;
    if (stride >= size && s.compilerCoarsens())   // CPUs: one plane per work-item
      s.graph().task(s.id("maxpool_dx"), PoolKernels::maxPoolBackwardDisjointPlanes, s.dy, s.ints("choice", s.rows * s.out.size()), s.dx, s.rows,
          s.in.channels(), s.in.dim(1), s.in.dim(2), size, stride, s.out.dim(1), s.out.dim(2));
    else if (stride >= size)   // windows that do not overlap: the same sums without a loop per element
      s.graph().task(s.id("maxpool_dx"), PoolKernels::maxPoolBackwardDisjoint, s.dy, s.ints("choice", s.rows * s.out.size()), s.dx, s.rows,
          s.in.channels(), s.in.dim(1), s.in.dim(2), size, stride, s.out.dim(1), s.out.dim(2));
    else s.graph().task(s.id("maxpool_dx"), PoolKernels::maxPoolBackward, s.dy, s.ints("choice", s.rows * s.out.size()), s.dx, s.rows,
        s.in.channels(), s.in.dim(1), s.in.dim(2), size, stride, s.out.dim(1), s.out.dim(2));
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public int[] config() {
    return new int[] {size, stride};
  }

  static MaxPool2D fromConfig(int[] c) {
    Layer.expect(c, 2, "max pool");
    return new MaxPool2D(c[0], c[1]);
  }
}
