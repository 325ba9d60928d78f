// The small OpenCL C functions a kernel gets when it needs Java semantics that OpenCL's built-ins lack.
package dev.loopjit.backend.opencl;

/**
 * Helper functions, each emitted (in this enum's order, so output is stable) only when a kernel
 * uses it. Each gives the Java method named in its comment exactly, on every input.
 */
enum OpenClFunction {
  /** Math.pow: C's pow(1, NaN) and pow(-1, ±Infinity) are 1, Java's are NaN (y - y is that NaN). */
  POW_FLOAT("jpow_f", """
      // Math.pow: pow(x, NaN) and pow(+-1, +-Infinity) are NaN in Java, 1 in C.
      static inline float jpow_f(float x, float y) {
        return isnan(y) || (fabs(x) == 1.0f && isinf(y)) ? y - y : pow(x, y);
      }"""),
  POW_DOUBLE("jpow_d", """
      // Math.pow: pow(x, NaN) and pow(+-1, +-Infinity) are NaN in Java, 1 in C.
      static inline double jpow_d(double x, double y) {
        return isnan(y) || (fabs(x) == 1.0 && isinf(y)) ? y - y : pow(x, y);
      }"""),
  /** Integer.numberOfTrailingZeros (ctz is OpenCL 2.0): the bits below the lowest set one; 32 for 0. */
  CTZ_INT("jctz_i", """
      // Integer.numberOfTrailingZeros (ctz is OpenCL 2.0): 32 for 0.
      static inline int jctz_i(int x) {
        uint u = as_uint(x);
        return (int)popcount((u & (0u - u)) - 1u);
      }"""),
  CTZ_LONG("jctz_l", """
      // Long.numberOfTrailingZeros (ctz is OpenCL 2.0): 64 for 0.
      static inline int jctz_l(long x) {
        ulong u = as_ulong(x);
        return (int)popcount((u & (0uL - u)) - 1uL);
      }"""),
  /** Float.float16ToFloat(Float.floatToFloat16(x)): vstore_half rounds to nearest even. */
  HALF_ROUND("jhalf_f", """
      // Rounds to half precision (to nearest even, as Float.floatToFloat16) and back.
      static inline float jhalf_f(float x) {
        ushort h;
        vstore_half(x, 0, (__private half*)&h);
        return vload_half(0, (__private half*)&h);
      }"""),
  // KernelContext.atomicAdd on floats: OpenCL 1.2 has no float atomics, so compare-and-swap the
  // bits; comparing ints (not floats) ends the loop even when the value is NaN.
  ATOMIC_ADD_FLOAT_GLOBAL("jatomic_add_f_global", atomicAddFloat("__global")),
  ATOMIC_ADD_FLOAT_LOCAL("jatomic_add_f_local", atomicAddFloat("__local")),
  ATOMIC_ADD_DOUBLE_GLOBAL("jatomic_add_d_global", atomicAddDouble("__global")),
  ATOMIC_ADD_DOUBLE_LOCAL("jatomic_add_d_local", atomicAddDouble("__local"));

  /** The C name. */
  final String cName;
  /** The definition. */
  final String text;

  OpenClFunction(String cName, String text) {
    this.cName = cName;
    this.text = text;
  }

  private static String atomicAddFloat(String space) {
    return """
        // atomic float add as a compare-and-swap loop on the bits (OpenCL 1.2 has no float atomics).
        static inline float jatomic_add_f_SPACE(volatile __SPACE float* p, float v) {
          volatile __SPACE int* q = (volatile __SPACE int*)p;
          int seen = *q;
          int old;
          do {
            old = seen;
            seen = atomic_cmpxchg(q, old, as_int(as_float(old) + v));
          } while (seen != old);
          return as_float(old);
        }""".replace("__SPACE", space).replace("SPACE", space.substring(2));
  }

  private static String atomicAddDouble(String space) {
    return """
        // atomic double add as a compare-and-swap loop on the bits.
        static inline double jatomic_add_d_SPACE(volatile __SPACE double* p, double v) {
          volatile __SPACE long* q = (volatile __SPACE long*)p;
          long seen = *q;
          long old;
          do {
            old = seen;
            seen = atom_cmpxchg(q, old, as_long(as_double(old) + v));
          } while (seen != old);
          return as_double(old);
        }""".replace("__SPACE", space).replace("SPACE", space.substring(2));
  }

  /** Whether the definition uses 64-bit atomics. */
  boolean needsInt64Atomics() {
    return this == ATOMIC_ADD_DOUBLE_GLOBAL || this == ATOMIC_ADD_DOUBLE_LOCAL;
  }
}
