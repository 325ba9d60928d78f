// What a model says about a batch: its raw outputs per row, the class each row scores highest, and softmax probabilities.
package dev.loopjit.nn;

/**
 * A model's outputs for {@code rows} rows: {@code scores} is (rows, outputs) row-major — the logits
 * of a classifier.
 */
public record Predictions(int rows, int outputs, float[] scores) {
  public Predictions {
    if (scores.length != rows * outputs) throw new IllegalArgumentException(scores.length + " scores for " + rows + " × " + outputs);
  }

  /** The highest-scoring output of row {@code r} (the first, on ties): the predicted class. */
  public int label(int r) {
    int best = 0;
    for (int c = 1; c < outputs; c++) if (scores[r * outputs + c] > scores[r * outputs + best]) best = c;
    return best;
  }

  /** The predicted class of every row. */
  public int[] labels() {
    int[] l = new int[rows];
    for (int r = 0; r < rows; r++) l[r] = label(r);
    return l;
  }

  /** Row {@code r}'s softmax probabilities (in double, stable: the row's maximum is subtracted first). */
  public double[] probabilities(int r) {
    double max = Double.NEGATIVE_INFINITY, sum = 0;
    for (int c = 0; c < outputs; c++) max = Math.max(max, scores[r * outputs + c]);
    double[] p = new double[outputs];
    for (int c = 0; c < outputs; c++) sum += p[c] = Math.exp(scores[r * outputs + c] - max);
    for (int c = 0; c < outputs; c++) p[c] /= sum;
    return p;
  }
}
