// Float helpers TornadoVM's programs use (formats, comparisons in ULPs, sq), as its FloatOps: host code, and sq in kernels.
package dev.loopjit.types;

/** Formats and comparisons of floats, as TornadoVM's {@code FloatOps}; {@link #sq} compiles in kernels too. */
public final class FloatOps {
  private FloatOps() {}

  public static final float EPSILON = 1e-7f;
  public static final String FMT = "%.3f";
  public static final String FMT_2 = "{%.3f,%.3f}";
  public static final String FMT_3 = "{%.3f,%.3f,%.3f}";
  public static final String FMT_3_E = "{%.4e,%.4e,%.4e}";
  public static final String FMT_4 = "{%.3f,%.3f,%.3f,%.3f}";
  public static final String FMT_4_M = "%.3f,%.3f,%.3f,%.3f";
  public static final String FMT_4_EM = "%.3e,%.3e,%.3e,%.3e";
  public static final String FMT_6 = "{%.3f,%.3f,%.3f,%.3f,%.3f,%.3f}";
  public static final String FMT_6_E = "{%e,%e,%e,%e,%e,%e}";
  public static final String FMT_8 = "{" + String.join(",", java.util.Collections.nCopies(8, "%.3f")) + "}";
  public static final String FMT_16 = "{" + String.join(",", java.util.Collections.nCopies(16, "%.3f")) + "}";

  /** Whether {@code a} and {@code b} have the same bits. */
  public static boolean compareBits(float a, float b) {
    return Float.floatToRawIntBits(a) == Float.floatToRawIntBits(b);
  }

  /** Whether {@code value} is within {@code ulps} units in the last place of {@code expected}. */
  public static boolean compareULP(float value, float expected, float ulps) {
    return findMaxULP(value, expected) <= ulps;
  }

  /** {@code |value - expected|} in units in the last place of {@code expected}. */
  public static float findMaxULP(float value, float expected) {
    return Math.abs(value - expected) / Math.ulp(expected);
  }

  public static float findMaxULP(Float2 value, Float2 expected) {
    return maxUlp(value.toArray(), expected.toArray());
  }

  public static float findMaxULP(Float3 value, Float3 expected) {
    return maxUlp(value.toArray(), expected.toArray());
  }

  public static float findMaxULP(Float4 value, Float4 expected) {
    return maxUlp(value.toArray(), expected.toArray());
  }

  public static float findMaxULP(Float8 value, Float8 expected) {
    return maxUlp(value.toArray(), expected.toArray());
  }

  public static float findMaxULP(FloatArray value, FloatArray expected) {
    return maxUlp(value.toArray(), expected.toArray());
  }

  private static float maxUlp(float[] value, float[] expected) {
    if (value.length != expected.length) throw new IllegalArgumentException(value.length + " values against " + expected.length + " expected");
    float max = 0f;
    for (int i = 0; i < value.length; i++) max = Math.max(max, findMaxULP(value[i], expected[i]));
    return max;
  }

  /** Whether {@code a} and {@code b} differ by at most {@link #EPSILON}. */
  public static boolean compare(float a, float b) {
    return compare(a, b, EPSILON);
  }

  /** Whether {@code a} and {@code b} differ by at most {@code tolerance}. */
  public static boolean compare(float a, float b, float tolerance) {
    return Math.abs(a - b) <= tolerance;
  }

  /** {@code value * value}. */
  public static float sq(float value) {
    return value * value;
  }

  /** {@code array[index] += value} (on the host; kernels write {@code @Reduce} or {@code KernelContext.atomicAdd}). */
  public static void atomicAdd(float[] array, int index, float value) {
    array[index] += value;
  }
}
