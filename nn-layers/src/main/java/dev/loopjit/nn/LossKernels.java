// Losses as forward/backward @Parallel-loop pairs: fused stable softmax + cross-entropy, BCE on logits, MSE; sums and hit counts.
// Only the first batch.get(0) rows of a batch count: the rest pad the last, short batch of an epoch.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * Loss kernels. Shapes:
 * <pre>
 * B = rows of the batch, C = classes, T = targets per row
 * batch (1 + B): batch[0] = V, the rows in use; rows V..B-1 are padding and give zero loss and gradient
 * logits (B, C) or (B, T), probs (B, C), labels (B), targets (B, T), losses (B), dlogits like logits
 * </pre>
 * A forward writes one loss per row ({@code losses}); {@link #lossSum} adds them on the device;
 * the step's loss is that sum over V. A backward writes the gradient of that mean, so it carries
 * the factor 1/V.
 */
public final class LossKernels {
  private LossKernels() {}

  /**
   * Softmax and cross-entropy of each row, fused and stable: the row's maximum is subtracted
   * before exp, and the loss is {@code log Σ e^(z-max) - (z[label] - max)}, never a log of a
   * rounded-to-zero probability.
   */
  public static void softmaxCrossEntropyForward(FloatArray logits, IntArray labels, IntArray batch, FloatArray probs,
      FloatArray losses, int rows, int classes) {
    for (@Parallel int b = 0; b < rows; b++) {
      int base = b * classes;
      float max = logits.get(base);
      for (int c = 1; c < classes; c++) max = Math.max(max, logits.get(base + c));
      float sum = 0f;
      for (int c = 0; c < classes; c++) {
        float e = (float) Math.exp(logits.get(base + c) - max);
        probs.set(base + c, e);
        sum += e;
      }
      for (int c = 0; c < classes; c++) probs.set(base + c, probs.get(base + c) / sum);
      float loss = (float) Math.log(sum) - (logits.get(base + labels.get(b)) - max);
      losses.set(b, b < batch.get(0) ? loss : 0f);
    }
  }

  /** {@code dlogits = (probs - onehot(label)) / V}: the chain rule through softmax and cross-entropy at once. */
  public static void softmaxCrossEntropyBackward(FloatArray probs, IntArray labels, IntArray batch, FloatArray dlogits,
      int rows, int classes) {
    for (@Parallel int b = 0; b < rows; b++) {
      int valid = batch.get(0);
      float scale = b < valid ? 1f / valid : 0f;
      int label = labels.get(b);
      for (int c = 0; c < classes; c++) {
        float p = probs.get(b * classes + c) - (c == label ? 1f : 0f);
        dlogits.set(b * classes + c, p * scale);
      }
    }
  }

  /**
   * Binary cross-entropy on logits, averaged over the T targets of a row:
   * {@code max(z, 0) - z·y + log(1 + e^-|z|)}, which is {@code -y log σ(z) - (1-y) log(1-σ(z))} without its overflow.
   */
  public static void bceForward(FloatArray logits, FloatArray targets, IntArray batch, FloatArray losses, int rows, int width) {
    for (@Parallel int b = 0; b < rows; b++) {
      float sum = 0f;
      for (int t = 0; t < width; t++) {
        float z = logits.get(b * width + t);
        sum += Math.max(z, 0f) - z * targets.get(b * width + t) + (float) Math.log1p(Math.exp(-Math.abs(z)));
      }
      losses.set(b, b < batch.get(0) ? sum / width : 0f);
    }
  }

  /** {@code dz = (σ(z) - y) / (V·T)}. */
  public static void bceBackward(FloatArray logits, FloatArray targets, IntArray batch, FloatArray dlogits, int rows, int width) {
    for (@Parallel int b = 0; b < rows; b++)
      for (@Parallel int t = 0; t < width; t++) {
        int valid = batch.get(0);
        float scale = b < valid ? 1f / ((float) valid * width) : 0f;
        int k = b * width + t;
        dlogits.set(k, (ActivationKernels.sigmoid(logits.get(k)) - targets.get(k)) * scale);
      }
  }

  /** Mean squared error over the T outputs of a row: {@code Σ (z - y)² / T}. */
  public static void mseForward(FloatArray outputs, FloatArray targets, IntArray batch, FloatArray losses, int rows, int width) {
    for (@Parallel int b = 0; b < rows; b++) {
      float sum = 0f;
      for (int t = 0; t < width; t++) {
        float d = outputs.get(b * width + t) - targets.get(b * width + t);
        sum += d * d;
      }
      losses.set(b, b < batch.get(0) ? sum / width : 0f);
    }
  }

  /** {@code dz = 2 (z - y) / (V·T)}. */
  public static void mseBackward(FloatArray outputs, FloatArray targets, IntArray batch, FloatArray doutputs, int rows, int width) {
    for (@Parallel int b = 0; b < rows; b++)
      for (@Parallel int t = 0; t < width; t++) {
        int valid = batch.get(0);
        float scale = b < valid ? 2f / ((float) valid * width) : 0f;
        int k = b * width + t;
        doutputs.set(k, (outputs.get(k) - targets.get(k)) * scale);
      }
  }

  /**
   * {@code sum[0] = Σ losses[0..V)}, by one work-item in row order: the batch is small, and a fixed
   * order makes the reported loss the same on every run and on every device. losses (B), sum (1).
   */
  public static void lossSum(FloatArray losses, IntArray batch, FloatArray sum) {
    float s = 0f;
    int valid = batch.get(0);
    for (int b = 0; b < valid; b++) s += losses.get(b);
    sum.set(0, s);
  }

  /**
   * Adds to {@code correct[0]} the rows whose largest output (the first, on ties) is their label;
   * a device reduction, exact because it adds integers. outputs (B, C), labels (B), correct (1).
   */
  public static void countCorrect(FloatArray outputs, IntArray labels, IntArray batch, @Reduce IntArray correct, int rows, int classes) {
    for (@Parallel int b = 0; b < rows; b++) {
      int best = 0;
      for (int c = 1; c < classes; c++) if (outputs.get(b * classes + c) > outputs.get(b * classes + best)) best = c;
      int hit = b < batch.get(0) && best == labels.get(b) ? 1 : 0;
      correct.set(0, correct.get(0) + hit);
    }
  }

  /** Adds to {@code correct[0]} the rows whose logit sign matches the 0/1 target ({@code z > 0} iff {@code y > ½}). logits, targets (B). */
  public static void countCorrectBinary(FloatArray logits, FloatArray targets, IntArray batch, @Reduce IntArray correct, int rows) {
    for (@Parallel int b = 0; b < rows; b++) {
      int hit = b < batch.get(0) && (logits.get(b) > 0f) == (targets.get(b) > 0.5f) ? 1 : 0;
      correct.set(0, correct.get(0) + hit);
    }
  }
}
