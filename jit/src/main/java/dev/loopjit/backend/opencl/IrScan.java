// Read-only walks over a kernel's IR that the C emitters need before they write: variables and types used.
package dev.loopjit.backend.opencl;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Type;
import dev.loopjit.ir.Var;
import java.util.Set;
import java.util.function.Consumer;

/** Walks statements and expressions in source order (so results are deterministic). */
final class IrScan {
  private IrScan() {}

  /** Adds every variable assigned or read in {@code s} to {@code vars}, in order of first appearance. */
  static void vars(Stmt s, Set<Var> vars) {
    walk(s, vars::add, e -> {
      if (e instanceof Read r) vars.add(r.var());
    });
  }

  /** Whether the kernel has a value, variable or array of DOUBLE anywhere. */
  static boolean usesDouble(KernelIR k) {
    boolean[] found = {false};
    for (KernelArg a : k.args()) found[0] |= isDouble(a.var().type());
    walk(k.body(), v -> found[0] |= isDouble(v.type()), e -> found[0] |= e instanceof Call c ? c.type() == Prim.DOUBLE : isDouble(e.type()));
    return found[0];
  }

  private static boolean isDouble(Type t) {
    return t == Prim.DOUBLE || t instanceof ArrayType a && a.element() == Prim.DOUBLE;
  }

  /** Calls {@code assigned} for each assignment target and {@code expr} for each expression and sub-expression. */
  static void walk(Stmt s, Consumer<Var> assigned, Consumer<Expr> expr) {
    switch (s) {
      case Block b -> b.stmts().forEach(x -> walk(x, assigned, expr));
      case Assign a -> {
        assigned.accept(a.var());
        walk(a.value(), expr);
      }
      case Store st -> {
        walk(st.array(), expr);
        walk(st.index(), expr);
        walk(st.value(), expr);
      }
      case Eval e -> walk(e.call(), expr);
      case If i -> {
        walk(i.cond(), expr);
        walk(i.then(), assigned, expr);
        walk(i.otherwise(), assigned, expr);
      }
      case Loop l -> {
        walk(l.body(), assigned, expr);
        walk(l.update(), assigned, expr);
      }
      case Switch sw -> {
        walk(sw.selector(), expr);
        sw.cases().forEach(c -> walk(c.body(), assigned, expr));
      }
      case Labeled l -> walk(l.body(), assigned, expr);
      case Return r -> {
        if (r.value() != null) walk(r.value(), expr);
      }
      case Break b -> {}
      case Continue c -> {}
    }
  }

  static void walk(Expr e, Consumer<Expr> expr) {
    expr.accept(e);
    switch (e) {
      case Unary u -> walk(u.x(), expr);
      case Binary b -> {
        walk(b.a(), expr);
        walk(b.b(), expr);
      }
      case Compare c -> {
        walk(c.a(), expr);
        walk(c.b(), expr);
      }
      case Logic l -> {
        walk(l.a(), expr);
        walk(l.b(), expr);
      }
      case Convert c -> walk(c.x(), expr);
      case Select s -> {
        walk(s.cond(), expr);
        walk(s.a(), expr);
        walk(s.b(), expr);
      }
      case Load l -> {
        walk(l.array(), expr);
        walk(l.index(), expr);
      }
      case Length l -> walk(l.array(), expr);
      case Call c -> c.args().forEach(x -> walk(x, expr));
      case Invoke i -> i.args().forEach(x -> walk(x, expr));
      case Const c -> {}
      case Read r -> {}
      case Alloc a -> {}
    }
  }
}
