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
  // atomicAdd(array, index, value) -> old value; array of INT, LONG, FLOAT or DOUBLE.
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
  DIV_UNCHECKED, REM_UNCHECKED,
  /**
   * (a, b) -> a + b on INT where the compiler has shown the sum never overflows — a lane's index
   * {@code index(x) + lane} whose every value is an index Java computes anyway ({@code coarsen}), so
   * that a device compiler may treat it as a signed addition and find neighbouring lanes' elements
   * side by side. Java's {@code +} (which wraps) gives the same value.
   */
  ADD_NO_WRAP,
  /**
   * (a, b) -> a * b on INT where the compiler has shown the product never overflows (a counted
   * loop's {@code q·c} in the copy the bounds pass runs unchecked, whose ends it tested at run time:
   * {@code LoopVersions}). Java's {@code *} (which wraps) gives the same value.
   */
  MUL_NO_WRAP,
  /**
   * LOAD_TRANSPOSED(tile, array, index_0, …, index_{W-1}) -> no value: W rows of {@code array},
   * each a run of B neighbouring elements, kept by columns in the private array {@code tile}:
   * {@code tile[t·W + q] = array[index_q + t]} for every lane {@code q < W} and {@code t < B =
   * tile.length / W}. The {@code coarsen} pass writes it for a loop whose lanes read along rows of
   * memory side by side (matrix-vector, dense), for the elements the loop's next B iterations read
   * anyway; OpenCL C reads each row as one vector and transposes them in registers, other emitters
   * read element by element ({@link TransposedLoad#asStores}).
   */
  LOAD_TRANSPOSED,
  /**
   * SHAPE(collection, dim) -> INT: extent {@code dim} (0: rows, 1: columns) of a 2-D collection
   * parameter ({@code Matrix2DFloat.getNumRows/getNumColumns}); the {@code arguments} pass turns it
   * into a {@link KernelArg.Computed} argument, so no emitter sees it.
   */
  SHAPE,
  /**
   * SIMD_SHUFFLE(value, lane, members) -> value's type (INT, LONG, FLOAT, DOUBLE): {@code value} as
   * the work-item {@code lane} of the caller's sub-group computed it ({@code KernelContext.simdShuffle});
   * {@code lane} is within the sub-group and {@code members} the INT bit mask of its lanes. A
   * sub-group is 32 consecutive work-items of the work-group in linear order (x fastest), the last
   * one shorter when the group is not a multiple of 32. Every work-item of the work-group calls it
   * together. PTX emits it as {@code shfl.sync}; targets without a 32-wide sub-group shuffle get an
   * exchange through work-group memory instead (the {@code simd} pass writes it).
   */
  SIMD_SHUFFLE,
  /** SIMD_SUM(value) -> the sum over the caller's sub-group, lane 0 first, each lane added in order (Java's + of the type). */
  SIMD_SUM,
  /** SIMD_MAX(value) -> {@code Math.max} over the caller's sub-group, folded from lane 0 in order. */
  SIMD_MAX,
  /**
   * PRINTF(format..., values...) -> no value: {@code Debug.printf}. The arguments are the format's
   * length and its characters as INT constants, then the values ({@link PrintFormat} reads them).
   */
  PRINTF,
  /**
   * THROW(which) -> no value: the work-item throws Java's {@code ArithmeticException} with message
   * number {@code which} (an INT constant, {@code compiler.ExactMath.message}) — a {@code Math.*Exact}
   * that overflowed. THROW(which, value): a JDK call given a value no kernel answers
   * ({@code compiler.CharacterCalls}: {@code Character.isLetter} above U+00FF), the value reported
   * in place of an index. The {@code bounds} pass writes it as a report of its own site (as an index
   * out of range), so only the JVM's emitter sees it, and makes it throw.
   */
  THROW;

  /** Whether this is a work-group barrier ({@code localBarrier} or {@code globalBarrier}). */
  public boolean isBarrier() {
    return this == BARRIER_LOCAL || this == BARRIER_GLOBAL;
  }

  /** Whether a call has an effect besides its value (so it may not be removed or reordered). */
  public boolean hasEffect() {
    return this == BARRIER_LOCAL || this == BARRIER_GLOBAL || this == ATOMIC_ADD || this == ATOMIC_CAS
        || this == SIMD_SHUFFLE || this == SIMD_SUM || this == SIMD_MAX || this == PRINTF || this == LOAD_TRANSPOSED || this == THROW;
  }
}
