// The 2-D convolution layer (NCHW, square kernel, stride, zero padding, optional bias): shape rule, parameters, initialisation, tasks.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import java.util.Random;

/**
 * A convolution of images (C, H, W) with {@code filters} kernels of {@code kernel × kernel}:
 * output (F, OH, OW), {@code OH = (H + 2·padding - kernel) / stride + 1} ({@link ConvKernels}).
 * Parameters: W (F, C, K, K) row-major, as PyTorch's {@code Conv2d}, then b (F) when {@code bias}.
 *
 * <p>On CPUs and the JVM the layer unrolls the batch ({@code im2col}) and runs matrix products over
 * it: on CPU OpenCL devices and {@code jvm-mt} plain one-output-per-work-item loops their compilers
 * coarsen ({@code convForwardRows}, {@code convWeightImages}, and at stride 1 {@code convInputColumns}
 * with {@code columnsToImageRows}), on the sequential JVM the strip kernels. GPUs get the direct
 * one-output-per-work-item kernels, with the gradients' sums over the batch split in two: each
 * image's sums on a work-item of their own ({@code convWeightImagesNaive}, {@code convBiasImages}),
 * then the images in order ({@code convWeightSum}). All give the same bits.
 *
 * @param inChannels the channels it must be given, or 0 to take whatever the layer before makes
 */
public record Conv2D(int filters, int kernel, int stride, int padding, boolean bias, int inChannels) implements Layer {
  static final int CODE = 5;
  /** Below this many input channels the input gradient's strips are too narrow to pay; the direct kernel runs instead. */
  static final int STRIP_CHANNELS = 8;
  /**
   * From this many columns of the unrolled image (C·K·K) the compiler-coarsened products run
   * where the compiler coarsens; below it their rows are too short (the CNN's first layer, 9
   * columns: weight gradient 92 ms against 3 with the strips) and the strips run.
   */
  static final int ROW_PRODUCT_COLUMNS = 64;

  public Conv2D {
    if (filters <= 0 || kernel <= 0 || stride <= 0 || padding < 0 || inChannels < 0)
      throw new IllegalArgumentException("conv needs filters, kernel and stride ≥ 1 and padding ≥ 0, not filters " + filters + ", kernel "
          + kernel + ", stride " + stride + ", padding " + padding);
  }

  /** {@code filters} filters of {@code kernel × kernel}, stride 1, no padding, with bias. */
  public Conv2D(int filters, int kernel) {
    this(filters, kernel, 1, 0, true, 0);
  }

  /** The same layer, declaring the input channels it takes (checked when the model is built). */
  public Conv2D withInputChannels(int channels) {
    return new Conv2D(filters, kernel, stride, padding, bias, channels);
  }

  /** The same layer without a bias. */
  public Conv2D withoutBias() {
    return new Conv2D(filters, kernel, stride, padding, false, inChannels);
  }

  @Override
  public String describe() {
    return "conv " + filters + " " + kernel + "×" + kernel + (stride != 1 ? " stride " + stride : "") + (padding != 0 ? " pad " + padding : "")
        + (bias ? "" : " no bias");
  }

  @Override
  public Shape outputShape(Shape in) {
    if (!in.isImage())
      throw new IllegalArgumentException("takes images (channels, height, width) but gets " + in + "; give the model an image shape, e.g. shape(1, 28, 28)");
    if (inChannels > 0 && in.channels() != inChannels)
      throw new IllegalArgumentException("takes " + inChannels + " channels but gets " + in);
    int h = in.dim(1) + 2 * padding, w = in.dim(2) + 2 * padding;
    if (kernel > h || kernel > w)
      throw new IllegalArgumentException("its " + kernel + "×" + kernel + " kernel is larger than the input " + in + " padded to " + h + "×" + w);
    return Shape.image(filters, ConvKernels.outSize(in.dim(1), kernel, stride, padding), ConvKernels.outSize(in.dim(2), kernel, stride, padding));
  }

  private int columns(Shape in) {
    return in.channels() * kernel * kernel;
  }

  @Override
  public int parameterCount(Shape in) {
    long n = (long) filters * columns(in) + (bias ? filters : 0);
    if (n > Integer.MAX_VALUE) throw new IllegalArgumentException("more than " + Integer.MAX_VALUE + " parameters");
    return (int) n;
  }

  /** He-uniform {@code U(±√(6/(C·K·K)))} before a rectifier, else Xavier-uniform {@code U(±√(6/((C + F)·K·K)))}; zero biases. */
  @Override
  public void initialize(Shape in, FloatArray params, int at, FloatArray state, int stateAt, Random random, Layer next) {
    int fanIn = columns(in), fanOut = filters * kernel * kernel;
    double limit = Layer.rectified(next) ? Math.sqrt(6.0 / fanIn) : Math.sqrt(6.0 / (fanIn + fanOut));
    for (int i = 0; i < filters * fanIn; i++) params.set(at + i, (float) ((2 * random.nextDouble() - 1) * limit));
    if (bias) for (int f = 0; f < filters; f++) params.set(at + filters * fanIn + f, 0f);
  }

  private boolean rowProducts(LayerSite s) {
    return s.compilerCoarsens() && columns(s.in) >= ROW_PRODUCT_COLUMNS;
  }

  private int biasAt(LayerSite s) {
    return bias ? s.paramAt + filters * columns(s.in) : -1;
  }

  @Override
  public void addForward(LayerSite s) {
    int c = s.in.channels(), h = s.in.dim(1), w = s.in.dim(2), oh = s.out.dim(1), ow = s.out.dim(2), cols = columns(s.in);
    if (s.prefersStrips()) {
      // the unrolled image and the weights with the filters along a row: both CPU paths read them
      FloatArray colT = s.floats("cols", s.rows * oh * ow * cols), wt = s.floats("wt", cols * filters);
      s.graph().task(s.id("conv_im2col"), ConvKernels::im2col, s.x, colT, s.rows, c, h, w, kernel, stride, padding, oh, ow)
          .task(s.id("conv_wt"), ConvKernels::weightsByColumn, s.params, s.paramAt, wt, filters, cols);
      if (rowProducts(s)) {
        FloatArray rows = s.floats("y_rows", s.rows * oh * ow * filters);
        s.graph().task(s.id("conv"), ConvKernels::convForwardRows, colT, wt, s.params, biasAt(s), rows, s.rows, filters, cols, oh * ow)
            .task(s.id("conv_planes"), ConvKernels::rowsToPlanes, rows, s.y, s.rows, filters, oh * ow);
      } else {
        s.graph().task(s.id("conv"), ConvKernels::convForwardStrips, colT, wt, s.params, biasAt(s), s.y, s.rows, filters, cols, oh * ow);
      }
    } else {
      s.graph().task(s.id("conv"), ConvKernels::convForwardNaive, s.x, s.params, s.paramAt, biasAt(s), s.y, s.rows, c, h, w, filters, kernel,
          stride, padding, oh, ow);
    }
  }

  @Override
  public void addBackward(LayerSite s) {
    int c = s.in.channels(), h = s.in.dim(1), w = s.in.dim(2), oh = s.out.dim(1), ow = s.out.dim(2), cols = columns(s.in);
    if (s.prefersStrips()) {
      FloatArray partial = s.floats("dw_images", s.rows * filters * cols);
      s.graph().task(s.id("conv_dw_images"), rowProducts(s) ? ConvKernels::convWeightImages : ConvKernels::convWeightPartials, s.dy,
              s.floats("cols", s.rows * oh * ow * cols), partial, s.rows, filters, cols, oh * ow)
          .task(s.id("conv_dw"), ConvKernels::convWeightSum, partial, s.grads, s.paramAt, s.rows, filters * cols);
    } else {
      // GPUs: each image's sums one per work-item, then the images in order — the naive kernel's bits, with B times its work-items
      FloatArray partial = s.floats("dw_images", s.rows * filters * cols);
      s.graph().task(s.id("conv_dw_images"), ConvKernels::convWeightImagesNaive, s.dy, s.x, partial, s.rows, c, h, w, filters, kernel, stride,
              padding, oh, ow)
          .task(s.id("conv_dw"), ConvKernels::convWeightSum, partial, s.grads, s.paramAt, s.rows, filters * cols);
    }
    if (bias && s.prefersStrips()) s.graph().task(s.id("conv_db"), ConvKernels::convBackwardBias, s.dy, s.grads, biasAt(s), s.rows, filters, oh * ow);
    else if (bias) {
      FloatArray partial = s.floats("db_images", s.rows * filters);
      s.graph().task(s.id("conv_db_images"), ConvKernels::convBiasImages, s.dy, partial, s.rows, filters, oh * ow)
          .task(s.id("conv_db"), ConvKernels::convWeightSum, partial, s.grads, biasAt(s), s.rows, filters);
    }
    if (!s.needsInputGradient()) return;
    if (rowProducts(s) && stride == 1) {
      FloatArray wp = s.floats("wp", cols * filters), dcol = s.floats("dcols", s.rows * oh * ow * cols), rows = s.floats("dx_rows", s.rows * c * h * w);
      s.graph().task(s.id("conv_wp"), ConvKernels::weightsByPosition, s.params, s.paramAt, wp, c, filters, kernel)
          .task(s.id("conv_dcols"), ConvKernels::convInputColumns, s.dy, wp, dcol, s.rows, filters, cols, oh * ow)
          .task(s.id("conv_dx"), ConvKernels::columnsToImageRows, dcol, rows, s.rows, c, h, w, kernel, padding, oh, ow)
          .task(s.id("conv_dx_planes"), ConvKernels::rowsToPlanes, rows, s.dx, s.rows, c, h * w);
    } else if (s.prefersStrips() && c >= STRIP_CHANNELS) {
      FloatArray wr = s.floats("wr", cols * filters);
      s.graph().task(s.id("conv_wr"), ConvKernels::weightsByChannel, s.params, s.paramAt, wr, c, filters, kernel)
          .task(s.id("conv_dx"), ConvKernels::convBackwardInputStrips, s.dy, wr, s.dx, s.rows, c, h, w, filters, kernel, stride, padding, oh, ow);
    } else {
      s.graph().task(s.id("conv_dx"), ConvKernels::convBackwardInputNaive, s.dy, s.params, s.paramAt, s.dx, s.rows, c, h, w, filters, kernel,
          stride, padding, oh, ow);
    }
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public int[] config() {
    return new int[] {filters, kernel, stride, padding, bias ? 1 : 0, inChannels};
  }

  static Conv2D fromConfig(int[] c) {
    Layer.expect(c, 6, "conv");
    return new Conv2D(c[0], c[1], c[2], c[3], c[4] != 0, c[5]);
  }
}
