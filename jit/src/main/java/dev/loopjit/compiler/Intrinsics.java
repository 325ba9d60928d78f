// Which JDK static methods are device built-ins: Math functions, bit conversions, bit counts.
package dev.loopjit.compiler;

import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Prim;
import java.util.HashMap;
import java.util.Map;

/**
 * The table from JDK static methods to {@link Intrinsic}s. Everything else a kernel calls is
 * inlined from its bytecode (user methods, and pure JDK methods such as {@code Math.floorMod} or
 * {@code Integer.rotateLeft}). {@code StrictMath} maps only its exact functions here; its others
 * (sin, exp, …) are inlined from the JDK's own Java code, which keeps them bit-exact.
 */
final class Intrinsics {
  /** What a method maps to: the intrinsic and its result type. */
  record Mapping(Intrinsic op, Prim result) {}

  private static final Map<String, Mapping> TABLE = new HashMap<>();

  static {
    for (String owner : new String[] {"java/lang/Math", "java/lang/StrictMath"}) {
      boolean strict = owner.endsWith("StrictMath");
      for (Intrinsic op : new Intrinsic[] {Intrinsic.SQRT, Intrinsic.FLOOR, Intrinsic.CEIL, Intrinsic.RINT})
        put(owner, op.name().toLowerCase(), "(D)D", op, Prim.DOUBLE);
      put(owner, "fma", "(DDD)D", Intrinsic.FMA, Prim.DOUBLE);
      put(owner, "fma", "(FFF)F", Intrinsic.FMA, Prim.FLOAT);
      for (String m : new String[] {"abs", "min", "max"}) {
        Intrinsic op = Intrinsic.valueOf(m.toUpperCase());
        String args = m.equals("abs") ? "" : "X";
        put(owner, m, "(I" + args.replace("X", "I") + ")I", op, Prim.INT);
        put(owner, m, "(J" + args.replace("X", "J") + ")J", op, Prim.LONG);
        put(owner, m, "(F" + args.replace("X", "F") + ")F", op, Prim.FLOAT);
        put(owner, m, "(D" + args.replace("X", "D") + ")D", op, Prim.DOUBLE);
      }
      if (strict) continue;
      for (Intrinsic op : new Intrinsic[] {Intrinsic.CBRT, Intrinsic.EXP, Intrinsic.EXPM1, Intrinsic.LOG, Intrinsic.LOG10,
          Intrinsic.LOG1P, Intrinsic.SIN, Intrinsic.COS, Intrinsic.TAN, Intrinsic.ASIN, Intrinsic.ACOS, Intrinsic.ATAN,
          Intrinsic.SINH, Intrinsic.COSH, Intrinsic.TANH})
        put(owner, op.name().toLowerCase(), "(D)D", op, Prim.DOUBLE);
      put(owner, "pow", "(DD)D", Intrinsic.POW, Prim.DOUBLE);
      put(owner, "atan2", "(DD)D", Intrinsic.ATAN2, Prim.DOUBLE);
      put(owner, "hypot", "(DD)D", Intrinsic.HYPOT, Prim.DOUBLE);
    }
    put("java/lang/Float", "floatToRawIntBits", "(F)I", Intrinsic.FLOAT_BITS, Prim.INT);
    put("java/lang/Float", "intBitsToFloat", "(I)F", Intrinsic.BITS_FLOAT, Prim.FLOAT);
    put("java/lang/Double", "doubleToRawLongBits", "(D)J", Intrinsic.DOUBLE_BITS, Prim.LONG);
    put("java/lang/Double", "longBitsToDouble", "(J)D", Intrinsic.BITS_DOUBLE, Prim.DOUBLE);
    put("java/lang/Integer", "bitCount", "(I)I", Intrinsic.POPCOUNT, Prim.INT);
    put("java/lang/Long", "bitCount", "(J)I", Intrinsic.POPCOUNT, Prim.INT);
    put("java/lang/Integer", "numberOfLeadingZeros", "(I)I", Intrinsic.CLZ, Prim.INT);
    put("java/lang/Long", "numberOfLeadingZeros", "(J)I", Intrinsic.CLZ, Prim.INT);
    put("java/lang/Integer", "numberOfTrailingZeros", "(I)I", Intrinsic.CTZ, Prim.INT);
    put("java/lang/Long", "numberOfTrailingZeros", "(J)I", Intrinsic.CTZ, Prim.INT);
  }

  private Intrinsics() {}

  private static void put(String owner, String name, String desc, Intrinsic op, Prim result) {
    TABLE.put(owner + "." + name + desc, new Mapping(op, result));
  }

  /** The intrinsic for a static call, or null. */
  static Mapping lookup(String owner, String name, String descriptor) {
    return TABLE.get(owner + "." + name + descriptor);
  }

  /**
   * For an intrinsic a target cannot do exactly: the JDK method whose Java code computes it
   * ({@code StrictMath}'s, which is pure Java in JDK 25), or null if there is none.
   */
  static String[] javaBody(Intrinsic op, Prim type) {
    if (type != Prim.DOUBLE) return null;
    return switch (op) {
      case CBRT, EXP, EXPM1, LOG, LOG10, LOG1P, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH ->
          new String[] {"java/lang/StrictMath", op.name().toLowerCase(), "(D)D"};
      case POW, ATAN2, HYPOT -> new String[] {"java/lang/StrictMath", op.name().toLowerCase(), "(DD)D"};
      default -> null;
    };
  }
}
