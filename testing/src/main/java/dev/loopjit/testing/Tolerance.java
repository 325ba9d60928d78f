// How close a device's floating-point result must be to the jvm's: exact bits, a number of ULPs, or a relative error.
// Integer, char and boolean results are always compared exactly; a Tolerance only loosens float, double and half.
package dev.loopjit.testing;

/**
 * The accepted difference between the jvm's value (expected) and a device's (actual) for
 * floating-point elements. Rules, in this order:
 * <ol>
 * <li>two NaNs agree (whatever their payloads); a NaN and a number never do;
 * <li>equal bits agree ({@code Float.floatToIntBits}: all NaNs alike, but {@code -0.0 != 0.0});
 * <li>an infinity agrees only with the same infinity;
 * <li>otherwise the values agree when they are at most {@link #ulps()} units in the last place
 *     apart (counted across zero, so {@code -MIN_VALUE} is 2 ULPs from {@code MIN_VALUE} and
 *     {@code -0.0} is 0 ULPs from {@code 0.0}), or when {@code |a - b| <= relative * max(|a|, |b|)},
 *     or when {@code |a - b| <= absolute}.
 * </ol>
 * {@link #EXACT} allows only rules 1 and 2: use it for {@code + - * /}, {@code %}, sqrt, conversions,
 * min/max/abs, floor/ceil/rint and every integer result, where Java defines one answer.
 *
 * <pre>{@code
 * Tolerance.EXACT              // saxpy without FMA contraction
 * Tolerance.ulps(2)            // (float) Math.exp(x): double result rounded to float
 * Tolerance.relative(1e-5)     // a float sum whose order differs on the device
 * }</pre>
 *
 * @param ulps     units in the last place allowed (0: none)
 * @param relative relative error allowed (0: none)
 * @param absolute absolute error allowed, for results near zero (0: none)
 */
public record Tolerance(long ulps, double relative, double absolute) {
  /** Bit-for-bit (NaNs alike, signed zeros distinct). */
  public static final Tolerance EXACT = new Tolerance(0, 0, 0);

  public Tolerance {
    if (ulps < 0 || !(relative >= 0) || !(absolute >= 0))
      throw new IllegalArgumentException("tolerances must be >= 0: " + ulps + " ulp, " + relative + ", " + absolute);
  }

  /** At most {@code n} units in the last place apart. */
  public static Tolerance ulps(long n) {
    return new Tolerance(n, 0, 0);
  }

  /** At most {@code relative * max(|a|, |b|)} apart. */
  public static Tolerance relative(double relative) {
    return new Tolerance(0, relative, 0);
  }

  /** At most {@code relative * max(|a|, |b|)} or {@code absolute} apart, whichever is larger. */
  public static Tolerance relative(double relative, double absolute) {
    return new Tolerance(0, relative, absolute);
  }

  /** Whether only bit-equal values (and NaN with NaN) agree. */
  public boolean isExact() {
    return ulps == 0 && relative == 0 && absolute == 0;
  }

  /** Whether {@code actual} is close enough to {@code expected}. */
  public boolean accepts(float expected, float actual) {
    if (Float.isNaN(expected) || Float.isNaN(actual)) return Float.isNaN(expected) && Float.isNaN(actual);
    if (Float.floatToIntBits(expected) == Float.floatToIntBits(actual)) return true;
    if (Float.isInfinite(expected) || Float.isInfinite(actual)) return false;
    return ulps > 0 && ulpDistance(expected, actual) <= ulps || close(expected, actual);
  }

  /** Whether {@code actual} is close enough to {@code expected}. */
  public boolean accepts(double expected, double actual) {
    if (Double.isNaN(expected) || Double.isNaN(actual)) return Double.isNaN(expected) && Double.isNaN(actual);
    if (Double.doubleToLongBits(expected) == Double.doubleToLongBits(actual)) return true;
    if (Double.isInfinite(expected) || Double.isInfinite(actual)) return false;
    return ulps > 0 && ulpDistance(expected, actual) <= ulps || close(expected, actual);
  }

  /** Whether two IEEE binary16 values (raw bits) agree; ULPs count half-precision steps. */
  public boolean acceptsHalf(short expectedBits, short actualBits) {
    float e = Float.float16ToFloat(expectedBits), a = Float.float16ToFloat(actualBits);
    if (Float.isNaN(e) || Float.isNaN(a)) return Float.isNaN(e) && Float.isNaN(a);
    if (expectedBits == actualBits) return true;
    if (Float.isInfinite(e) || Float.isInfinite(a)) return false;
    return ulps > 0 && ulpDistanceHalf(expectedBits, actualBits) <= ulps || close(e, a);
  }

  private boolean close(double e, double a) {
    double diff = Math.abs(e - a);
    return relative > 0 && diff <= relative * Math.max(Math.abs(e), Math.abs(a)) || absolute > 0 && diff <= absolute;
  }

  /**
   * How many representable floats lie between {@code a} and {@code b} (0 for {@code 0.0} and
   * {@code -0.0}); {@code Long.MAX_VALUE} when exactly one is NaN, 0 when both are.
   */
  public static long ulpDistance(float a, float b) {
    if (Float.isNaN(a) || Float.isNaN(b)) return Float.isNaN(a) && Float.isNaN(b) ? 0 : Long.MAX_VALUE;
    return Math.abs(ordered(Float.floatToRawIntBits(a)) - ordered(Float.floatToRawIntBits(b)));
  }

  /** As {@link #ulpDistance(float, float)} for doubles; saturates at {@code Long.MAX_VALUE}. */
  public static long ulpDistance(double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b)) return Double.isNaN(a) && Double.isNaN(b) ? 0 : Long.MAX_VALUE;
    long x = ordered(Double.doubleToRawLongBits(a)), y = ordered(Double.doubleToRawLongBits(b));
    long d = x - y;
    if (((x ^ y) & (x ^ d)) < 0) return Long.MAX_VALUE; // the subtraction overflowed: they are ~2^63 apart
    return Math.abs(d);
  }

  /** As {@link #ulpDistance(float, float)} for IEEE binary16 values given as raw bits. */
  public static long ulpDistanceHalf(short a, short b) {
    boolean nanA = Float.isNaN(Float.float16ToFloat(a)), nanB = Float.isNaN(Float.float16ToFloat(b));
    if (nanA || nanB) return nanA && nanB ? 0 : Long.MAX_VALUE;
    return Math.abs(orderedHalf(a) - orderedHalf(b));
  }

  // Sign-magnitude bits to a line of integers where neighbouring values differ by one; both zeros map to 0.
  private static long ordered(int bits) {
    return bits < 0 ? -(long) (bits & 0x7fffffff) : bits;
  }

  private static long ordered(long bits) {
    return bits < 0 ? -(bits & Long.MAX_VALUE) : bits;
  }

  private static long orderedHalf(short bits) {
    return bits < 0 ? -(long) (bits & 0x7fff) : bits;
  }

  @Override
  public String toString() {
    if (isExact()) return "exact";
    StringBuilder b = new StringBuilder();
    if (ulps > 0) b.append(ulps).append(" ulp");
    if (relative > 0) b.append(b.isEmpty() ? "" : " or ").append("relative ").append(relative);
    if (absolute > 0) b.append(b.isEmpty() ? "" : " or ").append("absolute ").append(absolute);
    return b.toString();
  }
}
