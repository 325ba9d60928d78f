// Dropout as a layer: a seeded mask drawn on the device in training, the identity at inference.
package dev.loopjit.nn;

import dev.loopjit.types.IntArray;

/**
 * In training, zeroes each element with probability {@code rate} and scales the others by
 * {@code 1 / (1 - rate)} ("inverted" dropout, so inference needs no scaling); at inference it
 * passes its input through ({@link DropoutKernels}). The mask comes from the training step's
 * seed, the layer's position and a step counter kept on the device: the same seed gives the
 * same masks on every device and in every run.
 */
public record Dropout(float rate) implements Layer {
  static final int CODE = 9;

  public Dropout {
    if (!(rate >= 0f && rate < 1f)) throw new IllegalArgumentException("dropout rate must be in [0, 1), not " + rate);
  }

  @Override
  public String describe() {
    return "dropout " + rate;
  }

  @Override
  public Shape outputShape(Shape in) {
    return in;
  }

  @Override
  public boolean passesThrough(boolean training) {
    return !training || rate == 0f;
  }

  /** The 24-bit threshold below which an element is dropped: {@code round(rate · 2²⁴)}. */
  int threshold() {
    return Math.round(rate * (1 << 24));
  }

  @Override
  public void addForward(LayerSite s) {
    int n = s.rows * s.in.size();
    IntArray step = s.ints("step", 1);
    s.graph().task(s.id("dropout_tick"), DropoutKernels::dropoutTick, step)
        .task(s.id("dropout"), DropoutKernels::dropoutForward, s.x, s.floats("mask", n), s.y, step, s.seed * 31 + s.index, threshold(),
            1f / (1f - rate), n);
  }

  @Override
  public void addBackward(LayerSite s) {
    if (!s.needsInputGradient()) return;
    int n = s.rows * s.in.size();
    s.graph().task(s.id("dropout_dx"), DropoutKernels::dropoutBackward, s.dy, s.floats("mask", n), s.dx, n);
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public int[] config() {
    return new int[] {Float.floatToIntBits(rate)};
  }

  static Dropout fromConfig(int[] c) {
    Layer.expect(c, 1, "dropout");
    return new Dropout(Float.intBitsToFloat(c[0]));
  }
}
