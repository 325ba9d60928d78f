// The device built-ins the IR may call; every one has a Java method that defines what it means.
package dev.loopjit.ir;

/**
 * Built-in operations. Each names the Java method whose result it must equal (within the
 * accuracy that method's Javadoc allows), so that the {@code jvm} backend is the reference.
 * {@code args} types are listed in the comment; the result type is the {@code Call}'s type.
 */
public enum Intrinsic {
  // Work-item geometry (arg: INT constant dimension 0..2), result INT.
  GLOBAL_ID, LOCAL_ID, GROUP_ID, GLOBAL_SIZE, LOCAL_SIZE,
  // Synchronisation (no args, no result): KernelContext.localBarrier / globalBarrier.
  BARRIER_LOCAL, BARRIER_GLOBAL,
  // atomicAdd(array, index, value) -> old value; array of INT, LONG or FLOAT.
  ATOMIC_ADD,
  /**
   * atomicCompareAndSet(array, index, expected, value) -> old value: stores value if the element's
   * bits equal expected's (floats compare by bits); INT, LONG, FLOAT or DOUBLE arrays. The combine
   * step of reductions is built from it.
   */
  ATOMIC_CAS,
  // java.lang.Math on FLOAT or DOUBLE (FLOAT only in fast-math or for Math's float overloads).
  SQRT, CBRT, EXP, EXPM1, LOG, LOG10, LOG1P, POW, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2,
  SINH, COSH, TANH, HYPOT, FLOOR, CEIL, RINT,
  /** Math.fma: fused, one rounding. */
  FMA,
  // Math.abs / min / max on INT, LONG, FLOAT, DOUBLE: Java's NaN and signed-zero rules.
  ABS, MIN, MAX,
  // Float.floatToRawIntBits, Float.intBitsToFloat, Double.doubleToRawLongBits, Double.longBitsToDouble.
  FLOAT_BITS, BITS_FLOAT, DOUBLE_BITS, BITS_DOUBLE,
  // Integer/Long.bitCount, numberOfLeadingZeros, numberOfTrailingZeros: INT result.
  POPCOUNT, CLZ, CTZ,
  /**
   * (a, b) -> a / b and a % b on INT or LONG, truncating, for divisors other than 0 and -1, where
   * every device's division is Java's; the {@code legalise} pass makes Java's {@code /} and {@code %}
   * of them (and nothing else may), so emitters give the device's own division.
   */
  DIV_UNCHECKED, REM_UNCHECKED;

  /** Whether a call has an effect besides its value (so it may not be removed or reordered). */
  public boolean hasEffect() {
    return this == BARRIER_LOCAL || this == BARRIER_GLOBAL || this == ATOMIC_ADD || this == ATOMIC_CAS;
  }
}
