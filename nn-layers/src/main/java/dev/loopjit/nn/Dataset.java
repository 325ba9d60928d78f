// A dataset as flat off-heap arrays that a training step keeps on the device: features, plus labels or float targets.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Objects;

/**
 * {@code size} rows of {@code width} features ({@code features}: (N, F)), and for each row either
 * an integer class label ({@code labels}: (N), values in {@code [0, classes)}) or
 * {@code targetWidth} float targets ({@code targets}: (N, T)). The other of the two is null.
 *
 * <pre>{@code
 * Dataset.labelled("digits", pixels, 784, labels, 10);
 * Dataset.withTargets("toy", x, 20, y, 1);
 * }</pre>
 */
public record Dataset(String name, int size, FloatArray features, int width, IntArray labels, int classes, FloatArray targets,
    int targetWidth) {
  public Dataset {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(features, "features");
    if (width <= 0 || size <= 0 || (long) size * width != features.getSize())
      throw new IllegalArgumentException(name + ": " + features.getSize() + " features do not make " + size + " rows of " + width);
    if ((labels == null) == (targets == null)) throw new IllegalArgumentException(name + ": give either labels or targets");
    if (labels != null && labels.getSize() != size) throw new IllegalArgumentException(name + ": " + labels.getSize() + " labels for " + size + " rows");
    if (targets != null && (targetWidth <= 0 || (long) size * targetWidth != targets.getSize()))
      throw new IllegalArgumentException(name + ": " + targets.getSize() + " targets do not make " + size + " rows of " + targetWidth);
  }

  /** Rows of {@code width} features, each with a class label in {@code [0, classes)}. */
  public static Dataset labelled(String name, FloatArray features, int width, IntArray labels, int classes) {
    for (int i = 0; i < labels.getSize(); i++)
      if (labels.get(i) < 0 || labels.get(i) >= classes)
        throw new IllegalArgumentException(name + ": label " + labels.get(i) + " of row " + i + " is not in [0, " + classes + ")");
    return new Dataset(name, labels.getSize(), features, width, labels, classes, null, 0);
  }

  /** Rows of {@code width} features, each with {@code targetWidth} float targets. */
  public static Dataset withTargets(String name, FloatArray features, int width, FloatArray targets, int targetWidth) {
    return new Dataset(name, targets.getSize() / targetWidth, features, width, null, 0, targets, targetWidth);
  }

  /** A copy of rows {@code [from, from + count)}, named {@code name}. */
  public Dataset rows(String name, int from, int count) {
    if (from < 0 || count <= 0 || from + count > size)
      throw new IllegalArgumentException(this.name + ": rows [" + from + ", " + (from + count) + ") of " + size);
    FloatArray f = copy(features, from * width, count * width);
    if (labels != null) {
      IntArray l = new IntArray(count);
      for (int i = 0; i < count; i++) l.set(i, labels.get(from + i));
      return new Dataset(name, count, f, width, l, classes, null, 0);
    }
    return new Dataset(name, count, f, width, null, 0, copy(targets, from * targetWidth, count * targetWidth), targetWidth);
  }

  private static FloatArray copy(FloatArray a, int from, int count) {
    FloatArray c = new FloatArray(count);
    java.lang.foreign.MemorySegment.copy(a.getSegment(), (long) from * 4, c.getSegment(), 0, (long) count * 4);
    return c;
  }

  @Override
  public String toString() {
    return name + " (" + size + " rows of " + width + (labels != null ? ", " + classes + " classes)" : ", " + targetWidth + (targetWidth == 1 ? " target)" : " targets)"));
  }
}
