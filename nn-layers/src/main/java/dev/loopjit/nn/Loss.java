// The training objectives: which loss kernels a model's outputs go through, and what a dataset must provide for each.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * A loss on the last layer's outputs ({@link LossKernels}). Every loss is averaged over the rows
 * of a batch.
 */
public enum Loss {
  /** Softmax over the outputs, then cross-entropy with an integer class label per row. */
  SOFTMAX_CROSS_ENTROPY,
  /** Sigmoid of each output, then binary cross-entropy with a 0/1 target: the seeds' toy problem. */
  BCE_WITH_LOGITS,
  /** Mean squared error against float targets. */
  MSE;

  /** The loss's name in words. */
  public String label() {
    return switch (this) {
      case SOFTMAX_CROSS_ENTROPY -> "softmax cross-entropy";
      case BCE_WITH_LOGITS -> "binary cross-entropy on logits";
      case MSE -> "mean squared error";
    };
  }

  /** Whether the dataset must carry integer labels (else float targets, one per output). */
  public boolean needsLabels() {
    return this == SOFTMAX_CROSS_ENTROPY;
  }

  /** Whether a row's prediction can be right or wrong, so that accuracy means something. */
  boolean hasAccuracy(int outputs) {
    return switch (this) {
      case SOFTMAX_CROSS_ENTROPY -> true;
      case BCE_WITH_LOGITS -> outputs == 1;
      case MSE -> false;
    };
  }

  void check(Dataset data, int outputs) {
    if (needsLabels() && data.labels() == null)
      throw new IllegalArgumentException(this + " needs a dataset with labels; " + data.name() + " has float targets");
    if (needsLabels() && data.classes() != outputs)
      throw new IllegalArgumentException(this + ": the model has " + outputs + " outputs but " + data.name() + " has " + data.classes() + " classes");
    if (!needsLabels() && data.targets() == null)
      throw new IllegalArgumentException(this + " needs a dataset with float targets; " + data.name() + " has labels");
    if (!needsLabels() && data.targetWidth() != outputs)
      throw new IllegalArgumentException(this + ": the model has " + outputs + " outputs but " + data.name() + " has " + data.targetWidth() + " targets per row");
  }

  /** Adds the per-row loss forward of the batch's outputs (B, width). {@code probs} (B, C) is used by softmax only. */
  void addForward(Wiring w, FloatArray outputs, Batch batch, FloatArray probs, FloatArray losses, int width) {
    String id = w.id("loss");
    int rows = batch.rows;
    switch (this) {
      case SOFTMAX_CROSS_ENTROPY -> w.graph().task(id, LossKernels::softmaxCrossEntropyForward, outputs, batch.labels, batch.index, probs, losses, rows, width);
      case BCE_WITH_LOGITS -> w.graph().task(id, LossKernels::bceForward, outputs, batch.targets, batch.index, losses, rows, width);
      case MSE -> w.graph().task(id, LossKernels::mseForward, outputs, batch.targets, batch.index, losses, rows, width);
    }
  }

  /** Adds the loss backward: the gradient of the batch's mean loss with respect to the outputs, into {@code doutputs}. */
  void addBackward(Wiring w, FloatArray outputs, Batch batch, FloatArray probs, FloatArray doutputs, int width) {
    String id = w.id("loss_backward");
    int rows = batch.rows;
    switch (this) {
      case SOFTMAX_CROSS_ENTROPY -> w.graph().task(id, LossKernels::softmaxCrossEntropyBackward, probs, batch.labels, batch.index, doutputs, rows, width);
      case BCE_WITH_LOGITS -> w.graph().task(id, LossKernels::bceBackward, outputs, batch.targets, batch.index, doutputs, rows, width);
      case MSE -> w.graph().task(id, LossKernels::mseBackward, outputs, batch.targets, batch.index, doutputs, rows, width);
    }
  }

  /** Adds the count of right predictions into {@code correct[0]}; only where {@link #hasAccuracy}. */
  void addCorrectCount(Wiring w, FloatArray outputs, Batch batch, IntArray correct, int width) {
    switch (this) {
      case SOFTMAX_CROSS_ENTROPY -> w.graph().task(w.id("correct"), LossKernels::countCorrect, outputs, batch.labels, batch.index, correct, batch.rows, width);
      case BCE_WITH_LOGITS -> w.graph().task(w.id("correct"), LossKernels::countCorrectBinary, outputs, batch.targets, batch.index, correct, batch.rows);
      case MSE -> throw new IllegalStateException("MSE has no accuracy");
    }
  }
}
