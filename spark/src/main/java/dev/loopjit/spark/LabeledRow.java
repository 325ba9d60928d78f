// One training record of an RDD: a row of features (an image's pixels, flattened) and its class.
package dev.loopjit.spark;

import java.io.Serializable;

/**
 * A labelled row, the element of the RDDs that {@link SparkTrainer} trains on: {@code features}
 * laid out as the model's input (an image as channels × height × width, row-major) and
 * {@code label} in {@code [0, classes)}.
 */
public record LabeledRow(float[] features, int label) implements Serializable {
  public LabeledRow {
    if (features == null) throw new IllegalArgumentException("a row needs features, not null");
  }
}
