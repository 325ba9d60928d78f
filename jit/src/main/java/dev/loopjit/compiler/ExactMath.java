// What a kernel's Math.addExact and friends compile from: the JDK's arithmetic, and a throw the devices report as Java's ArithmeticException.
package dev.loopjit.compiler;

import dev.loopjit.ir.Src;
import java.util.Set;

/**
 * The kernel compiler reads a call of {@code Math.addExact}, {@code subtractExact},
 * {@code multiplyExact}, {@code incrementExact}, {@code decrementExact}, {@code negateExact},
 * {@code toIntExact} or {@code absExact} (and {@code StrictMath}'s) as a call of the method of the
 * same name and descriptor here: the same tests as the JDK's, with {@link #overflow} where the JDK
 * throws. That call becomes the IR's {@code THROW} (the message's number as its argument), which
 * the {@code bounds} pass reports as it reports an index out of range, and the runtime throws as
 * {@code KernelArithmeticException}, an {@link ArithmeticException} with Java's message, naming the
 * kernel's line. On the jvm the JDK's own method throws.
 */
public final class ExactMath {
  private ExactMath() {}

  /** The class's internal name, as calls name it. */
  static final String OWNER = "dev/loopjit/compiler/ExactMath";

  /** Java's messages, by the number {@link #overflow} takes. */
  private static final String[] MESSAGES = {"integer overflow", "long overflow",
      "Overflow to represent absolute value of Integer.MIN_VALUE", "Overflow to represent absolute value of Long.MIN_VALUE"};

  private static final int INT = 0, LONG = 1, ABS_INT = 2, ABS_LONG = 3;

  /** The methods of {@code java.lang.Math} (and {@code StrictMath}) read as this class's: name and descriptor. */
  private static final Set<String> METHODS = Set.of("addExact(II)I", "addExact(JJ)J", "subtractExact(II)I", "subtractExact(JJ)J",
      "multiplyExact(II)I", "multiplyExact(JI)J", "multiplyExact(JJ)J", "incrementExact(I)I", "incrementExact(J)J",
      "decrementExact(I)I", "decrementExact(J)J", "negateExact(I)I", "negateExact(J)J", "toIntExact(J)I", "absExact(I)I", "absExact(J)J");

  /** Whether a static call of {@code owner.name desc} is one this class stands in for. */
  static boolean replaces(String owner, String name, String desc) {
    return (owner.equals("java/lang/Math") || owner.equals("java/lang/StrictMath")) && METHODS.contains(name + desc);
  }

  /** Java's message for {@link #overflow}'s number; for a {@code THROW} of {@link CharacterCalls}, the call ({@code "Character.isLetter"}). */
  public static String message(int which) {
    if (which >= CharacterCalls.FIRST) return CharacterCalls.message(which);
    return which >= 0 && which < MESSAGES.length ? MESSAGES[which] : "arithmetic exception";
  }

  /** The first frame of {@code src} outside this class: the kernel's call of the {@code Math} method. */
  public static Src callSite(Src src) {
    Src s = src;
    while (s != null && s.caller() != null && s.className().equals(ExactMath.class.getName())) s = s.caller();
    return s == null ? src : s;
  }

  /** Where a kernel throws Java's ArithmeticException: the compiler makes it the IR's {@code THROW}. */
  static void overflow(int which) {
    throw new ArithmeticException(message(which));
  }

  public static int addExact(int x, int y) {
    int r = x + y;
    if (((x ^ r) & (y ^ r)) < 0) overflow(INT);
    return r;
  }

  public static long addExact(long x, long y) {
    long r = x + y;
    if (((x ^ r) & (y ^ r)) < 0) overflow(LONG);
    return r;
  }

  public static int subtractExact(int x, int y) {
    int r = x - y;
    if (((x ^ y) & (x ^ r)) < 0) overflow(INT);
    return r;
  }

  public static long subtractExact(long x, long y) {
    long r = x - y;
    if (((x ^ y) & (x ^ r)) < 0) overflow(LONG);
    return r;
  }

  public static int multiplyExact(int x, int y) {
    long r = (long) x * (long) y;
    if ((int) r != r) overflow(INT);
    return (int) r;
  }

  public static long multiplyExact(long x, int y) {
    return multiplyExact(x, (long) y);
  }

  public static long multiplyExact(long x, long y) {
    long r = x * y;
    long ax = Math.abs(x), ay = Math.abs(y);
    if ((ax | ay) >>> 31 != 0 && (y != 0 && r / y != x || x == Long.MIN_VALUE && y == -1)) overflow(LONG);
    return r;
  }

  public static int incrementExact(int a) {
    if (a == Integer.MAX_VALUE) overflow(INT);
    return a + 1;
  }

  public static long incrementExact(long a) {
    if (a == Long.MAX_VALUE) overflow(LONG);
    return a + 1L;
  }

  public static int decrementExact(int a) {
    if (a == Integer.MIN_VALUE) overflow(INT);
    return a - 1;
  }

  public static long decrementExact(long a) {
    if (a == Long.MIN_VALUE) overflow(LONG);
    return a - 1L;
  }

  public static int negateExact(int a) {
    if (a == Integer.MIN_VALUE) overflow(INT);
    return -a;
  }

  public static long negateExact(long a) {
    if (a == Long.MIN_VALUE) overflow(LONG);
    return -a;
  }

  public static int toIntExact(long value) {
    if ((int) value != value) overflow(INT);
    return (int) value;
  }

  public static int absExact(int a) {
    if (a == Integer.MIN_VALUE) overflow(ABS_INT);
    return Math.abs(a);
  }

  public static long absExact(long a) {
    if (a == Long.MIN_VALUE) overflow(ABS_LONG);
    return Math.abs(a);
  }
}
