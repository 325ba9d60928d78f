// The statement half of the C-family kernel emitters: variable declarations and structured control flow in C.
package dev.loopjit.backend.c;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.TransposedLoad;
import dev.loopjit.ir.Uses;
import dev.loopjit.ir.Var;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Lowered IR to the body of a C-family kernel, one statement per line. Every variable is declared
 * (zeroed) at the top, C89-style, so jumps never cross a declaration. Java's labelled
 * break/continue become C's {@code break}/{@code continue} where C means the same thing (the
 * target is the innermost loop or switch, and a continue's loop has its update in the for
 * header), and a {@code goto} to a label after the construct ({@code <label>_end_}) or before the
 * loop's update ({@code <label>_next_}) otherwise.
 */
public abstract class CEmitter extends CExpressions {
  private final StringBuilder out = new StringBuilder();
  private final Deque<Frame> frames = new ArrayDeque<>();
  private int depth = 1;
  /** The lane arrays and loops written as vectors ({@link #laneVectors()}). */
  private LanesAsVectors vectors = LanesAsVectors.NONE;

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

  /** The statement storing FLOAT {@code value} into a HALF array, rounding to nearest even. */
  protected abstract String storeHalf(C array, C index, C value, ArrayType t);

  // ---- the kernel ----------------------------------------------------------------------------

  /** The declarations and statements of {@code k}'s body, indented one level; names its arguments first. */
  protected final String body(KernelIR k) {
    if (laneVectors()) vectors = LanesAsVectors.of(k.body());
    Set<Var> vars = new LinkedHashSet<>(Uses.of(k.body()).vars());
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
    if (vectors.arrays().contains(v)) return vectorType(t.element(), t.length()) + " " + name + " = 0.0f;";
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
      case BOOLEAN, BYTE, SHORT, CHAR, INT, HALF -> "0";
    };
  }

  // ---- statements ----------------------------------------------------------------------------

  protected final void line(String s) {
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
      case Eval e when e.call() instanceof Call c && c.op() == Intrinsic.LOAD_TRANSPOSED -> transposedLoad(TransposedLoad.of(c), e.src());
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

  /** Rows of memory read into a tile by columns ({@link Intrinsic#LOAD_TRANSPOSED}): here element by element. */
  protected void transposedLoad(TransposedLoad b, Src at) {
    block(b.asStores(at));
  }

  private void assign(Assign a) {
    String name = names.of(a.var());
    if (a.value() instanceof Alloc alloc) {
      if (!(a.var().type() instanceof ArrayType t) || t.space() == ArrayType.Space.GLOBAL)
        throw new IllegalStateException("cannot allocate " + alloc.type() + " into " + a.var() + ": " + a.src().describe());
      // Java's `new T[n]` is zeroed every time it runs; local arrays are declared at kernel scope.
      if (vectors.arrays().contains(a.var())) line(name + " = 0.0f;");
      else if (t.space() == ArrayType.Space.PRIVATE) {
        // Unrolled where lane loops are: a loop left rolled keeps the array in memory (the device compiler's SROA gives up on it)
        if (unrollHint() && t.length() <= UNROLL_MAX) line("#pragma unroll");
        line("for (int z = 0; z < " + t.length() + "; z++) " + name + "[z] = 0;");
      }
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
      case INT, LONG, FLOAT, DOUBLE, HALF -> value.text();
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
    if (vectors.loops().containsKey(l)) {
      vectorLoop(l, vectors.loops().get(l));
      return;
    }
    List<Stmt> body = l.body().stmts();
    String cond = null;
    if (!body.isEmpty() && body.get(0) instanceof If i && isBreakOf(i.then(), l.label()) && i.otherwise().isEmpty()) {
      cond = condition(new Unary(Op.Unary.NOT, i.cond()));
      body = body.subList(1, body.size());
    }
    String update = updateExpression(l.update());
    Frame f = push(l, l.label());
    f.plainContinue = update != null;
    if (update != null && !update.isEmpty() && unrollHint() && constantTrips(l)) line("#pragma unroll");
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

  /**
   * A lane loop as one vector statement ({@link LanesAsVectors}): its store's value computed on
   * {@code floatW} values, into a lane array or with {@code vstoreW} into memory; the lane variable
   * then holds W, as after the loop.
   */
  private void vectorLoop(Loop l, Var lane) {
    Store st = (Store) l.body().stmts().get(1);
    int width = (int) ((Const) ((Compare) ((If) l.body().stmts().get(0)).cond()).b()).longValue();
    String value = vector(st.value(), lane, width);
    if (st.array() instanceof Read r && vectors.arrays().contains(r.var())) line(names.of(r.var()) + " = " + value + ";");
    else line("vstore" + width + "(" + value + ", 0, " + expr(st.array()).at(PRIMARY) + " + (" + expr(LanesAsVectors.base(st.index(), lane)).text() + "));");
    line(names.of(lane) + " = " + width + ";");
  }

  /** {@code e} on vectors of {@code width} lanes: a lane array by name, {@code g[base + lane]} as {@code vloadW}, a value the same for every lane as it is. */
  private String vector(Expr e, Var lane, int width) {
    if (e instanceof Load ld && ld.array() instanceof Read r && vectors.arrays().contains(r.var())) return names.of(r.var());
    if (e instanceof Load ld && LanesAsVectors.base(ld.index(), lane) != null)
      return "vload" + width + "(0, " + expr(ld.array()).at(PRIMARY) + " + (" + expr(LanesAsVectors.base(ld.index(), lane)).text() + "))";
    if (e instanceof Binary b && b.a().prim() == Prim.FLOAT && (b.op() == Op.Binary.ADD || b.op() == Op.Binary.SUB || b.op() == Op.Binary.MUL
        || b.op() == Op.Binary.DIV)) return "(" + vector(b.a(), lane, width) + " " + b.op().symbol + " " + vector(b.b(), lane, width) + ")";
    return "(" + expr(e).text() + ")";
  }

  /** Whether lane arrays and loops are written as vectors ({@link LanesAsVectors}; OpenCL C on CPU targets with lanes). */
  protected boolean laneVectors() {
    return false;
  }

  /** The vector type of {@code width} elements of {@code p} ({@code float16}). */
  protected String vectorType(Prim p, int width) {
    throw new UnsupportedOperationException("no vector types in this dialect");
  }

  /** Whether the emitted code asks the device compiler to unroll loops of a few constant trips (CPU targets). */
  protected boolean unrollHint() {
    return false;
  }

  /** The most trips a loop may have for {@link #unrollHint()}: the coarsen pass's lane loops, and loops as small. */
  private static final int UNROLL_MAX = 64;

  /** {@code for (; v < C; v = v + 1)} with a constant C of at most {@link #UNROLL_MAX}. */
  private static boolean constantTrips(Loop l) {
    List<Stmt> body = l.body().stmts(), update = l.update().stmts();
    if (body.isEmpty() || !(body.get(0) instanceof If i) || !isBreakOf(i.then(), l.label()) || update.size() != 1) return false;
    if (!(i.cond() instanceof Compare c) || c.op() != Op.Compare.GE || !(c.a() instanceof Read v) || !(c.b() instanceof Const k)
        || k.longValue() > UNROLL_MAX) return false;
    return update.get(0) instanceof Assign a && a.var().equals(v.var()) && a.value() instanceof Binary b && b.op() == Op.Binary.ADD
        && b.a() instanceof Read r && r.var().equals(v.var()) && b.b() instanceof Const one && one.longValue() == 1;
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
}
