// The C-family half of the kernel emitters: variables, structured control flow and Java's integer arithmetic in C.
package dev.loopjit.backend.opencl;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Lowered IR to the body of a C-family kernel. A dialect subclass supplies the names (types,
 * address spaces, bit casts, saturating conversions, half loads, intrinsics, the helper functions
 * it defines); this class owns variables, control flow and Java's integer semantics: int and long
 * ADD/SUB/MUL/NEG/SHL are computed on the unsigned type (no signed-overflow UB) and reinterpreted,
 * shift distances are masked, and DIV/REM go through helpers unless the divisor is a constant
 * other than 0 and -1. Statements are emitted one per line; expressions carry their C precedence
 * so parentheses appear only where C needs them (or where mixing bitwise operators confuses).
 */
abstract class CEmitter {
  static final int ASSIGN = 2, COND = 3, LOR = 4, LAND = 5, BOR = 6, BXOR = 7, BAND = 8, EQUAL = 9, REL = 10,
      SHIFT = 11, ADD = 12, MUL = 13, UNARY = 15, PRIMARY = 16;

  /** A C expression and the precedence of its outermost operator. */
  record C(String text, int prec) {
    static C of(String text) {
      return new C(text, PRIMARY);
    }

    /** The text, parenthesised unless its operator binds at least as tightly as {@code min}. */
    String at(int min) {
      return prec >= min ? text : "(" + text + ")";
    }
  }

  protected final CNames names = new CNames();
  private final StringBuilder out = new StringBuilder();
  private final Deque<Frame> frames = new ArrayDeque<>();
  private int depth = 1;

  /** An enclosing Loop, Switch or Labeled, and which of its C labels a jump needed. */
  private static final class Frame {
    final Stmt construct;
    final Label label;
    boolean plainContinue;
    boolean endUsed;
    boolean nextUsed;

    Frame(Stmt construct, Label label) {
      this.construct = construct;
      this.label = label;
    }
  }

  // ---- the dialect's table -------------------------------------------------------------------

  /** The C type of a value of stack type {@code p} (BOOLEAN, INT, LONG, FLOAT, DOUBLE), or the unsigned one. */
  protected abstract String type(Prim p, boolean unsigned);

  /** The C type of an array element stored in {@code space}. */
  protected abstract String elementType(Prim p, ArrayType.Space space);

  /** The address-space prefix of a pointer or array in {@code space}, with a trailing blank, or "". */
  protected abstract String space(ArrayType.Space space);

  /** {@code x}'s bits as a value of {@code to} (same size). */
  protected abstract C reinterpret(Prim to, C x);

  /** Java's float-to-INT/LONG conversion: round toward zero, saturate, NaN to 0. */
  protected abstract C saturate(Prim to, C x);

  /** Java's FLOAT rounded to half precision and back. */
  protected abstract C roundToHalf(C x);

  /** The function giving Java's integer DIV or REM on {@code p} (including x/0 == 0 and MIN/-1). */
  protected abstract String divide(Op.Binary op, Prim p);

  /** A load from a HALF array, as FLOAT. */
  protected abstract C loadHalf(C array, C index, ArrayType t);

  /** The statement storing FLOAT {@code value} into a HALF array, rounding to nearest even. */
  protected abstract String storeHalf(C array, C index, C value, ArrayType t);

  /** A call of an intrinsic. */
  protected abstract C intrinsic(Call c);

  // ---- the kernel ----------------------------------------------------------------------------

  /** The declarations and statements of {@code k}'s body, indented one level; names its arguments first. */
  protected final String body(KernelIR k) {
    Set<Var> vars = new LinkedHashSet<>();
    IrScan.vars(k.body(), vars);
    for (KernelArg a : k.args()) {
      names.of(a.var());
      vars.remove(a.var());
    }
    for (Var v : vars) line(declaration(v));
    if (!vars.isEmpty()) out.append('\n');
    block(k.body().stmts());
    return out.toString();
  }

  private String declaration(Var v) {
    String name = names.of(v);
    if (v.type() instanceof Prim p) return type(p.stackType(), false) + " " + name + " = " + zero(p.stackType()) + ";";
    ArrayType t = (ArrayType) v.type();
    return switch (t.space()) {
      case GLOBAL -> space(t.space()) + elementType(t.element(), t.space()) + "* " + name + " = 0;";
      case LOCAL, PRIVATE -> space(t.space()) + elementType(t.element(), t.space()) + " " + name + "[" + t.length() + "];";
    };
  }

  private static String zero(Prim p) {
    return switch (p) {
      case LONG -> "0L";
      case FLOAT -> "0.0f";
      case DOUBLE -> "0.0";
      default -> "0";
    };
  }

  // ---- statements ----------------------------------------------------------------------------

  private void line(String s) {
    out.append("  ".repeat(depth)).append(s).append('\n');
  }

  private void block(List<Stmt> stmts) {
    for (Stmt s : stmts) stmt(s);
  }

  private void indented(List<Stmt> stmts) {
    depth++;
    block(stmts);
    depth--;
  }

  private void stmt(Stmt s) {
    switch (s) {
      case Block b -> block(b.stmts());
      case Assign a -> assign(a);
      case Store st -> store(st);
      case Eval e -> line(expr(e.call()).text() + ";");
      case If i -> ifElse(i, "if (");
      case Loop l -> loop(l);
      case Switch sw -> switchStmt(sw);
      case Labeled l -> {
        Frame f = push(l, l.label());
        block(l.body().stmts());
        pop(f);
      }
      case Break b -> {
        Frame t = frame(b.target());
        if (t == frames.stream().filter(f -> !(f.construct instanceof Labeled)).findFirst().orElse(null)) line("break;");
        else line("goto " + jump(t, "end") + ";");
      }
      case Continue c -> {
        Frame t = frame(c.target());
        if (!(t.construct instanceof Loop)) throw new IllegalStateException("continue " + c.target() + " targets a non-loop");
        if (t.plainContinue && t == frames.stream().filter(f -> f.construct instanceof Loop).findFirst().orElseThrow()) line("continue;");
        else line("goto " + jump(t, "next") + ";");
      }
      case Return r -> {
        if (r.value() != null) throw new IllegalStateException("a kernel returns no value: " + r.src().describe());
        line("return;");
      }
    }
  }

  private void assign(Assign a) {
    String name = names.of(a.var());
    if (a.value() instanceof Alloc alloc) {
      if (!(a.var().type() instanceof ArrayType t) || t.space() == ArrayType.Space.GLOBAL)
        throw new IllegalStateException("cannot allocate " + alloc.type() + " into " + a.var() + ": " + a.src().describe());
      // Java's `new T[n]` is zeroed every time it runs; local arrays are declared at kernel scope.
      if (t.space() == ArrayType.Space.PRIVATE) line("for (int z = 0; z < " + t.length() + "; z++) " + name + "[z] = 0;");
      return;
    }
    if (a.var().type() instanceof ArrayType t && t.space() != ArrayType.Space.GLOBAL)
      throw new IllegalStateException("cannot alias " + t + " " + a.var() + " in C: " + a.src().describe());
    line(name + " = " + expr(a.value()).text() + ";");
  }

  private void store(Store st) {
    ArrayType t = (ArrayType) st.array().type();
    C array = expr(st.array()), index = expr(st.index()), value = expr(st.value());
    if (t.element() == Prim.HALF) {
      line(storeHalf(array, index, value, t));
      return;
    }
    String v = switch (t.element()) {
      case BYTE, SHORT, CHAR -> cast(elementType(t.element(), t.space()), value).text();
      // The JVM's bastore keeps only bit 0 of a value stored into a boolean array.
      case BOOLEAN -> cast(elementType(Prim.BOOLEAN, t.space()), binary(value, "&", C.of("1"), BAND)).text();
      default -> value.text();
    };
    line(array.at(PRIMARY) + "[" + index.text() + "] = " + v + ";");
  }

  private void ifElse(If i, String opener) {
    if (i.then().isEmpty() && !i.otherwise().isEmpty()) {
      ifElse(new If(new Unary(Op.Unary.NOT, i.cond()), i.otherwise(), i.then(), i.src()), opener);
      return;
    }
    line(opener + condition(i.cond()) + ") {");
    indented(i.then().stmts());
    List<Stmt> other = i.otherwise().stmts();
    if (other.size() == 1 && other.get(0) instanceof If nested) {
      ifElse(nested, "} else if (");
      return;
    }
    if (!other.isEmpty()) {
      line("} else {");
      indented(other);
    }
    line("}");
  }

  private void loop(Loop l) {
    List<Stmt> body = l.body().stmts();
    String cond = null;
    if (!body.isEmpty() && body.get(0) instanceof If i && isBreakOf(i.then(), l.label()) && i.otherwise().isEmpty()) {
      cond = condition(new Unary(Op.Unary.NOT, i.cond()));
      body = body.subList(1, body.size());
    }
    String update = updateExpression(l.update());
    Frame f = push(l, l.label());
    f.plainContinue = update != null;
    if (update != null && !update.isEmpty()) line("for (; " + (cond == null ? "" : cond) + "; " + update + ") {");
    else line(cond != null ? "while (" + cond + ") {" : "for (;;) {");
    indented(body);
    depth++;
    if (f.nextUsed) line(names.label(l.label(), "next") + ": ;");
    if (update == null) block(l.update().stmts());
    depth--;
    line("}");
    pop(f);
  }

  private static boolean isBreakOf(Block b, Label l) {
    return b.stmts().size() == 1 && b.stmts().get(0) instanceof Break br && br.target().equals(l);
  }

  /** The update as a C comma expression ("" when empty), or null when it needs statements. */
  private String updateExpression(Block update) {
    StringBuilder b = new StringBuilder();
    for (Stmt s : update.stmts()) {
      if (!(s instanceof Assign a) || !(a.var().type() instanceof Prim)) return null;
      b.append(b.isEmpty() ? "" : ", ").append(names.of(a.var())).append(" = ").append(expr(a.value()).at(ASSIGN));
    }
    return b.toString();
  }

  private void switchStmt(Switch sw) {
    line("switch (" + expr(sw.selector()).text() + ") {");
    Frame f = push(sw, sw.label());
    depth++;
    for (int n = 0; n < sw.cases().size(); n++) {
      Case c = sw.cases().get(n);
      if (c.isDefault()) line("default:");
      for (int v : c.values()) line("case " + constant(Const.of(v)).text() + ":");
      indented(c.body().stmts());
      // A label must label a statement.
      if (n == sw.cases().size() - 1 && c.body().isEmpty()) indented(List.of(new Break(sw.label(), sw.src())));
    }
    depth--;
    line("}");
    pop(f);
  }

  private Frame push(Stmt construct, Label label) {
    Frame f = new Frame(construct, label);
    frames.push(f);
    return f;
  }

  private void pop(Frame f) {
    frames.pop();
    if (f.endUsed) line(names.label(f.label, "end") + ": ;");
  }

  private Frame frame(Label target) {
    for (Frame f : frames) if (f.label.equals(target)) return f;
    throw new IllegalStateException("jump to " + target + ", which does not enclose it");
  }

  private String jump(Frame f, String which) {
    if (which.equals("end")) f.endUsed = true;
    else f.nextUsed = true;
    return names.label(f.label, which);
  }

  /** A BOOLEAN expression as the text of a condition, with a negated comparison folded in where exact. */
  private String condition(Expr e) {
    if (e instanceof Unary u && u.op() == Op.Unary.NOT) {
      if (u.x() instanceof Unary inner && inner.op() == Op.Unary.NOT) return condition(inner.x());
      // Negating a float comparison is wrong for NaN, so only integer ones are flipped.
      if (u.x() instanceof Compare c && !c.a().prim().isFloating()) return expr(new Compare(c.op().negate(), c.a(), c.b())).text();
    }
    return expr(e).text();
  }

  // ---- expressions ---------------------------------------------------------------------------

  /** {@code e} as a C expression of the dialect's type for {@code e.type()}. */
  protected final C expr(Expr e) {
    return switch (e) {
      case Const c -> constant(c);
      case Read r -> C.of(names.of(r.var()));
      case Unary u -> switch (u.op()) {
        case NOT -> unary("!", expr(u.x()));
        case NEG -> u.prim().isIntegral() ? reinterpret(u.prim(), bits(u)) : unary("-", expr(u.x()));
      };
      case Binary b -> binary(b);
      case Compare c -> binary(expr(c.a()), c.op().symbol, expr(c.b()),
          c.op() == Op.Compare.EQ || c.op() == Op.Compare.NE ? EQUAL : REL);
      case Logic l -> binary(expr(l.a()), l.op().symbol, expr(l.b()), l.op() == Op.Logic.AND ? LAND : LOR);
      case Convert c -> convert(c.to(), c.x());
      case Select s -> new C(expr(s.cond()).at(LOR) + " ? " + expr(s.a()).at(ASSIGN) + " : " + expr(s.b()).at(COND), COND);
      case Load l -> {
        ArrayType t = (ArrayType) l.array().type();
        C array = expr(l.array()), index = expr(l.index());
        yield t.element() == Prim.HALF ? loadHalf(array, index, t) : C.of(array.at(PRIMARY) + "[" + index.text() + "]");
      }
      case Length l -> {
        ArrayType t = (ArrayType) l.array().type();
        if (t.space() == ArrayType.Space.GLOBAL) throw new IllegalStateException("length of a global array was not lowered: " + l);
        yield C.of(Integer.toString(t.length()));
      }
      case Call c -> intrinsic(c);
      case Alloc a -> throw new IllegalStateException("allocation outside an assignment: " + a);
      case Invoke i -> throw new IllegalStateException("call of " + i.owner() + "." + i.name() + " was not inlined");
    };
  }

  private C binary(Binary b) {
    Prim p = b.a().prim();
    Op.Binary op = b.op();
    if (p == Prim.BOOLEAN || p.isFloating()) {
      return switch (op) {
        case ADD, SUB, MUL, DIV -> binary(expr(b.a()), op.symbol, expr(b.b()), op == Op.Binary.ADD || op == Op.Binary.SUB ? ADD : MUL);
        case REM -> C.of("fmod(" + expr(b.a()).text() + ", " + expr(b.b()).text() + ")");
        case AND -> binary(expr(b.a()), "&", expr(b.b()), BAND);
        case OR -> binary(expr(b.a()), "|", expr(b.b()), BOR);
        case XOR -> binary(expr(b.a()), "^", expr(b.b()), BXOR);
        case SHL, SHR, USHR -> throw new IllegalStateException(op + " on " + p);
      };
    }
    return switch (op) {
      case ADD, SUB, MUL, SHL, USHR -> reinterpret(p, bits(b));
      case DIV, REM -> {
        if (b.b() instanceof Const c && c.longValue() != 0 && c.longValue() != -1)
          yield binary(expr(b.a()), op == Op.Binary.DIV ? "/" : "%", expr(b.b()), MUL);
        yield C.of(divide(op, p) + "(" + expr(b.a()).text() + ", " + expr(b.b()).text() + ")");
      }
      case AND -> binary(expr(b.a()), "&", expr(b.b()), BAND);
      case OR -> binary(expr(b.a()), "|", expr(b.b()), BOR);
      case XOR -> binary(expr(b.a()), "^", expr(b.b()), BXOR);
      // OpenCL (like every C compiler we target) shifts a negative signed value arithmetically.
      case SHR -> binary(expr(b.a()), ">>", distance(b.b(), p), SHIFT);
    };
  }

  /** An INT or LONG expression computed on the unsigned type of the same width, where it wraps as Java's does. */
  private C bits(Expr e) {
    Prim p = e.prim();
    return switch (e) {
      case Const c when c.longValue() >= 0 -> C.of(c.longValue() + (p == Prim.LONG ? "uL" : "u"));
      case Unary u when u.op() == Op.Unary.NEG -> unary("-", bits(u.x()));
      case Binary b when b.op() == Op.Binary.ADD || b.op() == Op.Binary.SUB -> binary(bits(b.a()), b.op().symbol, bits(b.b()), ADD);
      case Binary b when b.op() == Op.Binary.MUL -> binary(bits(b.a()), "*", bits(b.b()), MUL);
      case Binary b when b.op() == Op.Binary.SHL -> binary(bits(b.a()), "<<", distance(b.b(), p), SHIFT);
      case Binary b when b.op() == Op.Binary.USHR -> binary(bits(b.a()), ">>", distance(b.b(), p), SHIFT);
      default -> cast(type(p, true), expr(e));
    };
  }

  /** A shift distance masked as Java does (to 0..31 for INT, 0..63 for LONG). */
  private C distance(Expr d, Prim shifted) {
    int mask = shifted == Prim.LONG ? 63 : 31;
    if (d instanceof Const c) return C.of(Long.toString(c.longValue() & mask));
    return binary(expr(d), "&", C.of(Integer.toString(mask)), BAND);
  }

  private C convert(Prim to, Expr x) {
    Prim from = x.prim();
    C v = expr(x);
    if (from == to || from == Prim.BOOLEAN && to == Prim.INT) return v;
    return switch (to) {
      case BOOLEAN -> throw new IllegalStateException("no Java conversion from " + from + " to boolean");
      case INT -> from.isFloating() ? saturate(Prim.INT, v) : cast(type(Prim.INT, false), v);
      case LONG -> from.isFloating() ? saturate(Prim.LONG, v) : cast(type(Prim.LONG, false), v);
      case FLOAT, DOUBLE -> cast(type(to, false), v);
      case BYTE, SHORT, CHAR -> cast(type(Prim.INT, false),
          cast(elementType(to, ArrayType.Space.PRIVATE), from.isFloating() ? saturate(Prim.INT, v) : v));
      case HALF -> roundToHalf(from == Prim.FLOAT ? v : cast(type(Prim.FLOAT, false), v));
    };
  }

  /** A constant, written so that C reads back exactly the same value and type. */
  protected final C constant(Const c) {
    Prim p = c.type();
    return switch (p) {
      case BOOLEAN -> C.of(c.longValue() != 0 ? "1" : "0");
      case LONG -> c.longValue() == Long.MIN_VALUE ? C.of("(-9223372036854775807L-1L)") : signed(c.longValue() + "L");
      case FLOAT -> {
        float f = ((Number) c.value()).floatValue();
        if (Float.isNaN(f)) yield reinterpret(Prim.FLOAT, C.of(String.format("0x%08x", Float.floatToRawIntBits(f))));
        if (Float.isInfinite(f)) yield signed(f > 0 ? "INFINITY" : "-INFINITY");
        yield signed(Float.toString(f) + "f");
      }
      case DOUBLE -> {
        double d = ((Number) c.value()).doubleValue();
        if (Double.isNaN(d)) yield reinterpret(Prim.DOUBLE, C.of(String.format("0x%016xL", Double.doubleToRawLongBits(d))));
        if (Double.isInfinite(d)) yield d > 0 ? cast("double", C.of("INFINITY")) : unary("-", cast("double", C.of("INFINITY")));
        yield signed(Double.toString(d));
      }
      default -> c.longValue() == Integer.MIN_VALUE ? C.of("(-2147483647-1)") : signed(Long.toString(c.longValue()));
    };
  }

  private static C signed(String literal) {
    return new C(literal, literal.startsWith("-") ? UNARY : PRIMARY);
  }

  // ---- C syntax ------------------------------------------------------------------------------

  static C cast(String type, C x) {
    return new C("(" + type + ")" + x.at(UNARY), UNARY);
  }

  static C unary(String op, C x) {
    String t = x.at(UNARY);
    // "- -x" must not become "--x".
    return new C(op + (t.startsWith("-") || t.startsWith("+") ? "(" + t + ")" : t), UNARY);
  }

  /** {@code a op b} for a left-associative operator of precedence {@code prec}. */
  static C binary(C a, String op, C b, int prec) {
    return new C(operand(a, prec, false) + " " + op + " " + operand(b, prec, true), prec);
  }

  private static String operand(C x, int prec, boolean right) {
    boolean bitwise = prec >= BOR && prec <= BAND || prec == SHIFT;
    // Parenthesise what C would misread, and mixtures of bitwise and other operators, or && under ||, which people misread.
    boolean confusing = x.prec() != prec && x.prec() > ASSIGN && x.prec() < UNARY && (bitwise || prec == LOR && x.prec() == LAND);
    return (right ? x.prec() > prec : x.prec() >= prec) && !confusing ? x.text() : "(" + x.text() + ")";
  }
}
