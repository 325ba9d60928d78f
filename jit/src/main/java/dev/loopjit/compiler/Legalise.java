// Pass "legalise": Java's meaning of integer / % abs and floating min max, written once in the IR for every emitter.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;

/**
 * Where Java's meaning and a device's own operation part at the edges, the IR is rewritten here,
 * once for every emitter, into operations that mean the same everywhere:
 * <ul>
 * <li>integer {@code a / b} and {@code a % b}: the device's division ({@link Intrinsic#DIV_UNCHECKED},
 *     {@link Intrinsic#REM_UNCHECKED}), which is Java's whenever the divisor is neither 0 nor -1
 *     (C, PTX and SPIR-V leave those undefined), by {@code d = b == 0 || b == -1 ? 1 : b}; then
 *     {@code b == -1 ? -a : b == 0 ? 0 : a /u d} for the quotient (the remainder by 1 is already
 *     the 0 Java and the IR want) — no branch, so GPUs keep every lane together; a constant divisor
 *     needs none of it;
 * <li>{@code Math.abs} of an int or long: {@code x < 0 ? -x : x} with the IR's wrapping negation
 *     (Java gives MIN_VALUE for MIN_VALUE; OpenCL's {@code abs} is undefined there to LLVM);
 * <li>{@code Math.min}/{@code max} of floats and doubles (strict semantics): NaN if either is NaN,
 *     -0.0 below 0.0 ({@code a != a ? a : b != b ? b : a == b ? bits(a) | bits(b) : a < b ? a : b}
 *     for min, {@code &} for max) — with fast math the device's own min and max stay.
 * </ul>
 * An operand the rewrite uses more than once is first put in a temporary computed just before the
 * statement (unless it is a variable or a constant, or it reads memory under a condition that may
 * guard it, where it is repeated instead: every operand is pure).
 */
final class Legalise implements Pass {
  @Override
  public String name() {
    return "legalise";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    boolean strictFloats = !cx.target.fastMath();
    return ir.withBody(new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt s) {
        Statement at = new Statement(s, new ArrayList<>(), cx, strictFloats);
        Stmt legal = switch (s) {
          case Assign a -> new Assign(a.var(), at.legal(a.value(), false), a.src());
          case Store st -> new Store(at.legal(st.array(), false), at.legal(st.index(), false), at.legal(st.value(), false), st.src());
          case Eval e -> new Eval(at.legal(e.call(), false), e.src());
          case If i -> new If(at.legal(i.cond(), false), i.then(), i.otherwise(), i.src());
          case Switch sw -> new Switch(sw.label(), at.legal(sw.selector(), false), sw.cases(), sw.src());
          case Return r when r.value() != null -> new Return(at.legal(r.value(), false), r.src());
          default -> s;
        };
        if (at.before().isEmpty()) return List.of(legal);
        at.before().add(legal);
        return at.before();
      }
    }.rewrite(ir.body()));
  }

  /** The legalising of one statement's expressions; temporaries for operands go to {@code before}. */
  private record Statement(Stmt stmt, List<Stmt> before, Context cx, boolean strictFloats) {
    /** {@code e} with every operation above legalised, operands first; {@code conditional}: it may not be evaluated. */
    Expr legal(Expr e, boolean conditional) {
      Expr x = switch (e) {
        case Logic l -> new Logic(l.op(), legal(l.a(), conditional), legal(l.b(), true));
        case Select s -> new Select(legal(s.cond(), conditional), legal(s.a(), true), legal(s.b(), true));
        case Unary u -> new Unary(u.op(), legal(u.x(), conditional));
        case Binary b -> new Binary(b.op(), legal(b.a(), conditional), legal(b.b(), conditional));
        case Compare c -> new Compare(c.op(), legal(c.a(), conditional), legal(c.b(), conditional));
        case Convert c -> new Convert(c.to(), legal(c.x(), conditional));
        case Load l -> new Load(legal(l.array(), conditional), legal(l.index(), conditional));
        case Call c -> new Call(c.op(), c.type(), c.args().stream().map(a -> legal(a, conditional)).toList());
        case Length l -> l;
        case Const c -> c;
        case Read r -> r;
        // an array sized at launch that JVM bytecode makes at its length (pass launchSized): that length legalised
        case Alloc a -> a.length() != null && a.type().launchSized() ? new Alloc(a.type(), legal(a.length(), conditional)) : a;
        case Invoke i -> i;
      };
      return switch (x) {
        case Binary b when (b.op() == Op.Binary.DIV || b.op() == Op.Binary.REM) && b.prim().isIntegral() -> Fold.fold(division(b, conditional));
        case Call c when c.op() == Intrinsic.ABS && c.type() != null && c.type().isIntegral() -> {
          Expr v = once(c.args().get(0), conditional);
          yield Fold.fold(new Select(new Compare(Op.Compare.LT, v, zero(c.type())), new Unary(Op.Unary.NEG, v), v));
        }
        case Call c when (c.op() == Intrinsic.MIN || c.op() == Intrinsic.MAX) && strictFloats && c.type() != null && c.type().isFloating() ->
            Fold.fold(floatMinMax(c.op() == Intrinsic.MIN, c.type(), once(c.args().get(0), conditional), once(c.args().get(1), conditional)));
        default -> x;
      };
    }

    /** Java's integer division or remainder: 0 for a zero divisor, wrapping at MIN_VALUE / -1. */
    private Expr division(Binary b, boolean conditional) {
      boolean div = b.op() == Op.Binary.DIV;
      Prim p = b.prim();
      Intrinsic unchecked = div ? Intrinsic.DIV_UNCHECKED : Intrinsic.REM_UNCHECKED;
      if (b.b() instanceof Const k) {
        long d = k.longValue();
        if (d == 0) return zero(p);
        if (d == -1) return div ? new Unary(Op.Unary.NEG, b.a()) : zero(p);
        return new Call(unchecked, p, List.of(b.a(), b.b()));
      }
      Expr a = once(b.a(), conditional), d = once(b.b(), conditional);
      Expr minusOne = p == Prim.LONG ? Const.of(-1L) : Const.of(-1), one = p == Prim.LONG ? Const.of(1L) : Const.of(1);
      Expr special = new Logic(Op.Logic.OR, new Compare(Op.Compare.EQ, d, zero(p)), new Compare(Op.Compare.EQ, d, minusOne));
      Expr safe = once(new Select(special, one, d), conditional);
      Expr result = once(new Call(unchecked, p, List.of(a, safe)), conditional);
      if (!div) return result;
      return new Select(new Compare(Op.Compare.EQ, d, minusOne), new Unary(Op.Unary.NEG, a),
          new Select(new Compare(Op.Compare.EQ, d, zero(p)), zero(p), result));
    }

    /**
     * An operand the rewrite uses more than once: a variable or constant as it is; else a temporary
     * computed just before the statement — unless it reads memory where it may not be evaluated
     * (a condition may guard the load), where it is repeated instead (operands are pure).
     */
    private Expr once(Expr e, boolean conditional) {
      if (e instanceof Read || e instanceof Const || conditional && Effects.readsMemory(e)) return e;
      Var t = cx.names.fresh("op", e.prim());
      before.add(new Assign(t, e, stmt.src()));
      return new Read(t);
    }
  }

  /** Java's Math.min or max of floats or doubles: NaN wins, and -0.0 is below 0.0. */
  private static Expr floatMinMax(boolean min, Prim p, Expr a, Expr b) {
    boolean d = p == Prim.DOUBLE;
    Intrinsic toBits = d ? Intrinsic.DOUBLE_BITS : Intrinsic.FLOAT_BITS, fromBits = d ? Intrinsic.BITS_DOUBLE : Intrinsic.BITS_FLOAT;
    Prim bits = d ? Prim.LONG : Prim.INT;
    Expr signs = new Call(fromBits, p, List.of(new Binary(min ? Op.Binary.OR : Op.Binary.AND,
        new Call(toBits, bits, List.of(a)), new Call(toBits, bits, List.of(b)))));
    Expr ordered = new Select(new Compare(min ? Op.Compare.LT : Op.Compare.GT, a, b), a, b);
    return new Select(new Compare(Op.Compare.NE, a, a), a, new Select(new Compare(Op.Compare.NE, b, b), b,
        new Select(new Compare(Op.Compare.EQ, a, b), signs, ordered)));
  }

  private static Const zero(Prim p) {
    return switch (p) {
      case LONG -> Const.of(0L);
      case FLOAT -> Const.of(0f);
      case DOUBLE -> Const.of(0.0);
      default -> Const.of(0);
    };
  }
}
