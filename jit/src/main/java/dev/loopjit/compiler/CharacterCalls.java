// What a kernel's Character.isDigit, isLetter, toUpperCase and friends compile to: the running JDK's answers as comparisons, a report beyond them.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Binary;
import dev.loopjit.ir.Expr.Call;
import dev.loopjit.ir.Expr.Compare;
import dev.loopjit.ir.Expr.Const;
import dev.loopjit.ir.Expr.Convert;
import dev.loopjit.ir.Expr.Logic;
import dev.loopjit.ir.Expr.Read;
import dev.loopjit.ir.Expr.Select;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntBinaryOperator;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * The JDK answers {@code Character.isLetter} and its kin from tables behind an object
 * ({@code CharacterData.of}), which no device has. A kernel's call of one of {@link #METHODS} is
 * compiled instead from the answers of the JDK the compiler runs on, so it is Java's answer by
 * construction: for U+0000–U+00FF (ASCII and Latin-1) a 256-bit mask or a table of offsets in
 * comparisons; beyond it, the predicates whose true code points form few ranges ({@code isDigit},
 * {@code isWhitespace}, {@code isSpaceChar}, {@code isTitleCase}, {@code isIdeographic}) compare
 * against those ranges, so they are exact for every code point. The others would need Unicode's
 * tables: a code point above U+00FF makes the work-item throw (the IR's {@code THROW} with the code
 * point, reported as an index out of range is), and the runtime raises
 * {@code KernelUnsupportedValueException} naming the call, the code point and the line — never a
 * wrong answer. A value that is no code point (negative, above U+10FFFF) gets Java's answer:
 * false, itself, or -1. On the jvm the JDK's own method runs.
 */
public final class CharacterCalls {
  private CharacterCalls() {}

  /** The first {@code THROW} number this class uses ({@code ExactMath}'s are below it). */
  public static final int FIRST = 100;

  /** How many ranges of true code points a predicate may have to be compared against beyond U+00FF. */
  private static final int MAX_RANGES = 80;

  private sealed interface Kind {}

  private record Predicate(IntPredicate test) implements Kind {}

  private record Mapping(IntUnaryOperator map) implements Kind {}

  private record Digit(IntBinaryOperator digit) implements Kind {}

  /** The methods read so, by name; each has a {@code (C)} and an {@code (I)} overload unless its descriptor list says otherwise. */
  private static final Map<String, Kind> METHODS = Map.ofEntries(
      Map.entry("isDigit", new Predicate(Character::isDigit)),
      Map.entry("isLetter", new Predicate(Character::isLetter)),
      Map.entry("isLetterOrDigit", new Predicate(Character::isLetterOrDigit)),
      Map.entry("isAlphabetic", new Predicate(Character::isAlphabetic)),
      Map.entry("isUpperCase", new Predicate(Character::isUpperCase)),
      Map.entry("isLowerCase", new Predicate(Character::isLowerCase)),
      Map.entry("isTitleCase", new Predicate(Character::isTitleCase)),
      Map.entry("isWhitespace", new Predicate(Character::isWhitespace)),
      Map.entry("isSpaceChar", new Predicate(Character::isSpaceChar)),
      Map.entry("isDefined", new Predicate(Character::isDefined)),
      Map.entry("isIdeographic", new Predicate(Character::isIdeographic)),
      Map.entry("isJavaIdentifierStart", new Predicate(Character::isJavaIdentifierStart)),
      Map.entry("isJavaIdentifierPart", new Predicate(Character::isJavaIdentifierPart)),
      Map.entry("isUnicodeIdentifierStart", new Predicate(Character::isUnicodeIdentifierStart)),
      Map.entry("isUnicodeIdentifierPart", new Predicate(Character::isUnicodeIdentifierPart)),
      Map.entry("toUpperCase", new Mapping(Character::toUpperCase)),
      Map.entry("toLowerCase", new Mapping(Character::toLowerCase)),
      Map.entry("toTitleCase", new Mapping(Character::toTitleCase)),
      Map.entry("digit", new Digit(Character::digit)));

  /** Each predicate's ranges of true code points above U+00FF, found once (a walk over every code point). */
  private static final Map<String, List<int[]>> BEYOND_LATIN1 = new java.util.concurrent.ConcurrentHashMap<>();

  /** The names in {@link #METHODS}, in a fixed order: a {@code THROW}'s number is {@link #FIRST} plus the index here. */
  private static final List<String> NAMES = METHODS.keySet().stream().sorted().toList();

  /** Whether a static call of {@code owner.name desc} is one this class compiles. */
  static boolean replaces(String owner, String name, String desc) {
    if (!owner.equals("java/lang/Character") || !METHODS.containsKey(name)) return false;
    return switch (METHODS.get(name)) {
      case Predicate p -> desc.equals("(C)Z") || desc.equals("(I)Z");
      case Mapping m -> desc.equals("(C)C") || desc.equals("(I)I");
      case Digit d -> desc.equals("(CI)I") || desc.equals("(II)I");
    };
  }

  /** Whether {@code message} is one of this class's ({@code "Character.isLetter"}): a site that reports a value no device answers. */
  public static boolean isMessage(String message) {
    return message != null && message.startsWith("Character.") && NAMES.contains(message.substring("Character.".length()));
  }

  /** The call a {@code THROW} number stands for, {@code "Character.isLetter"}. */
  static String message(int which) {
    return "Character." + NAMES.get(which - FIRST);
  }

  /**
   * Emits the call's code into {@code ops} and pushes its value: {@code args} are the code point (a
   * {@code char}'s is its int value) and, for {@code digit}, the radix.
   */
  static void call(OperandStack ops, String name, Expr[] args) {
    Kind kind = METHODS.get(name);
    Expr c = ops.once(args[0]);
    Var r = ops.temp(Prim.INT);
    Expr radix = kind instanceof Digit ? ops.once(args[1]) : null;
    Expr latin1 = switch (kind) {
      case Predicate p -> mask(c, p.test());
      case Mapping m -> offsets(c, 0, 256, m.map());
      case Digit d -> digit(ops, c, radix, d.digit());
    };
    Expr noCodePoint = switch (kind) {   // what Java answers for a value that is no code point
      case Predicate p -> Const.of(0);
      case Mapping m -> c;
      case Digit d -> Const.of(-1);
    };
    Stmt beyond;
    List<int[]> ranges = kind instanceof Predicate p ? BEYOND_LATIN1.computeIfAbsent(name, k -> ranges(p.test(), 256, Character.MAX_CODE_POINT)) : null;
    if (ranges != null && ranges.size() <= MAX_RANGES) {
      beyond = new Stmt.Assign(r, new Select(within(c, ranges, 0, ranges.size()), Const.of(1), Const.of(0)), ops.src);
    } else {   // Unicode's tables would be needed: the work-item reports the code point
      Stmt report = new Stmt.Eval(new Call(Intrinsic.THROW, null, List.of(Const.of(FIRST + NAMES.indexOf(name)), c)), ops.src);
      beyond = new Stmt.Block(List.of(report, new Stmt.Assign(r, noCodePoint, ops.src)), ops.src);
    }
    Expr invalid = new Logic(Op.Logic.OR, new Compare(Op.Compare.LT, c, Const.of(0)), new Compare(Op.Compare.GT, c, Const.of(Character.MAX_CODE_POINT)));
    Stmt others = new Stmt.If(invalid, block(new Stmt.Assign(r, noCodePoint, ops.src), ops), block(beyond, ops), ops.src);
    Expr inLatin1 = new Compare(Op.Compare.EQ, new Binary(Op.Binary.USHR, c, Const.of(8)), Const.of(0));
    ops.out.add(new Stmt.If(inLatin1, block(new Stmt.Assign(r, latin1, ops.src), ops), block(others, ops), ops.src));
    ops.push(new Read(r));
  }

  private static Stmt.Block block(Stmt s, OperandStack ops) {
    return s instanceof Stmt.Block b ? b : new Stmt.Block(List.of(s), ops.src);
  }

  /** {@code test} over U+0000–U+00FF as four 64-bit masks: bit {@code c & 63} of mask {@code c >> 6}, as an int 0 or 1. */
  private static Expr mask(Expr c, IntPredicate test) {
    long[] m = new long[4];
    for (int x = 0; x < 256; x++) if (test.test(x)) m[x >> 6] |= 1L << (x & 63);
    Expr word = new Select(new Compare(Op.Compare.LT, c, Const.of(128)),
        new Select(new Compare(Op.Compare.LT, c, Const.of(64)), Const.of(m[0]), Const.of(m[1])),
        new Select(new Compare(Op.Compare.LT, c, Const.of(192)), Const.of(m[2]), Const.of(m[3])));
    Expr bit = new Binary(Op.Binary.AND, new Binary(Op.Binary.USHR, word, new Binary(Op.Binary.AND, c, Const.of(63))), Const.of(1L));
    return new Convert(Prim.INT, bit);
  }

  /**
   * The value {@code f} has at c, for c in [from, to), as comparisons over its runs: stretches where
   * it is one constant, or c plus one constant (a case mapping's offset, a digit's value).
   */
  private static Expr offsets(Expr c, int from, int to, IntUnaryOperator f) {
    List<int[]> runs = new ArrayList<>();   // {first code point, constant, 1 when it is added to c}
    for (int x = from; x < to; ) {
      int v = f.applyAsInt(x), end = x + 1;
      boolean plus = end < to && f.applyAsInt(end) != v && f.applyAsInt(end) - end == v - x;
      while (end < to && (plus ? f.applyAsInt(end) - end == v - x : f.applyAsInt(end) == v)) end++;
      runs.add(plus ? new int[] {x, v - x, 1} : new int[] {x, v, 0});
      x = end;
    }
    return runs(c, runs, 0, runs.size());
  }

  private static Expr runs(Expr c, List<int[]> runs, int lo, int hi) {
    if (hi - lo == 1) {
      int[] r = runs.get(lo);
      return r[2] == 0 ? Const.of(r[1]) : r[1] == 0 ? c : new Binary(Op.Binary.ADD, c, Const.of(r[1]));
    }
    int mid = (lo + hi) >>> 1;
    return new Select(new Compare(Op.Compare.LT, c, Const.of(runs.get(mid)[0])), runs(c, runs, lo, mid), runs(c, runs, mid, hi));
  }

  /**
   * {@code Character.digit(c, radix)} for c in U+0000–U+00FF: the digit value the JDK gives each
   * character (the same in every radix that has it), and -1 where it is not below the radix or the
   * radix is outside [{@link Character#MIN_RADIX}, {@link Character#MAX_RADIX}].
   */
  private static Expr digit(OperandStack ops, Expr c, Expr radix, IntBinaryOperator digit) {
    Expr value = ops.once(offsets(c, 0, 256, x -> digit.applyAsInt(x, Character.MAX_RADIX)));
    Expr ok = new Logic(Op.Logic.AND, new Logic(Op.Logic.AND, new Compare(Op.Compare.GE, radix, Const.of(Character.MIN_RADIX)),
        new Compare(Op.Compare.LE, radix, Const.of(Character.MAX_RADIX))), new Compare(Op.Compare.LT, value, radix));
    return new Select(ok, value, Const.of(-1));
  }

  /** The ranges [first, last] of code points in [from, to] where {@code test} holds. */
  static List<int[]> ranges(IntPredicate test, int from, int to) {
    List<int[]> out = new ArrayList<>();
    for (int x = from; x <= to; x++) {
      if (!test.test(x)) continue;
      int first = x;
      while (x < to && test.test(x + 1)) x++;
      out.add(new int[] {first, x});
    }
    return out;
  }

  /** Whether c lies in one of {@code ranges[lo, hi)}: a binary search in comparisons. */
  private static Expr within(Expr c, List<int[]> ranges, int lo, int hi) {
    if (hi == lo) return Const.of(false);
    if (hi - lo == 1) {
      int[] r = ranges.get(lo);
      return new Logic(Op.Logic.AND, new Compare(Op.Compare.GE, c, Const.of(r[0])), new Compare(Op.Compare.LE, c, Const.of(r[1])));
    }
    int mid = (lo + hi) >>> 1;
    return new Select(new Compare(Op.Compare.LT, c, Const.of(ranges.get(mid)[0])), within(c, ranges, lo, mid), within(c, ranges, mid, hi));
  }
}
