// The operators of Unary, Binary and Compare nodes, with Java's meaning.
package dev.loopjit.ir;

/** Operators; each has Java's meaning on every backend (see the emitters for how). */
public final class Op {
  private Op() {}

  /** Unary operators. NEG wraps for int/long (-MIN_VALUE == MIN_VALUE); NOT negates a boolean. */
  public enum Unary { NEG, NOT }

  /**
   * Binary arithmetic on two values of one type (shift distances are INT and masked to 31/63, as
   * in Java). Integer DIV and REM truncate, {@code MIN_VALUE / -1 == MIN_VALUE}, and division or
   * remainder by zero gives 0 (Java would throw; a device cannot). Float REM is Java's {@code %}
   * (C's fmod). AND, OR, XOR are bitwise on int/long and non-short-circuit on booleans.
   */
  public enum Binary {
    ADD("+"), SUB("-"), MUL("*"), DIV("/"), REM("%"), AND("&"), OR("|"), XOR("^"), SHL("<<"), SHR(">>"), USHR(">>>");

    public final String symbol;

    Binary(String symbol) {
      this.symbol = symbol;
    }

    public boolean isShift() {
      return this == SHL || this == SHR || this == USHR;
    }
  }

  /**
   * Comparisons, giving BOOLEAN. On floats they are IEEE's: every comparison with NaN is false
   * except NE, which is true (as in Java and C).
   */
  public enum Compare {
    EQ("=="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">=");

    public final String symbol;

    Compare(String symbol) {
      this.symbol = symbol;
    }

    /** The comparison that is true exactly when this one is false, for non-NaN operands. */
    public Compare negate() {
      return switch (this) {
        case EQ -> NE; case NE -> EQ; case LT -> GE; case GE -> LT; case GT -> LE; case LE -> GT;
      };
    }

    /** The comparison with operands swapped. */
    public Compare swap() {
      return switch (this) {
        case EQ -> EQ; case NE -> NE; case LT -> GT; case GT -> LT; case LE -> GE; case GE -> LE;
      };
    }
  }

  /** Short-circuit boolean operators: the right operand is evaluated only when needed. */
  public enum Logic { AND("&&"), OR("||");

    public final String symbol;

    Logic(String symbol) {
      this.symbol = symbol;
    }
  }
}
