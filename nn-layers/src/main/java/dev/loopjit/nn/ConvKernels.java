// The 2-D convolution (NCHW, square kernel, stride, zero padding, bias) as @Parallel-loop kernels: forward, weight and input gradients.
// Each comes as the naive reference, as register strips (outer products) and as plain products over the unrolled image; equal bit for bit.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * A convolution layer in the manner of llm.c. Shapes, row-major:
 * <pre>
 * B = rows of the batch, C = input channels, H × W = input size, F = filters, K = kernel side,
 * S = stride, PAD = zero padding, OH = (H + 2 PAD - K) / S + 1, OW likewise, P = OH·OW, CKK = C·K·K
 * x (B, C, H, W), y (B, F, OH, OW), W (F, C, K, K) at params[wAt], b (F) at params[bAt] (bAt &lt; 0: no bias)
 * y[b][f][oh][ow] = b[f] + Σ_c Σ_kh Σ_kw x[b][c][oh·S + kh - PAD][ow·S + kw - PAD] · W[f][c][kh][kw]
 * </pre>
 * (x outside the image reads as 0). Every kernel here sums in one fixed order — y over c, then kh,
 * then kw, from the bias, with a term {@code 0 · w} for each padded position; dW image by image
 * (over the positions of each, then over the images); dx over f for each (kh, kw) that meets the
 * output, then those sums in (kh, kw) order — so the naive kernels, the strips and the products
 * give the same bits, and on every device (Java forbids FMA contraction).
 *
 * <p>The naive kernels compute one output per work-item. The strip kernels give a work-item
 * {@link #ROWS} rows of a matrix product and a run of up to 64–128 columns, kept in private arrays,
 * and add one outer product per step of the sum: the loop over the columns carries no reduction,
 * so a CPU OpenCL compiler turns it into vector instructions (as {@code Blas3.gemmOuterProduct}
 * in tornado-tasks). They work on the image unrolled by {@link #im2col} and on the weights
 * rearranged by {@link #weightsByColumn} and {@link #weightsByChannel}:
 * <pre>
 * colT (B, P, CKK): colT[b][p][(c·K + kh)·K + kw] = x[b][c][oh·S + kh - PAD][ow·S + kw - PAD], p = oh·OW + ow
 * wt (CKK, F): wt[kk][f] = W[f][kk]            wr (K, K, F, C): wr[kh][kw][f][c] = W[f][c][kh][kw]
 * </pre>
 */
public final class ConvKernels {
  /** Rows of the product per work-item in the strip kernels. */
  static final int ROWS = 8;
  /** Filters per work-item in {@link #convForwardStrips}. */
  static final int FILTERS = 64;
  /** Columns of the unrolled image per work-item in {@link #convWeightPartials}. */
  static final int COLUMNS = 128;
  /** Input channels per work-item in {@link #convBackwardInputStrips}. */
  static final int CHANNELS = 64;

  private ConvKernels() {}

  /** The output side for an input side {@code n}: {@code (n + 2 pad - kernel) / stride + 1}. */
  static int outSize(int n, int kernel, int stride, int pad) {
    return (n + 2 * pad - kernel) / stride + 1;
  }

  // ---- the naive references: one output per work-item ----

  /** {@code y = conv(x, W) + b}, one output per work-item. */
  public static void convForwardNaive(FloatArray x, FloatArray params, int wAt, int bAt, FloatArray y, int rows, int channels,
      int height, int width, int filters, int kernel, int stride, int pad, int outH, int outW) {
    for (@Parallel int bf = 0; bf < rows * filters; bf++)
      for (@Parallel int p = 0; p < outH * outW; p++) {
        int b = bf / filters, f = bf % filters, oh = p / outW, ow = p % outW;
        float acc = bAt >= 0 ? params.get(bAt + f) : 0f;
        for (int c = 0; c < channels; c++)
          for (int kh = 0; kh < kernel; kh++)
            for (int kw = 0; kw < kernel; kw++) {
              int ih = oh * stride + kh - pad, iw = ow * stride + kw - pad;
              float v = ih >= 0 && ih < height && iw >= 0 && iw < width ? x.get(((b * channels + c) * height + ih) * width + iw) : 0f;
              acc += v * params.get(wAt + ((f * channels + c) * kernel + kh) * kernel + kw);
            }
        y.set(bf * outH * outW + p, acc);
      }
  }

  /**
   * {@code dW = Σ_b (Σ_p dy · x)} (written over the gradient), one weight per work-item: each
   * image's sum over its positions in order, then those sums over the images in order.
   */
  public static void convBackwardWeightsNaive(FloatArray dy, FloatArray x, FloatArray grads, int wAt, int rows, int channels, int height,
      int width, int filters, int kernel, int stride, int pad, int outH, int outW) {
    for (@Parallel int f = 0; f < filters; f++)
      for (@Parallel int kk = 0; kk < channels * kernel * kernel; kk++) {
        int c = kk / (kernel * kernel), kh = kk / kernel % kernel, kw = kk % kernel;
        float acc = 0f;
        for (int b = 0; b < rows; b++)
          acc += windowProducts(dy, x, b, c, f, kh, kw, channels, height, width, filters, stride, pad, outH, outW);
        grads.set(wAt + f * channels * kernel * kernel + kk, acc);
      }
  }

  /** One image's {@code Σ_p dy[b][f][p] · x[b][c][window p at (kh, kw)]} over the output positions in order, 0 where the window leaves the image. */
  static float windowProducts(FloatArray dy, FloatArray x, int b, int c, int f, int kh, int kw, int channels, int height, int width,
      int filters, int stride, int pad, int outH, int outW) {
    float image = 0f;
    for (int oh = 0; oh < outH; oh++)
      for (int ow = 0; ow < outW; ow++) {
        int ih = oh * stride + kh - pad, iw = ow * stride + kw - pad;
        float v = ih >= 0 && ih < height && iw >= 0 && iw < width ? x.get(((b * channels + c) * height + ih) * width + iw) : 0f;
        image += dy.get(((b * filters + f) * outH + oh) * outW + ow) * v;
      }
    return image;
  }

  /**
   * {@code dx = Σ_kh Σ_kw (Σ_f dy · W)}: the gradient passed down, one input element per
   * work-item. For each (kh, kw) through which the input meets an output position, the sum over
   * the filters from 0, then those sums in (kh, kw) order; a (kh, kw) that meets no output
   * (outside it, or between strides) adds nothing.
   */
  public static void convBackwardInputNaive(FloatArray dy, FloatArray params, int wAt, FloatArray dx, int rows, int channels, int height,
      int width, int filters, int kernel, int stride, int pad, int outH, int outW) {
    for (@Parallel int bc = 0; bc < rows * channels; bc++)
      for (@Parallel int i = 0; i < height * width; i++) {
        int b = bc / channels, c = bc % channels, ih = i / width, iw = i % width;
        float acc = 0f;
        for (int kh = 0; kh < kernel; kh++)
          for (int kw = 0; kw < kernel; kw++) {
            int th = ih + pad - kh, tw = iw + pad - kw;
            if (th >= 0 && tw >= 0 && th % stride == 0 && tw % stride == 0 && th / stride < outH && tw / stride < outW) {
              int at = b * filters * outH * outW + th / stride * outW + tw / stride;
              float part = 0f;
              for (int f = 0; f < filters; f++) part += dy.get(at + f * outH * outW) * params.get(wAt + ((f * channels + c) * kernel + kh) * kernel + kw);
              acc += part;
            }
          }
        dx.set(bc * height * width + i, acc);
      }
  }

  /**
   * {@code db = Σ_b (Σ_p dy)}: each image's sum over its positions, then those sums over the images
   * in order (as the weights' gradient); one filter per work-item.
   */
  public static void convBackwardBias(FloatArray dy, FloatArray grads, int bAt, int rows, int filters, int positions) {
    for (@Parallel int f = 0; f < filters; f++) {
      float acc = 0f;
      for (int b = 0; b < rows; b++) acc += NormKernels.planeSum(dy, (b * filters + f) * positions, positions);
      grads.set(bAt + f, acc);
    }
  }

  /** {@link #convBackwardBias} for GPUs, first half: {@code partial[b·F + f] = Σ_p dy}, one (image, filter) per work-item; {@link #convWeightSum} adds the images. */
  public static void convBiasImages(FloatArray dy, FloatArray partial, int rows, int filters, int positions) {
    for (@Parallel int b = 0; b < rows; b++)
      for (@Parallel int f = 0; f < filters; f++) partial.set(b * filters + f, NormKernels.planeSum(dy, (b * filters + f) * positions, positions));
  }

  /**
   * {@link #convBackwardWeightsNaive} for GPUs, first half: each image's sum,
   * {@code partial[b][f][kk] = Σ_p dy · x}, the same products in the same order, one (image,
   * filter, weight) per work-item — B times the work-items of the one-kernel version, whose loops
   * over the batch ran on a few hundred GPU threads; {@link #convWeightSum} adds the images in order.
   */
  public static void convWeightImagesNaive(FloatArray dy, FloatArray x, FloatArray partial, int rows, int channels, int height, int width,
      int filters, int kernel, int stride, int pad, int outH, int outW) {
    for (@Parallel int b = 0; b < rows; b++)
      for (@Parallel int f = 0; f < filters; f++)
        for (@Parallel int kk = 0; kk < channels * kernel * kernel; kk++) {
          int c = kk / (kernel * kernel), kh = kk / kernel % kernel, kw = kk % kernel;
          partial.set((b * filters + f) * channels * kernel * kernel + kk,
              windowProducts(dy, x, b, c, f, kh, kw, channels, height, width, filters, stride, pad, outH, outW));
        }
  }

  // ---- the strips: the unrolled image and rearranged weights, then outer products ----

  /** Unrolls the image: colT (B, P, CKK) from x (B, C, H, W), zeros where the window leaves the image. */
  public static void im2col(FloatArray x, FloatArray colT, int rows, int channels, int height, int width, int kernel, int stride, int pad,
      int outH, int outW) {
    for (@Parallel int bp = 0; bp < rows * outH * outW; bp++)
      for (@Parallel int c = 0; c < channels; c++) {
        int b = bp / (outH * outW), p = bp % (outH * outW), top = p / outW * stride - pad, left = p % outW * stride - pad;
        int from = (b * channels + c) * height * width, to = (bp * channels + c) * kernel * kernel;
        for (int kh = 0; kh < kernel; kh++)
          for (int kw = 0; kw < kernel; kw++) {
            int ih = top + kh, iw = left + kw;
            colT.set(to + kh * kernel + kw, ih >= 0 && ih < height && iw >= 0 && iw < width ? x.get(from + ih * width + iw) : 0f);
          }
      }
  }

  /** {@code wt (CKK, F) = Wᵀ}: the weights with the filters along a row. */
  public static void weightsByColumn(FloatArray params, int wAt, FloatArray wt, int filters, int columns) {
    for (@Parallel int kk = 0; kk < columns; kk++)
      for (@Parallel int f = 0; f < filters; f++) wt.set(kk * filters + f, params.get(wAt + f * columns + kk));
  }

  /** {@code wr (K, K, F, C)}: the weights with the input channels along a row. */
  public static void weightsByChannel(FloatArray params, int wAt, FloatArray wr, int channels, int filters, int kernel) {
    for (@Parallel int kf = 0; kf < kernel * kernel * filters; kf++)
      for (@Parallel int c = 0; c < channels; c++) {
        int kh = kf / (kernel * filters), kw = kf / filters % kernel, f = kf % filters;
        wr.set(kf * channels + c, params.get(wAt + ((f * channels + c) * kernel + kh) * kernel + kw));
      }
  }

  /**
   * {@link #convForwardNaive} as a product: {@code y[b][f][p] = b[f] + Σ_kk colT[b][p][kk] · wt[kk][f]}.
   * A work-item computes {@link #ROWS} positions of one image for up to {@link #FILTERS} filters.
   */
  public static void convForwardStrips(FloatArray colT, FloatArray wt, FloatArray params, int bAt, FloatArray y, int rows, int filters,
      int columns, int positions) {
    for (@Parallel int fs = 0; fs < (filters + FILTERS - 1) / FILTERS; fs++)
      for (@Parallel int pb = 0; pb < rows * ((positions + ROWS - 1) / ROWS); pb++) {
        int blocks = (positions + ROWS - 1) / ROWS, b = pb / blocks, p = pb % blocks * ROWS;
        int f0 = fs * FILTERS, n = Math.min(FILTERS, filters - f0), last = positions - 1;
        int a0 = (b * positions + p) * columns, a1 = (b * positions + Math.min(p + 1, last)) * columns;
        int a2 = (b * positions + Math.min(p + 2, last)) * columns, a3 = (b * positions + Math.min(p + 3, last)) * columns;
        int a4 = (b * positions + Math.min(p + 4, last)) * columns, a5 = (b * positions + Math.min(p + 5, last)) * columns;
        int a6 = (b * positions + Math.min(p + 6, last)) * columns, a7 = (b * positions + Math.min(p + 7, last)) * columns;
        float[] c0 = new float[FILTERS], c1 = new float[FILTERS], c2 = new float[FILTERS], c3 = new float[FILTERS];
        float[] c4 = new float[FILTERS], c5 = new float[FILTERS], c6 = new float[FILTERS], c7 = new float[FILTERS];
        for (int q = 0; q < n; q++) {
          float v = bAt >= 0 ? params.get(bAt + f0 + q) : 0f;
          c0[q] = v; c1[q] = v; c2[q] = v; c3[q] = v; c4[q] = v; c5[q] = v; c6[q] = v; c7[q] = v;
        }
        for (int kk = 0; kk < columns; kk++) {
          float x0 = colT.get(a0 + kk), x1 = colT.get(a1 + kk), x2 = colT.get(a2 + kk), x3 = colT.get(a3 + kk);
          float x4 = colT.get(a4 + kk), x5 = colT.get(a5 + kk), x6 = colT.get(a6 + kk), x7 = colT.get(a7 + kk);
          int row = kk * filters + f0;
          for (int q = 0; q < n; q++) {
            float w = wt.get(row + q);
            c0[q] += x0 * w; c1[q] += x1 * w; c2[q] += x2 * w; c3[q] += x3 * w;
            c4[q] += x4 * w; c5[q] += x5 * w; c6[q] += x6 * w; c7[q] += x7 * w;
          }
        }
        int valid = Math.min(ROWS, positions - p);
        for (int q = 0; q < n; q++) {
          int at = (b * filters + f0 + q) * positions + p;
          y.set(at, c0[q]);
          if (valid > 1) y.set(at + 1, c1[q]);
          if (valid > 2) y.set(at + 2, c2[q]);
          if (valid > 3) y.set(at + 3, c3[q]);
          if (valid > 4) y.set(at + 4, c4[q]);
          if (valid > 5) y.set(at + 5, c5[q]);
          if (valid > 6) y.set(at + 6, c6[q]);
          if (valid > 7) y.set(at + 7, c7[q]);
        }
      }
  }

  // ---- the same products as plain loops, for the compilers that coarsen them (CPU OpenCL, jvm-mt) ----

  /**
   * {@link #convForwardNaive} as one matrix product with the filters along a row:
   * {@code yRows[b·P + p][f] = b[f] + Σ_kk colT[b][p][kk] · wt[kk][f]}, one output per work-item;
   * {@link #rowsToPlanes} then gives y (B, F, P). yRows (B·P, F). Neither operand's address
   * depends on the other's index, the shape CPU compilers coarsen into register blocks.
   */
  public static void convForwardRows(FloatArray colT, FloatArray wt, FloatArray params, int bAt, FloatArray yRows, int rows, int filters,
      int columns, int positions) {
    for (@Parallel int bp = 0; bp < rows * positions; bp++)
      for (@Parallel int f = 0; f < filters; f++) {
        float acc = bAt >= 0 ? params.get(bAt + f) : 0f;
        for (int kk = 0; kk < columns; kk++) acc += colT.get(bp * columns + kk) * wt.get(kk * filters + f);
        yRows.set(bp * filters + f, acc);
      }
  }

  /** {@code y[b][f][p] = yRows[b·P + p][f]}: the layout {@link #convForwardRows} writes, back to (B, F, P). */
  public static void rowsToPlanes(FloatArray yRows, FloatArray y, int rows, int filters, int positions) {
    for (@Parallel int b = 0; b < rows; b++)   // a 3-D grid: no division per element (5× faster on PoCL than (b·f, p))
      for (@Parallel int f = 0; f < filters; f++)
        for (@Parallel int p = 0; p < positions; p++) y.set((b * filters + f) * positions + p, yRows.get((b * positions + p) * filters + f));
  }

  /**
   * {@link #convWeightPartials} as one output per work-item: {@code partial[b][f][kk] = Σ_p dy[b][f][p] · colT[b][p][kk]},
   * a grid of (image, filter, weight); {@link #convWeightSum} then adds the images in order.
   */
  public static void convWeightImages(FloatArray dy, FloatArray colT, FloatArray partial, int rows, int filters, int columns, int positions) {
    for (@Parallel int b = 0; b < rows; b++)
      for (@Parallel int f = 0; f < filters; f++)
        for (@Parallel int kk = 0; kk < columns; kk++) {
          float acc = 0f;
          for (int p = 0; p < positions; p++) acc += dy.get((b * filters + f) * positions + p) * colT.get((b * positions + p) * columns + kk);
          partial.set((b * filters + f) * columns + kk, acc);
        }
  }

  /** {@code wp (F, K, K, C)}: the weights with each filter's (kh, kw, c) along a row, for {@link #convInputColumns}. */
  public static void weightsByPosition(FloatArray params, int wAt, FloatArray wp, int channels, int filters, int kernel) {
    for (@Parallel int f = 0; f < filters; f++)
      for (@Parallel int j = 0; j < kernel * kernel * channels; j++) {
        int k = j / channels, c = j % channels;
        wp.set(f * kernel * kernel * channels + j, params.get(wAt + (f * channels + c) * kernel * kernel + k));
      }
  }

  /**
   * {@link #convBackwardInputNaive}'s inner sums for every output position: the gradient of the
   * unrolled image, {@code dcolT[b][p][(kh·K + kw)·C + c] = Σ_f dy[b][f][p] · W[f][c][kh][kw]}, a
   * grid of (image, position, column); dcolT (B, P, K·K·C), wp from {@link #weightsByPosition}.
   */
  public static void convInputColumns(FloatArray dy, FloatArray wp, FloatArray dcolT, int rows, int filters, int columns, int positions) {
    for (@Parallel int b = 0; b < rows; b++)
      for (@Parallel int p = 0; p < positions; p++)
        for (@Parallel int j = 0; j < columns; j++) {
          float acc = 0f;
          for (int f = 0; f < filters; f++) acc += dy.get((b * filters + f) * positions + p) * wp.get(f * columns + j);
          dcolT.set((b * positions + p) * columns + j, acc);
        }
  }

  /**
   * Folds {@link #convInputColumns}' sums back onto the image for stride 1:
   * {@code dxRows[(b·H + ih)·W + iw][c] = Σ over (kh, kw) in order that meet an output of dcolT};
   * {@link #rowsToPlanes} then gives dx (B, C, H, W). Equal to {@link #convBackwardInputNaive} at
   * stride 1 bit for bit. A grid of (image row, column, channel).
   */
  public static void columnsToImageRows(FloatArray dcolT, FloatArray dxRows, int rows, int channels, int height, int width, int kernel, int pad,
      int outH, int outW) {
    for (@Parallel int bh = 0; bh < rows * height; bh++)
      for (@Parallel int iw = 0; iw < width; iw++)
        for (@Parallel int c = 0; c < channels; c++) {
          int b = bh / height, ih = bh % height, columns = channels * kernel * kernel;
          float acc = 0f;
          for (int kh = 0; kh < kernel; kh++)
            for (int kw = 0; kw < kernel; kw++) {
              int th = ih + pad - kh, tw = iw + pad - kw;
              if (th >= 0 && tw >= 0 && th < outH && tw < outW)
                acc += dcolT.get((b * outH * outW + th * outW + tw) * columns + (kh * kernel + kw) * channels + c);
            }
          dxRows.set((bh * width + iw) * channels + c, acc);
        }
  }

  /**
   * {@link #convBackwardWeightsNaive}, first half, as products: each image's
   * {@code partial[b][f][kk] = Σ_p dy[b][f][p] · colT[b][p][kk]}; partial (B, F, CKK). A
   * work-item computes {@link #ROWS} filters of one image for up to {@link #COLUMNS} weights each;
   * the work-items of one image are neighbours, so its unrolled rows stay in the cache.
   */
  public static void convWeightPartials(FloatArray dy, FloatArray colT, FloatArray partial, int rows, int filters, int columns, int positions) {
    for (@Parallel int ks = 0; ks < (columns + COLUMNS - 1) / COLUMNS; ks++)
      for (@Parallel int bf = 0; bf < rows * ((filters + ROWS - 1) / ROWS); bf++) {
        int blocks = (filters + ROWS - 1) / ROWS, b = bf / blocks, f = bf % blocks * ROWS;
        int k0 = ks * COLUMNS, n = Math.min(COLUMNS, columns - k0), last = filters - 1, base = b * filters * positions;
        int d0 = base + f * positions, d1 = base + Math.min(f + 1, last) * positions, d2 = base + Math.min(f + 2, last) * positions;
        int d3 = base + Math.min(f + 3, last) * positions, d4 = base + Math.min(f + 4, last) * positions;
        int d5 = base + Math.min(f + 5, last) * positions, d6 = base + Math.min(f + 6, last) * positions;
        int d7 = base + Math.min(f + 7, last) * positions;
        float[] c0 = new float[COLUMNS], c1 = new float[COLUMNS], c2 = new float[COLUMNS], c3 = new float[COLUMNS];
        float[] c4 = new float[COLUMNS], c5 = new float[COLUMNS], c6 = new float[COLUMNS], c7 = new float[COLUMNS];
        for (int p = 0; p < positions; p++) {
          float x0 = dy.get(d0 + p), x1 = dy.get(d1 + p), x2 = dy.get(d2 + p), x3 = dy.get(d3 + p);
          float x4 = dy.get(d4 + p), x5 = dy.get(d5 + p), x6 = dy.get(d6 + p), x7 = dy.get(d7 + p);
          int row = (b * positions + p) * columns + k0;
          for (int q = 0; q < n; q++) {
            float v = colT.get(row + q);
            c0[q] += x0 * v; c1[q] += x1 * v; c2[q] += x2 * v; c3[q] += x3 * v;
            c4[q] += x4 * v; c5[q] += x5 * v; c6[q] += x6 * v; c7[q] += x7 * v;
          }
        }
        int valid = Math.min(ROWS, filters - f);
        for (int q = 0; q < n; q++) {
          int at = (b * filters + f) * columns + k0 + q;
          partial.set(at, c0[q]);
          if (valid > 1) partial.set(at + columns, c1[q]);
          if (valid > 2) partial.set(at + 2 * columns, c2[q]);
          if (valid > 3) partial.set(at + 3 * columns, c3[q]);
          if (valid > 4) partial.set(at + 4 * columns, c4[q]);
          if (valid > 5) partial.set(at + 5 * columns, c5[q]);
          if (valid > 6) partial.set(at + 6 * columns, c6[q]);
          if (valid > 7) partial.set(at + 7 * columns, c7[q]);
        }
      }
  }

  /** {@link #convBackwardWeightsNaive}, second half: {@code dW = Σ_b partial[b]} in order. partial (B, F·CKK). */
  public static void convWeightSum(FloatArray partial, FloatArray grads, int wAt, int rows, int weights) {
    for (@Parallel int i = 0; i < weights; i++) {
      float acc = 0f;
      for (int b = 0; b < rows; b++) acc += partial.get(b * weights + i);
      grads.set(wAt + i, acc);
    }
  }

  /**
   * {@link #convBackwardInputNaive} as products over f, one per (kh, kw), for {@link #ROWS} input
   * positions of one image and up to {@link #CHANNELS} channels per work-item, from wr.
   */
  public static void convBackwardInputStrips(FloatArray dy, FloatArray wr, FloatArray dx, int rows, int channels, int height, int width,
      int filters, int kernel, int stride, int pad, int outH, int outW) {
    for (@Parallel int cs = 0; cs < (channels + CHANNELS - 1) / CHANNELS; cs++)
      for (@Parallel int ib = 0; ib < rows * ((height * width + ROWS - 1) / ROWS); ib++) {
        int area = height * width, blocks = (area + ROWS - 1) / ROWS, b = ib / blocks, i = ib % blocks * ROWS;
        int c0 = cs * CHANNELS, n = Math.min(CHANNELS, channels - c0), positions = outH * outW, base = b * filters * positions;
        int i0 = i, i1 = Math.min(i + 1, area - 1), i2 = Math.min(i + 2, area - 1), i3 = Math.min(i + 3, area - 1);
        int i4 = Math.min(i + 4, area - 1), i5 = Math.min(i + 5, area - 1), i6 = Math.min(i + 6, area - 1), i7 = Math.min(i + 7, area - 1);
        float[] s0 = new float[CHANNELS], s1 = new float[CHANNELS], s2 = new float[CHANNELS], s3 = new float[CHANNELS];
        float[] s4 = new float[CHANNELS], s5 = new float[CHANNELS], s6 = new float[CHANNELS], s7 = new float[CHANNELS];
        float[] t0 = new float[CHANNELS], t1 = new float[CHANNELS], t2 = new float[CHANNELS], t3 = new float[CHANNELS];
        float[] t4 = new float[CHANNELS], t5 = new float[CHANNELS], t6 = new float[CHANNELS], t7 = new float[CHANNELS];
        for (int kh = 0; kh < kernel; kh++)
          for (int kw = 0; kw < kernel; kw++) {
            // Where each of the eight inputs meets the output through (kh, kw); -1 where it does not.
            int o0 = source(i0, width, kh, kw, stride, pad, outH, outW), o1 = source(i1, width, kh, kw, stride, pad, outH, outW);
            int o2 = source(i2, width, kh, kw, stride, pad, outH, outW), o3 = source(i3, width, kh, kw, stride, pad, outH, outW);
            int o4 = source(i4, width, kh, kw, stride, pad, outH, outW), o5 = source(i5, width, kh, kw, stride, pad, outH, outW);
            int o6 = source(i6, width, kh, kw, stride, pad, outH, outW), o7 = source(i7, width, kh, kw, stride, pad, outH, outW);
            for (int q = 0; q < n; q++) {
              t0[q] = 0f; t1[q] = 0f; t2[q] = 0f; t3[q] = 0f; t4[q] = 0f; t5[q] = 0f; t6[q] = 0f; t7[q] = 0f;
            }
            for (int f = 0; f < filters; f++) {
              int at = base + f * positions;
              float x0 = o0 >= 0 ? dy.get(at + o0) : 0f, x1 = o1 >= 0 ? dy.get(at + o1) : 0f;
              float x2 = o2 >= 0 ? dy.get(at + o2) : 0f, x3 = o3 >= 0 ? dy.get(at + o3) : 0f;
              float x4 = o4 >= 0 ? dy.get(at + o4) : 0f, x5 = o5 >= 0 ? dy.get(at + o5) : 0f;
              float x6 = o6 >= 0 ? dy.get(at + o6) : 0f, x7 = o7 >= 0 ? dy.get(at + o7) : 0f;
              int row = ((kh * kernel + kw) * filters + f) * channels + c0;
              for (int q = 0; q < n; q++) {
                float w = wr.get(row + q);
                t0[q] += x0 * w; t1[q] += x1 * w; t2[q] += x2 * w; t3[q] += x3 * w;
                t4[q] += x4 * w; t5[q] += x5 * w; t6[q] += x6 * w; t7[q] += x7 * w;
              }
            }
            // only the inputs that meet the output through (kh, kw) take its sum, as in the reference
            for (int q = 0; q < n; q++) {
              if (o0 >= 0) s0[q] += t0[q];
              if (o1 >= 0) s1[q] += t1[q];
              if (o2 >= 0) s2[q] += t2[q];
              if (o3 >= 0) s3[q] += t3[q];
              if (o4 >= 0) s4[q] += t4[q];
              if (o5 >= 0) s5[q] += t5[q];
              if (o6 >= 0) s6[q] += t6[q];
              if (o7 >= 0) s7[q] += t7[q];
            }
          }
        int valid = Math.min(ROWS, area - i);
        for (int q = 0; q < n; q++) {
          int at = (b * channels + c0 + q) * area + i;
          dx.set(at, s0[q]);
          if (valid > 1) dx.set(at + 1, s1[q]);
          if (valid > 2) dx.set(at + 2, s2[q]);
          if (valid > 3) dx.set(at + 3, s3[q]);
          if (valid > 4) dx.set(at + 4, s4[q]);
          if (valid > 5) dx.set(at + 5, s5[q]);
          if (valid > 6) dx.set(at + 6, s6[q]);
          if (valid > 7) dx.set(at + 7, s7[q]);
        }
      }
  }

  /** The output position {@code oh·OW + ow} that input {@code i} feeds through (kh, kw), or -1. Inlined. */
  private static int source(int i, int width, int kh, int kw, int stride, int pad, int outH, int outW) {
    int th = i / width + pad - kh, tw = i % width + pad - kw;
    boolean valid = th >= 0 && tw >= 0 && th % stride == 0 && tw % stride == 0 && th / stride < outH && tw / stride < outW;
    return valid ? th / stride * outW + tw / stride : -1;
  }
}
