// Pass "simplify": forwards single-use temporaries, turns assignment diamonds back into ?:, tidies boolean tests.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Undoes what the operand stack did to the code's shape, so that emitted kernels read like the
 * Java they came from (and PoCL sees selects, not branches):
 * <ul>
 * <li>{@code if (c) t = a; else t = b;} becomes {@code t = c ? a : b}; {@code c ? 1 : 0} becomes a conversion;
 * <li>a temporary assigned once and read once, in the very next statement's own expression, is
 *     replaced by its value (nothing runs in between, so nothing it reads can change);
 * <li>{@code (int) b != 0} becomes {@code b}, {@code !!x} becomes {@code x}, an if with an empty
 *     then-branch is flipped.
 * </ul>
 */
final class Simplify implements Pass {
  @Override
  public String name() {
    return "simplify";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    Stmt.Block body = ir.body();
    for (int round = 0; round < 3; round++) {
      body = diamonds(body);
      body = forward(body, ir.temps(), counts(body));
      body = TIDY.rewrite(body);
      body = floatMath(cx).rewrite(body);
      body = Fold.INSTANCE.rewrite(body);
    }
    return ir.withBody(body);
  }

  // ---------------------------------------------------------------- diamonds

  private static Block diamonds(Block b) {
    return new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt s) {
        List<Stmt> selects = s instanceof If i ? selects(i) : null;
        return selects != null ? selects : List.of(s);
      }
    }.rewrite(b);
  }

  /**
   * {@code if (c) { x = a; y = b; } else { x = a2; y = b2; }} as {@code x = c ? a : a2; y = c ? b : b2}:
   * both arms assign the same primitive variables in the same order, with pure values that read
   * none of them (nor does {@code c}), so the order of evaluation cannot matter. Null otherwise.
   */
  private static List<Stmt> selects(If i) {
    List<Stmt> then = i.then().stmts(), otherwise = i.otherwise().stmts();
    if (then.isEmpty() || then.size() != otherwise.size()) return null;
    List<Var> vars = new ArrayList<>();
    for (int k = 0; k < then.size(); k++) {
      if (!(then.get(k) instanceof Assign a && otherwise.get(k) instanceof Assign o && a.var().equals(o.var()) && a.var().type() instanceof Prim
          && Effects.pure(a.value()) && Effects.pure(o.value()) && !vars.contains(a.var()))) return null;
      vars.add(a.var());
    }
    if (vars.size() > 1)
      for (Var v : vars) {
        if (Effects.reads(i.cond(), v)) return null;
        for (int k = 0; k < then.size(); k++)
          if (Effects.reads(((Assign) then.get(k)).value(), v) || Effects.reads(((Assign) otherwise.get(k)).value(), v)) return null;
      }
    List<Stmt> out = new ArrayList<>();
    for (int k = 0; k < then.size(); k++)
      out.add(new Assign(vars.get(k), select(i.cond(), ((Assign) then.get(k)).value(), ((Assign) otherwise.get(k)).value()), i.src()));
    return out;
  }

  private static Expr select(Expr c, Expr a, Expr b) {
    if (isInt(a, 1) && isInt(b, 0)) return new Convert(Prim.INT, c);
    if (isInt(a, 0) && isInt(b, 1)) return new Convert(Prim.INT, Structurer.not(c));
    return new Select(c, a, b);
  }

  private static boolean isInt(Expr e, int v) {
    return e instanceof Const c && c.type() == Prim.INT && c.longValue() == v;
  }



  // ---------------------------------------------------------------- forwarding

  private record Uses(Map<Var, Integer> defs, Map<Var, Integer> reads) {}

  private static Uses counts(Block body) {
    Map<Var, Integer> defs = new HashMap<>(), reads = new HashMap<>();
    IrWalk.walk(body, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Assign a) defs.merge(a.var(), 1, Integer::sum);
      }

      @Override
      public void expr(Expr e, Stmt in) {
        if (e instanceof Read r) reads.merge(r.var(), 1, Integer::sum);
      }
    });
    return new Uses(defs, reads);
  }

  /**
   * In every block, inner ones first: a temporary assigned once, read once, by the statement right
   * after, with a pure value, is replaced there by that value.
   */
  private static Block forward(Block b, java.util.Set<Var> temps, Uses uses) {
    return new Rewriter() {
      @Override
      protected List<Stmt> block(List<Stmt> in) {
        List<Stmt> out = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
          Stmt s = in.get(i);
          if (i + 1 < in.size() && s instanceof Assign a && temps.contains(a.var())
              && uses.defs().getOrDefault(a.var(), 0) == 1 && uses.reads().getOrDefault(a.var(), 0) == 1 && Effects.pure(a.value())) {
            Stmt next = substituteHead(in.get(i + 1), a.var(), a.value());
            if (next != null) {
              in.set(i + 1, next);
              continue;
            }
          }
          out.add(s);
        }
        return out;
      }
    }.rewrite(b);
  }

  /** {@code s} with the read of {@code v} in its own expression replaced, or null if {@code v} is not read there. */
  private static Stmt substituteHead(Stmt s, Var v, Expr value) {
    Rewriter r = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        return e instanceof Read x && x.var().equals(v) ? value : e;
      }
    };
    return switch (s) {
      case Assign a when Effects.reads(a.value(), v) -> new Assign(a.var(), r.rewrite(a.value()), a.src());
      case Store st when Effects.reads(st.array(), v) || Effects.reads(st.index(), v) || Effects.reads(st.value(), v) ->
          new Store(r.rewrite(st.array()), r.rewrite(st.index()), r.rewrite(st.value()), st.src());
      case Eval e when Effects.reads(e.call(), v) -> new Eval(r.rewrite(e.call()), e.src());
      case If i when Effects.reads(i.cond(), v) -> new If(r.rewrite(i.cond()), i.then(), i.otherwise(), i.src());
      case Switch sw when Effects.reads(sw.selector(), v) -> new Switch(sw.label(), r.rewrite(sw.selector()), sw.cases(), sw.src());
      case Return ret when ret.value() != null && Effects.reads(ret.value(), v) -> new Return(r.rewrite(ret.value()), ret.src());
      default -> null;
    };
  }

  /**
   * {@code (float) Math.f((double) x)} for a float x computed in float: always for sqrt (the double
   * square root rounded to float is the correctly rounded float square root), and for the other
   * functions the target has in float under fast math only (they round differently).
   */
  private static Rewriter floatMath(Context cx) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (!(e instanceof Convert cv) || cv.to() != Prim.FLOAT || !(cv.x() instanceof Call c) || c.type() != Prim.DOUBLE) return e;
        boolean exact = c.op() == dev.loopjit.ir.Intrinsic.SQRT;
        boolean math = Intrinsics.javaBody(c.op(), Prim.DOUBLE) != null;
        if (!exact && !(math && cx.target.fastMath() && cx.target.isNative(c.op()))) return e;
        java.util.List<Expr> args = new java.util.ArrayList<>();
        for (Expr a : c.args()) {
          if (!(a instanceof Convert w && w.to() == Prim.DOUBLE && w.x().type() == Prim.FLOAT)) return e;
          args.add(w.x());
        }
        return new Call(c.op(), Prim.FLOAT, args);
      }
    };
  }

  /**
   * {@code Math.max(c, x)} with c = +0.0 or any other number, and {@code Math.min(c, x)} with c =
   * -0.0 or any other number, are {@code x <= c ? c : x} / {@code x >= c ? c : x} exactly — NaN
   * falls through to x, and the zero case picks c's sign as Java does — which devices run much
   * faster than the general NaN- and sign-aware min/max (relu is {@code Math.max(0f, x)}).
   */
  private static Expr constantMinMax(Expr e) {
    if (!(e instanceof Call c) || (c.op() != dev.loopjit.ir.Intrinsic.MIN && c.op() != dev.loopjit.ir.Intrinsic.MAX)
        || c.type() == null || !c.type().isFloating()) return null;
    Expr a = c.args().get(0), b = c.args().get(1);
    Const k = a instanceof Const x ? x : b instanceof Const y ? y : null;
    if (k == null || (a instanceof Const && b instanceof Const)) return null;
    Expr x = k == a ? b : a;
    if (!(x instanceof Read || x instanceof Load l && Effects.pure(l))) return null; // x appears twice: only what is cheap to repeat
    double v = ((Number) k.value()).doubleValue();
    boolean max = c.op() == dev.loopjit.ir.Intrinsic.MAX;
    boolean negativeZero = v == 0 && 1 / v < 0;
    if (Double.isNaN(v) || (v == 0 && negativeZero == max)) return null; // max(-0.0, x), min(+0.0, x): the sign rule needs the full form
    return new Select(new Compare(max ? Op.Compare.LE : Op.Compare.GE, x, k), k, x);
  }

  // ---------------------------------------------------------------- boolean tidying

  private static final Rewriter TIDY = new Rewriter() {
    @Override
    protected Expr expr(Expr e) {
      Expr minMax = constantMinMax(e);
      if (minMax != null) return minMax;
      if (e instanceof Compare c && (c.op() == Op.Compare.NE || c.op() == Op.Compare.EQ) && isInt(c.b(), 0)
          && c.a() instanceof Convert cv && cv.to() == Prim.INT && cv.x().type() == Prim.BOOLEAN)
        return c.op() == Op.Compare.NE ? cv.x() : Structurer.not(cv.x());
      if (e instanceof Unary u && u.op() == Op.Unary.NOT) {
        if (u.x() instanceof Unary inner && inner.op() == Op.Unary.NOT) return inner.x();
        if (u.x() instanceof Compare c && !c.a().prim().isFloating()) return new Compare(c.op().negate(), c.a(), c.b());
      }
      return e;
    }

    @Override
    protected List<Stmt> stmts(Stmt s) {
      if (s instanceof If i && i.then().isEmpty() && !i.otherwise().isEmpty())
        return List.of(new If(Structurer.not(i.cond()), i.otherwise(), Block.EMPTY, i.src()));
      if (s instanceof If i && i.then().isEmpty() && i.otherwise().isEmpty() && Effects.pure(i.cond())) return List.of();
      return List.of(s);
    }
  };
}
