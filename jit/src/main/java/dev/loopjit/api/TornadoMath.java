// TornadoVM's TornadoMath under LoopJIT's API package: the same static methods, plain Java, so that kernels calling them compile on every device.
package dev.loopjit.api;

import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloat;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;

/**
 * The math helpers TornadoVM programs call ({@code uk.ac.manchester.tornado.api.math.TornadoMath}),
 * with the same names and signatures. Each is ordinary Java that kernels inline, so it means what
 * its body says on every device, the JVM included: {@code min}, {@code max} and {@code abs} are
 * {@link Math}'s (a NaN operand gives NaN; {@code -0.0f < 0.0f}), {@code clamp(v, lo, hi)} is
 * {@code max(lo, min(hi, v))}, the {@code float} functions are {@code Math}'s in double rounded once
 * to float. The array comparisons are for host code (tests), not kernels.
 */
public final class TornadoMath {
  private TornadoMath() {}

  public static float min(float a, float b) {
    return Math.min(a, b);
  }

  /** The smaller as {@code Math.min} of their floats picks it (a half's float is exact). */
  public static HalfFloat min(HalfFloat a, HalfFloat b) {
    return new HalfFloat(Math.min(a.getFloat32(), b.getFloat32()));
  }

  /** The larger as {@code Math.max} of their floats picks it. */
  public static HalfFloat max(HalfFloat a, HalfFloat b) {
    return new HalfFloat(Math.max(a.getFloat32(), b.getFloat32()));
  }

  public static double min(double a, double b) {
    return Math.min(a, b);
  }

  public static long min(long a, long b) {
    return Math.min(a, b);
  }

  public static int min(int a, int b) {
    return Math.min(a, b);
  }

  public static short min(short a, short b) {
    return (short) Math.min(a, b);
  }

  public static byte min(byte a, byte b) {
    return (byte) Math.min(a, b);
  }

  public static float max(float a, float b) {
    return Math.max(a, b);
  }

  public static double max(double a, double b) {
    return Math.max(a, b);
  }

  public static long max(long a, long b) {
    return Math.max(a, b);
  }

  public static int max(int a, int b) {
    return Math.max(a, b);
  }

  public static short max(short a, short b) {
    return (short) Math.max(a, b);
  }

  public static byte max(byte a, byte b) {
    return (byte) Math.max(a, b);
  }

  public static float abs(float a) {
    return Math.abs(a);
  }

  public static double abs(double a) {
    return Math.abs(a);
  }

  public static long abs(long a) {
    return Math.abs(a);
  }

  public static int abs(int a) {
    return Math.abs(a);
  }

  /** {@code |a|} narrowed back to short ({@code Short.MIN_VALUE} stays itself). */
  public static short abs(short a) {
    return (short) Math.abs(a);
  }

  /** {@code |a|} narrowed back to byte ({@code Byte.MIN_VALUE} stays itself). */
  public static byte abs(byte a) {
    return (byte) Math.abs(a);
  }

  public static float clamp(float value, float lo, float hi) {
    return Math.max(lo, Math.min(hi, value));
  }

  public static double clamp(double value, double lo, double hi) {
    return Math.max(lo, Math.min(hi, value));
  }

  public static long clamp(long value, long lo, long hi) {
    return Math.max(lo, Math.min(hi, value));
  }

  public static int clamp(int value, int lo, int hi) {
    return Math.max(lo, Math.min(hi, value));
  }

  public static short clamp(short value, short lo, short hi) {
    return (short) Math.max(lo, Math.min(hi, value));
  }

  public static byte clamp(byte value, byte lo, byte hi) {
    return (byte) Math.max(lo, Math.min(hi, value));
  }

  public static float sqrt(float v) {
    return (float) Math.sqrt(v);
  }

  public static double sqrt(double v) {
    return Math.sqrt(v);
  }

  public static float exp(float v) {
    return (float) Math.exp(v);
  }

  public static double exp(double v) {
    return Math.exp(v);
  }

  public static float log(float v) {
    return (float) Math.log(v);
  }

  public static double log(double v) {
    return Math.log(v);
  }

  /** {@code ln(v) / ln(2)}, in double, rounded once. */
  public static float log2(float v) {
    return (float) (Math.log(v) / Math.log(2.0));
  }

  public static double log2(double v) {
    return Math.log(v) / Math.log(2.0);
  }

  public static float pow(float a, float b) {
    return (float) Math.pow(a, b);
  }

  public static double pow(double a, double b) {
    return Math.pow(a, b);
  }

  public static float floor(float v) {
    return (float) Math.floor(v);
  }

  public static double floor(double v) {
    return Math.floor(v);
  }

  public static float ceil(float v) {
    return (float) Math.ceil(v);
  }

  public static double ceil(double v) {
    return Math.ceil(v);
  }

  /** {@code cos} of each element. */
  public static dev.loopjit.types.Float2 cos(dev.loopjit.types.Float2 f) {
    return new dev.loopjit.types.Float2(cos(f.getX()), cos(f.getY()));
  }

  /** {@code cos} of each element. */
  public static dev.loopjit.types.Float4 cos(dev.loopjit.types.Float4 f) {
    return new dev.loopjit.types.Float4(cos(f.getX()), cos(f.getY()), cos(f.getZ()), cos(f.getW()));
  }

  /** {@code cos} of each element. */
  public static dev.loopjit.types.Float8 cos(dev.loopjit.types.Float8 f) {
    return new dev.loopjit.types.Float8(cos(f.getS0()), cos(f.getS1()), cos(f.getS2()), cos(f.getS3()), cos(f.getS4()), cos(f.getS5()), cos(f.getS6()), cos(f.getS7()));
  }

  /** {@code cos} of each element. */
  public static dev.loopjit.types.Float16 cos(dev.loopjit.types.Float16 f) {
    return new dev.loopjit.types.Float16(cos(f.getS0()), cos(f.getS1()), cos(f.getS2()), cos(f.getS3()), cos(f.getS4()), cos(f.getS5()), cos(f.getS6()), cos(f.getS7()), cos(f.getS8()), cos(f.getS9()), cos(f.getS10()), cos(f.getS11()), cos(f.getS12()), cos(f.getS13()), cos(f.getS14()), cos(f.getS15()));
  }

  /** {@code sin} of each element. */
  public static dev.loopjit.types.Float2 sin(dev.loopjit.types.Float2 f) {
    return new dev.loopjit.types.Float2(sin(f.getX()), sin(f.getY()));
  }

  /** {@code sin} of each element. */
  public static dev.loopjit.types.Float4 sin(dev.loopjit.types.Float4 f) {
    return new dev.loopjit.types.Float4(sin(f.getX()), sin(f.getY()), sin(f.getZ()), sin(f.getW()));
  }

  /** {@code sin} of each element. */
  public static dev.loopjit.types.Float8 sin(dev.loopjit.types.Float8 f) {
    return new dev.loopjit.types.Float8(sin(f.getS0()), sin(f.getS1()), sin(f.getS2()), sin(f.getS3()), sin(f.getS4()), sin(f.getS5()), sin(f.getS6()), sin(f.getS7()));
  }

  /** {@code sin} of each element. */
  public static dev.loopjit.types.Float16 sin(dev.loopjit.types.Float16 f) {
    return new dev.loopjit.types.Float16(sin(f.getS0()), sin(f.getS1()), sin(f.getS2()), sin(f.getS3()), sin(f.getS4()), sin(f.getS5()), sin(f.getS6()), sin(f.getS7()), sin(f.getS8()), sin(f.getS9()), sin(f.getS10()), sin(f.getS11()), sin(f.getS12()), sin(f.getS13()), sin(f.getS14()), sin(f.getS15()));
  }

  /** {@code m}'s rotation (its upper-left 3 × 3) applied to {@code x}: the dot product of each of its first three rows with {@code x}. */
  public static dev.loopjit.types.Float3 rotate(dev.loopjit.types.Matrix4x4Float m, dev.loopjit.types.Float3 x) {
    return new dev.loopjit.types.Float3(dev.loopjit.types.Float3.dot(m.row(0).asFloat3(), x), dev.loopjit.types.Float3.dot(m.row(1).asFloat3(), x),
        dev.loopjit.types.Float3.dot(m.row(2).asFloat3(), x));
  }

  /** {@code v - floor(v)}. */
  public static float fract(float v) {
    return v - floor(v);
  }

  /** {@code v - floor(v)}. */
  public static double fract(double v) {
    return v - floor(v);
  }

  public static float signum(float v) {
    return Math.signum(v);
  }

  public static double signum(double v) {
    return Math.signum(v);
  }

  public static float sin(float angle) {
    return (float) Math.sin(angle);
  }

  public static double sin(double angle) {
    return Math.sin(angle);
  }

  public static float cos(float angle) {
    return (float) Math.cos(angle);
  }

  public static double cos(double angle) {
    return Math.cos(angle);
  }

  public static float tan(float angle) {
    return (float) Math.tan(angle);
  }

  public static float tanh(float v) {
    return (float) Math.tanh(v);
  }

  public static float atan(float v) {
    return (float) Math.atan(v);
  }

  public static float atan2(float y, float x) {
    return (float) Math.atan2(y, x);
  }

  public static float asin(float v) {
    return (float) Math.asin(v);
  }

  public static double asin(double v) {
    return Math.asin(v);
  }

  public static float acos(float v) {
    return (float) Math.acos(v);
  }

  public static double acos(double v) {
    return Math.acos(v);
  }

  /** {@code sin(π · angle)}, the product in double. */
  public static float sinpi(float angle) {
    return (float) Math.sin(angle * Math.PI);
  }

  public static double sinpi(double angle) {
    return Math.sin(angle * Math.PI);
  }

  /** {@code cos(π · angle)}, the product in double. */
  public static float cospi(float angle) {
    return (float) Math.cos(angle * Math.PI);
  }

  public static double cospi(double angle) {
    return Math.cos(angle * Math.PI);
  }

  public static float toRadians(float degrees) {
    return (float) Math.toRadians(degrees);
  }

  public static double toRadians(double degrees) {
    return Math.toRadians(degrees);
  }

  public static double tan(double angle) {
    return Math.tan(angle);
  }

  public static double tanh(double v) {
    return Math.tanh(v);
  }

  public static double atan(double v) {
    return Math.atan(v);
  }

  public static double atan2(double y, double x) {
    return Math.atan2(y, x);
  }

  /** The inverse hyperbolic cosine, {@code log(v + sqrt(v·v − 1))}, in double. */
  public static double acosh(double v) {
    return Math.log(v + Math.sqrt(v * v - 1));
  }

  /** {@link #acosh(double)} of the float, rounded to float. */
  public static float acosh(float v) {
    return (float) acosh((double) v);
  }

  /** The inverse hyperbolic sine, {@code log(v + sqrt(v·v + 1))}, in double. */
  public static double asinh(double v) {
    return Math.log(v + Math.sqrt(v * v + 1));
  }

  /** {@link #asinh(double)} of the float, rounded to float. */
  public static float asinh(float v) {
    return (float) asinh((double) v);
  }

  /** π as a float. */
  public static float floatPI() {
    return (float) Math.PI;
  }

  /** π. */
  public static double PI() {
    return Math.PI;
  }

  // ---- host code: array comparisons, as TornadoVM's tests use them ----

  /** Every element the same bits (so NaN equals NaN, 0.0 differs from -0.0), over the first array's length. */
  public static boolean isEqual(float[] a, float[] b) {
    for (int i = 0; i < a.length; i++)
      if (Float.floatToIntBits(a[i]) != Float.floatToIntBits(b[i])) return false;
    return true;
  }

  public static boolean isEqual(double[] a, double[] b) {
    for (int i = 0; i < a.length; i++)
      if (Double.doubleToLongBits(a[i]) != Double.doubleToLongBits(b[i])) return false;
    return true;
  }

  public static boolean isEqual(int[] a, int[] b) {
    for (int i = 0; i < a.length; i++)
      if (a[i] != b[i]) return false;
    return true;
  }

  public static boolean isEqual(short[] a, short[] b) {
    for (int i = 0; i < a.length; i++)
      if (a[i] != b[i]) return false;
    return true;
  }

  public static boolean isEqual(byte[] a, byte[] b) {
    for (int i = 0; i < a.length; i++)
      if (a[i] != b[i]) return false;
    return true;
  }

  public static boolean isEqual(FloatArray a, FloatArray b) {
    return isEqual(a.toArray(), b.toArray());
  }

  public static boolean isEqual(DoubleArray a, DoubleArray b) {
    return isEqual(a.toArray(), b.toArray());
  }

  public static boolean isEqual(IntArray a, IntArray b) {
    return isEqual(a.toArray(), b.toArray());
  }

  /** The halves compared as the floats they hold. */
  public static boolean isEqual(HalfFloatArray a, HalfFloatArray b) {
    for (int i = 0; i < a.getSize(); i++)
      if (Float.floatToIntBits(a.getFloat(i)) != Float.floatToIntBits(b.getFloat(i))) return false;
    return true;
  }

  /** Every {@code |a - b| ≤ tolerance}. */
  public static boolean isEqualTol(float[] a, float[] b, float tolerance) {
    for (int i = 0; i < a.length; i++)
      if (!(Math.abs(a[i] - b[i]) <= tolerance)) return false;
    return true;
  }

  /** Every value within {@code ulps} units in the last place of the expected one. */
  public static boolean isEqualULP(float[] value, float[] expected, float ulps) {
    for (int i = 0; i < value.length; i++)
      if (!(Math.abs(value[i] - expected[i]) <= ulps * Math.ulp(expected[i]))) return false;
    return true;
  }

  public static boolean isEqualULP(double[] value, double[] expected, double ulps) {
    for (int i = 0; i < value.length; i++)
      if (!(Math.abs(value[i] - expected[i]) <= ulps * Math.ulp(expected[i]))) return false;
    return true;
  }

  /** The largest distance, in units in the last place of the expected values. */
  public static float findULPDistance(float[] value, float[] expected) {
    float worst = 0f;
    for (int i = 0; i < value.length; i++) worst = Math.max(worst, Math.abs(value[i] - expected[i]) / Math.ulp(expected[i]));
    return worst;
  }

  public static double findULPDistance(double[] value, double[] expected) {
    double worst = 0;
    for (int i = 0; i < value.length; i++) worst = Math.max(worst, Math.abs(value[i] - expected[i]) / Math.ulp(expected[i]));
    return worst;
  }

  public static float findULPDistance(FloatArray value, FloatArray expected) {
    return findULPDistance(value.toArray(), expected.toArray());
  }

  public static double findULPDistance(DoubleArray value, DoubleArray expected) {
    return findULPDistance(value.toArray(), expected.toArray());
  }

  /** Each pair's differing bits, as binary, separated by spaces. */
  public static String bitDiff(float[] a, float[] b) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < a.length; i++) s.append(Integer.toBinaryString(Float.floatToIntBits(a[i]) ^ Float.floatToIntBits(b[i]))).append(' ');
    return s.toString();
  }
}
