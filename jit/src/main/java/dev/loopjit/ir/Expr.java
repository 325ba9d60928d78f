// The expressions of the IR: a closed set of records, each with Java's meaning on every backend.
package dev.loopjit.ir;

import java.util.List;

/**
 * An expression. Expressions have no effect except {@link Call}s of effectful intrinsics and,
 * before the {@code inline} pass, of methods; the parser keeps those at statement level.
 */
public sealed interface Expr {
  Type type();

  /** The primitive type; fails for array-typed expressions. */
  default Prim prim() {
    return (Prim) type();
  }

  /** A constant. {@code value} is an Integer, Long, Float, Double or Boolean matching {@code type}. */
  record Const(Prim type, Object value) implements Expr {
    public static Const of(int v) { return new Const(Prim.INT, v); }
    public static Const of(long v) { return new Const(Prim.LONG, v); }
    public static Const of(float v) { return new Const(Prim.FLOAT, v); }
    public static Const of(double v) { return new Const(Prim.DOUBLE, v); }
    public static Const of(boolean v) { return new Const(Prim.BOOLEAN, v); }

    /** The value as a long (integers and booleans). */
    public long longValue() {
      return value instanceof Boolean b ? (b ? 1 : 0) : ((Number) value).longValue();
    }
  }

  /** The current value of a variable (local, parameter, or compiler temporary). */
  record Read(Var var) implements Expr {
    @Override public Type type() { return var.type(); }
  }

  /** {@code -x} or {@code !x}. */
  record Unary(Op.Unary op, Expr x) implements Expr {
    @Override public Type type() { return x.type(); }
  }

  /** {@code a op b}; see {@link Op.Binary} for the semantics. The type is {@code a}'s. */
  record Binary(Op.Binary op, Expr a, Expr b) implements Expr {
    @Override public Type type() { return a.type(); }
  }

  /** {@code a op b} giving BOOLEAN; IEEE on floats (NaN compares false except with NE). */
  record Compare(Op.Compare op, Expr a, Expr b) implements Expr {
    @Override public Type type() { return Prim.BOOLEAN; }
  }

  /** Short-circuit {@code a && b} / {@code a || b} on BOOLEANs. */
  record Logic(Op.Logic op, Expr a, Expr b) implements Expr {
    @Override public Type type() { return Prim.BOOLEAN; }
  }

  /**
   * Java's primitive conversion of {@code x} to {@code to}: float to integer saturates and maps
   * NaN to 0; to BYTE/SHORT/CHAR truncates and sign- (zero- for CHAR) extends, giving an INT;
   * BOOLEAN to INT gives 0 or 1.
   */
  record Convert(Prim to, Expr x) implements Expr {
    @Override public Type type() { return to.stackType(); }
  }

  /** {@code cond ? a : b}; only the chosen operand is evaluated. */
  record Select(Expr cond, Expr a, Expr b) implements Expr {
    @Override public Type type() { return a.type(); }
  }

  /** {@code array[index]}; the type is the element's stack type (HALF loads give FLOAT). */
  record Load(Expr array, Expr index) implements Expr {
    @Override public Type type() { return ((ArrayType) array.type()).element().stackType(); }
  }

  /** {@code array.length} / {@code getSize()}; lowered away (to a length argument or a constant) before emission. */
  record Length(Expr array) implements Expr {
    @Override public Type type() { return Prim.INT; }
  }

  /**
   * A fresh zeroed private array, or the work-group's local array; only as the value of an Assign
   * to an array variable. {@code length} is null when {@code type} has a constant length; a local
   * array sized at run time ({@code type.length()} is {@link ArrayType#RUNTIME}) has here the INT
   * expression of its length, which the {@code arguments} pass turns into a {@link KernelArg.Local}.
   */
  record Alloc(ArrayType type, Expr length) implements Expr {
    /** An array of constant length. */
    public Alloc(ArrayType type) {
      this(type, null);
    }
  }

  /** A built-in; {@code type} is its result (null for none). */
  record Call(Intrinsic op, Prim type, List<Expr> args) implements Expr {
    public Call {
      args = List.copyOf(args);
    }
  }

  /** A call of a static method, before the {@code inline} pass replaces it by the method's body. */
  record Invoke(String owner, String name, String descriptor, Prim type, List<Expr> args) implements Expr {
    public Invoke {
      args = List.copyOf(args);
    }
  }
}
