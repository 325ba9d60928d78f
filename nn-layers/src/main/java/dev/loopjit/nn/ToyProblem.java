// The seeds' toy problem, generated in code: 1000 rows of 20 Gaussian features, a 0/1 label from a hidden linear rule plus noise.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import java.util.Random;

/**
 * The seeds' toy binary classification: {@code x ~ N(0, 1)^F}; {@code y = 1} when
 * {@code w·x/√F + 0.3·ε > 0} for a random teacher {@code w ~ N(0, 1)^F} and noise {@code ε ~ N(0, 1)}.
 * The noise makes a few labels contradict the rule, so no model reaches 100 %.
 * The model the seeds train on it: 20 → 50 → 1 (ReLU, then a sigmoid in the loss), BCE, SGD lr 0.01, batch 32.
 */
public final class ToyProblem {
  /** The seeds' sizes. */
  public static final int SAMPLES = 1000, FEATURES = 20, HIDDEN = 50, TRAIN = 800;

  private ToyProblem() {}

  /** {@code samples} rows of {@code features} features and one 0/1 target, determined by {@code seed}. */
  public static Dataset generate(int samples, int features, long seed) {
    Random r = new Random(seed);
    double[] teacher = new double[features];
    for (int j = 0; j < features; j++) teacher[j] = r.nextGaussian();
    FloatArray x = new FloatArray(samples * features), y = new FloatArray(samples);
    for (int i = 0; i < samples; i++) {
      double s = 0;
      for (int j = 0; j < features; j++) {
        float v = (float) r.nextGaussian();
        x.set(i * features + j, v);
        s += teacher[j] * v;
      }
      y.set(i, s / Math.sqrt(features) + 0.3 * r.nextGaussian() > 0 ? 1f : 0f);
    }
    return Dataset.withTargets("toy", x, features, y, 1);
  }

  /** The seeds' problem split into the first {@link #TRAIN} rows for training and the rest for testing. */
  public static Dataset[] trainAndTest(long seed) {
    Dataset all = generate(SAMPLES, FEATURES, seed);
    return new Dataset[] {all.rows("toy train", 0, TRAIN), all.rows("toy test", TRAIN, SAMPLES - TRAIN)};
  }

  /** The seeds' model: 20 → 50 → ReLU → 1. */
  public static Sequential model() {
    return Sequential.of(FEATURES, Layer.dense(HIDDEN), Layer.relu(), Layer.dense(1));
  }
}
