// The Java types a generated kernel computes with: every primitive, with how to write its values as source.
package dev.loopjit.fuzz;

import java.lang.reflect.Array;
import java.util.Locale;
import java.util.SplittableRandom;

/** The eight primitive types, as the generator sees them. */
enum JType {
  BOOLEAN("boolean", "Boolean", "z"),
  BYTE("byte", "Byte", "b"),
  SHORT("short", "Short", "s"),
  CHAR("char", "Character", "c"),
  INT("int", "Integer", "i"),
  LONG("long", "Long", "l"),
  FLOAT("float", "Float", "f"),
  DOUBLE("double", "Double", "d");

  /** The Java keyword, its box, and a letter for names ({@code ia}, {@code oi}). */
  final String java, box, letter;

  JType(String java, String box, String letter) {
    this.java = java;
    this.box = box;
    this.letter = letter;
  }

  boolean isNarrow() {
    return this == BYTE || this == SHORT || this == CHAR;
  }

  boolean isIntegral() {
    return this == BYTE || this == SHORT || this == CHAR || this == INT || this == LONG;
  }

  boolean isFloating() {
    return this == FLOAT || this == DOUBLE;
  }

  boolean isNumeric() {
    return this != BOOLEAN;
  }

  /** The type of {@code a op b} in Java (binary numeric promotion). */
  static JType promote(JType a, JType b) {
    if (a == DOUBLE || b == DOUBLE) return DOUBLE;
    if (a == FLOAT || b == FLOAT) return FLOAT;
    if (a == LONG || b == LONG) return LONG;
    return INT;
  }

  static final JType[] NUMERIC = {BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE};

  private static final int[] INTS = {0, 1, -1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 100, 127, 128, 255, 256, -128, 32767,
      -32768, 65535, 65536, 0x7fffffff, 0x80000000, 0x80000001, 0x7ffffffe, 46341, 1 << 24, (1 << 24) + 1, 0x55555555, -7, -100};
  private static final long[] LONGS = {0, 1, -1, 2, 31, 32, 63, 64, 65, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1,
      Integer.MAX_VALUE, Integer.MIN_VALUE, 1L << 32, (1L << 32) + 1, 1L << 53, (1L << 53) + 1, 3037000500L, 0x5555555555555555L, -7};
  private static final float[] FLOATS = {0f, -0f, 1f, -1f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3f, 0.1f, 100f, Float.NaN,
      Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, Float.MIN_NORMAL,
      1e19f, -1e19f, 3e9f, -3e9f, 16777216f, 16777217f, 8388608.5f, 2.1474836E9f, 9.223372E18f, 1e-40f};
  private static final double[] DOUBLES = {0d, -0d, 1d, -1d, 0.5, -0.5, 1.5, 2.5, -2.5, 3d, 0.1, 100d, Double.NaN,
      Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE,
      Double.MIN_NORMAL, 1e300, -1e300, 1e19, -1e19, 3e9, 4503599627370496.0, 4503599627370497.0, 9.223372036854776E18,
      2147483647.5, -2147483648.5, 1e-310, 0x1.000001p0, 1e15 + 0.5};

  /** A value of this type: an edge case half the time, else random; as a boxed Integer, Long, Float, Double, Boolean or Character/Short/Byte. */
  Object value(SplittableRandom r) {
    boolean edge = r.nextInt(2) == 0;
    return switch (this) {
      case BOOLEAN -> r.nextBoolean();
      case BYTE -> (byte) (edge ? INTS[r.nextInt(INTS.length)] : r.nextInt());
      case SHORT -> (short) (edge ? INTS[r.nextInt(INTS.length)] : r.nextInt());
      case CHAR -> (char) (edge ? INTS[r.nextInt(INTS.length)] : r.nextInt());
      case INT -> edge ? INTS[r.nextInt(INTS.length)] : r.nextInt(4) == 0 ? r.nextInt() : r.nextInt(-1000, 1000);
      case LONG -> edge ? LONGS[r.nextInt(LONGS.length)] : r.nextInt(4) == 0 ? r.nextLong() : (long) r.nextInt(-100_000, 100_000);
      case FLOAT -> edge ? FLOATS[r.nextInt(FLOATS.length)] : r.nextInt(4) == 0 ? Float.intBitsToFloat(r.nextInt()) : (float) r.nextDouble(-100, 100);
      case DOUBLE -> edge ? DOUBLES[r.nextInt(DOUBLES.length)]
          : r.nextInt(4) == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextDouble(-100, 100);
    };
  }

  /** {@code v} (as {@link #value} gives it) as Java source of exactly this type and value. */
  String literal(Object v) {
    return switch (this) {
      case BOOLEAN -> v.toString();
      case BYTE -> "((byte) " + (Byte) v + ")";
      case SHORT -> "((short) " + (Short) v + ")";
      case CHAR -> "((char) " + (int) (Character) v + ")";
      case INT -> {
        int x = (Integer) v;
        yield x == Integer.MIN_VALUE ? "Integer.MIN_VALUE" : x < 0 ? "(" + x + ")" : Integer.toString(x);
      }
      case LONG -> {
        long x = (Long) v;
        yield x == Long.MIN_VALUE ? "Long.MIN_VALUE" : x < 0 ? "(" + x + "L)" : x + "L";
      }
      case FLOAT -> {
        float x = (Float) v;
        if (Float.isNaN(x)) yield Float.floatToRawIntBits(x) == 0x7fc00000 ? "Float.NaN" : "Float.intBitsToFloat(0x" + Integer.toHexString(Float.floatToRawIntBits(x)) + ")";
        if (Float.isInfinite(x)) yield x > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY";
        String s = Float.toString(x) + "f";
        yield s.startsWith("-") ? "(" + s + ")" : s;
      }
      case DOUBLE -> {
        double x = (Double) v;
        if (Double.isNaN(x)) yield Double.doubleToRawLongBits(x) == 0x7ff8000000000000L ? "Double.NaN"
            : "Double.longBitsToDouble(0x" + Long.toHexString(Double.doubleToRawLongBits(x)) + "L)";
        if (Double.isInfinite(x)) yield x > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
        String s = Double.toString(x);
        yield s.startsWith("-") ? "(" + s + ")" : s;
      }
    };
  }

  /** A fresh array of this type with {@code n} values from {@code r}. */
  Object array(int n, SplittableRandom r) {
    Object a = Array.newInstance(primitive(), n);
    for (int i = 0; i < n; i++) Array.set(a, i, value(r));
    return a;
  }

  Class<?> primitive() {
    return switch (this) {
      case BOOLEAN -> boolean.class; case BYTE -> byte.class; case SHORT -> short.class; case CHAR -> char.class;
      case INT -> int.class; case LONG -> long.class; case FLOAT -> float.class; case DOUBLE -> double.class;
    };
  }

  @Override
  public String toString() {
    return java.toLowerCase(Locale.ROOT);
  }
}
