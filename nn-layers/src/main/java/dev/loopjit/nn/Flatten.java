// Flatten as a layer: (C, H, W) → (C·H·W). NCHW rows are already flat in memory, so it adds no task and shares its buffers.
package dev.loopjit.nn;

/** (C, H, W) → (C·H·W), any shape → (size). The batch's array is row-major already, so nothing moves. */
public record Flatten() implements Layer {
  static final int CODE = 8;

  @Override
  public String describe() {
    return "flatten";
  }

  @Override
  public Shape outputShape(Shape in) {
    return Shape.of(in.size());
  }

  @Override
  public boolean passesThrough(boolean training) {
    return true;
  }

  @Override
  public void addForward(LayerSite s) {}

  @Override
  public void addBackward(LayerSite s) {}

  @Override
  public int code() {
    return CODE;
  }
}
