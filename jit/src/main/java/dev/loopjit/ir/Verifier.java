// Checks the IR's own rules after a pass: types agree, variables exist, jumps have targets; what every pass may assume.
package dev.loopjit.ir;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Stmt.*;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The IR's invariants, checked on a whole kernel: operand types agree ({@link Op} and
 * {@link Expr} say which), conditions are BOOLEAN, indices INT, a store's value has its element's
 * stack type, every variable read is a parameter, a device argument or assigned somewhere, every
 * {@code Break} and {@code Continue} names an enclosing construct (a {@code Continue} a loop),
 * labels are unique, allocations appear only as an assignment's value, and — once {@code inline}
 * ran — no call is left. The compiler runs it after every pass when {@code loopjit.verifyIr} is
 * set (the test suites set it); a failure names the pass that broke the rule.
 */
public final class Verifier {
  private final List<String> problems = new ArrayList<>();
  private final Set<Var> defined = new HashSet<>();
  private final Set<Label> labels = new HashSet<>();
  private final Deque<Stmt> enclosing = new ArrayDeque<>();
  private final boolean inlined;

  private Verifier(boolean inlined) {
    this.inlined = inlined;
  }

  /** The problems of {@code k}, empty when it keeps every rule; {@code inlined}: calls must be gone. */
  public static List<String> check(KernelIR k, boolean inlined) {
    Verifier v = new Verifier(inlined);
    for (KernelIR.Param p : k.params()) if (p.var() != null) v.defined.add(p.var());
    for (KernelArg a : k.args()) v.defined.add(a.var());
    if (k.launch() instanceof Launch.Loops l) v.defined.addAll(l.countVars());
    IrWalk.walk(k.body(), new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Assign a) v.defined.add(a.var());
      }
    });
    v.stmt(k.body());
    return List.copyOf(v.problems);
  }

  /**
   * What the {@code legalise} pass leaves for the emitters: no integer {@code /} or {@code %}, no
   * integer {@code abs}, and (strict semantics) no floating {@code min}/{@code max}.
   */
  public static List<String> checkLegalised(KernelIR k, boolean fastMath) {
    List<String> problems = new ArrayList<>();
    IrWalk.walk(k.body(), new IrWalk.Visitor() {
      @Override
      public void expr(Expr e, Stmt in) {
        boolean bad = switch (e) {
          case Binary b -> (b.op() == Op.Binary.DIV || b.op() == Op.Binary.REM) && b.type() instanceof Prim p && p.isIntegral();
          case Call c -> c.type() != null && (c.op() == Intrinsic.ABS && c.type().isIntegral()
              || (c.op() == Intrinsic.MIN || c.op() == Intrinsic.MAX) && c.type().isFloating() && !fastMath);
          default -> false;
        };
        if (bad) problems.add(in.src().describe() + ": not legalised: " + IrPrinter.expr(e));
      }
    });
    return problems;
  }

  private void problem(Src at, String what) {
    problems.add((at == null || at == Src.NONE ? "" : at.describe() + ": ") + what);
  }

  /** Every statement's own rules, in source order, with the constructs around it in {@link #enclosing}. */
  private void stmt(Stmt body) {
    IrWalk.walk(body, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        check(s);
        if (s instanceof Loop || s instanceof Switch || s instanceof Labeled) enclosing.push(s);
      }

      @Override
      public boolean descend(Stmt s) {
        // the statements inside; a simple statement's expressions check() typed already
        return s instanceof Block || s instanceof If || s instanceof Loop || s instanceof Switch || s instanceof Labeled;
      }

      @Override
      public void leave(Stmt s) {
        if (s instanceof Loop || s instanceof Switch || s instanceof Labeled) enclosing.pop();
      }
    });
  }

  /** The rules of {@code s} itself (its expressions included, not the statements inside it). */
  private void check(Stmt s) {
    switch (s) {
      case Block b -> {}
      case Assign a -> {
        if (a.value() instanceof Alloc al) {
          if (!al.type().equals(a.var().type())) problem(a.src(), a.var() + " of type " + a.var().type() + " = new " + al.type());
          if ((al.type().runtimeLength() || al.type().launchSized()) != (al.length() != null)) problem(a.src(), "new " + al.type() + " with " + (al.length() == null ? "no" : "a") + " length expression");
          else if (al.length() != null && expr(al.length(), a.src()) != Prim.INT) problem(a.src(), "the length of new " + al.type() + " is not an int");
        } else {
          Type t = expr(a.value(), a.src());
          if (t != null && !t.equals(a.var().type())) problem(a.src(), a.var() + " of type " + a.var().type() + " = a " + t + " value");
        }
      }
      case Store st -> {
        Type array = expr(st.array(), st.src());
        index(st.index(), st.src());
        Type value = expr(st.value(), st.src());
        if (!(array instanceof ArrayType at)) problem(st.src(), "a store into a " + array);
        else if (value instanceof Prim v && v.stackType() != at.element().stackType()) problem(st.src(), "a " + value + " stored into " + at);
      }
      case Eval e -> {
        if (!(e.call() instanceof Call) && !(e.call() instanceof Invoke)) problem(e.src(), "evaluated for its effect: " + IrPrinter.expr(e.call()));
        expr(e.call(), e.src());
      }
      case If i -> condition(i.cond(), i.src());
      case Loop l -> label(l.label(), l.src());
      case Switch sw -> {
        label(sw.label(), sw.src());
        if (expr(sw.selector(), sw.src()) != Prim.INT) problem(sw.src(), "a switch on a non-int");
        Set<Integer> seen = new HashSet<>();
        for (Case c : sw.cases()) for (int v : c.values()) if (!seen.add(v)) problem(sw.src(), "case " + v + " twice");
      }
      case Labeled l -> label(l.label(), l.src());
      case Break b -> {
        if (enclosing.stream().noneMatch(x -> labelOf(x).equals(b.target()))) problem(b.src(), "break " + b.target() + " outside it");
      }
      case Continue c -> {
        if (enclosing.stream().noneMatch(x -> x instanceof Loop l && l.label().equals(c.target())))
          problem(c.src(), "continue " + c.target() + " outside that loop");
      }
      case Return r -> {
        if (r.value() != null) problem(r.src(), "a kernel returns a value");
      }
    }
  }

  private static Label labelOf(Stmt s) {
    return switch (s) {
      case Loop l -> l.label();
      case Switch sw -> sw.label();
      case Labeled l -> l.label();
      default -> throw new IllegalStateException(s.toString());
    };
  }

  private void label(Label l, Src at) {
    if (!labels.add(l)) problem(at, "label " + l + " used twice");
  }

  private void condition(Expr e, Src at) {
    Type t = expr(e, at);
    if (t != null && t != Prim.BOOLEAN) problem(at, "a condition of type " + t + ": " + IrPrinter.expr(e));
  }

  private void index(Expr e, Src at) {
    Type t = expr(e, at);
    if (t != null && t != Prim.INT) problem(at, "an index of type " + t + ": " + IrPrinter.expr(e));
  }

  /** The type of {@code e} after checking it (null when it has none, a void call). */
  private Type expr(Expr e, Src at) {
    switch (e) {
      case Const c -> {
        boolean ok = switch (c.type()) {
          case BOOLEAN -> c.value() instanceof Boolean;
          case INT -> c.value() instanceof Integer;
          case LONG -> c.value() instanceof Long;
          case FLOAT -> c.value() instanceof Float;
          case DOUBLE -> c.value() instanceof Double;
          default -> false;
        };
        if (!ok) problem(at, "a constant " + c.value() + " (" + (c.value() == null ? "null" : c.value().getClass().getSimpleName()) + ") of type " + c.type());
      }
      case Read r -> {
        if (!defined.contains(r.var())) problem(at, "reads " + r.var() + ", which is no parameter, argument or assigned variable");
      }
      case Unary u -> {
        Type t = expr(u.x(), at);
        if (u.op() == Op.Unary.NOT ? t != Prim.BOOLEAN : !(t instanceof Prim p && p != Prim.BOOLEAN && p == p.stackType()))
          problem(at, u.op() + " of a " + t);
      }
      case Binary b -> {
        Type x = expr(b.a(), at), y = expr(b.b(), at);
        boolean bitwise = b.op() == Op.Binary.AND || b.op() == Op.Binary.OR || b.op() == Op.Binary.XOR;
        if (b.op().isShift()) {
          if (!(x == Prim.INT || x == Prim.LONG) || y != Prim.INT) problem(at, "shift " + x + " by " + y + ": " + IrPrinter.expr(e));
        } else if (x != y || !(x instanceof Prim p) || p != p.stackType() && p != Prim.BOOLEAN || p == Prim.BOOLEAN && !bitwise
            || bitwise && (p == Prim.FLOAT || p == Prim.DOUBLE)) {
          problem(at, b.op() + " of " + x + " and " + y + ": " + IrPrinter.expr(e));
        }
      }
      case Compare c -> {
        Type x = expr(c.a(), at), y = expr(c.b(), at);
        if (x != y || !(x instanceof Prim)) problem(at, "comparison of " + x + " and " + y + ": " + IrPrinter.expr(e));
      }
      case Logic l -> {
        condition(l.a(), at);
        condition(l.b(), at);
      }
      case Convert c -> {
        Type x = expr(c.x(), at);
        if (!(x instanceof Prim)) problem(at, "conversion of a " + x);
      }
      case Select s -> {
        condition(s.cond(), at);
        Type x = expr(s.a(), at), y = expr(s.b(), at);
        if (x != null && !x.equals(y)) problem(at, "?: of " + x + " and " + y + ": " + IrPrinter.expr(e));
      }
      case Load l -> {
        Type a = expr(l.array(), at);
        index(l.index(), at);
        if (!(a instanceof ArrayType)) problem(at, "a load from a " + a);
      }
      case Length l -> {
        if (!(expr(l.array(), at) instanceof ArrayType)) problem(at, "the length of a non-array");
      }
      case Alloc a -> problem(at, "an allocation that is not a variable's value");
      case Call c -> c.args().forEach(x -> expr(x, at));
      case Invoke i -> {
        if (inlined) problem(at, "a call left after inlining: " + IrPrinter.expr(e));
        i.args().forEach(x -> expr(x, at));
      }
    }
    return e instanceof Call c ? c.type() : e.type();
  }
}
