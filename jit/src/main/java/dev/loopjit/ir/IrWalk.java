// The one read-only walk over the IR: every statement and every expression, in source order.
package dev.loopjit.ir;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Stmt.*;
import java.util.function.Predicate;

/**
 * Visits a tree in source order (so what is collected is deterministic): each statement before
 * its children, each expression before its operands, every expression with the statement it sits
 * in (for its {@link Src}). Analyses that only read the IR use this rather than their own switch
 * over every node; {@link Rewriter} is the counterpart that rebuilds.
 */
public final class IrWalk {
  private IrWalk() {}

  /**
   * What a walk calls; all default to nothing (and to walking everything). A visitor that needs
   * to know what encloses a statement (inside a loop, the labels in scope) counts in {@link #stmt}
   * and uncounts in {@link #leave}.
   */
  public interface Visitor {
    /** Each statement, blocks included, before its children. */
    default void stmt(Stmt s) {}

    /** Asked after {@link #stmt}: whether to walk {@code s}'s own expressions and the statements inside it. */
    default boolean descend(Stmt s) {
      return true;
    }

    /** Each statement after its expressions and children (or right after {@link #descend} said no). */
    default void leave(Stmt s) {}

    /** Each expression and sub-expression, with the statement it sits in. */
    default void expr(Expr e, Stmt in) {}
  }

  /** Walks {@code s} and everything in it. */
  public static void walk(Stmt s, Visitor v) {
    v.stmt(s);
    if (v.descend(s)) children(s, v);
    v.leave(s);
  }

  private static void children(Stmt s, Visitor v) {
    switch (s) {
      case Block b -> b.stmts().forEach(x -> walk(x, v));
      case Assign a -> walk(a.value(), s, v);
      case Store st -> {
        walk(st.array(), s, v);
        walk(st.index(), s, v);
        walk(st.value(), s, v);
      }
      case Eval e -> walk(e.call(), s, v);
      case If i -> {
        walk(i.cond(), s, v);
        walk(i.then(), v);
        walk(i.otherwise(), v);
      }
      case Loop l -> {
        walk(l.body(), v);
        walk(l.update(), v);
      }
      case Switch sw -> {
        walk(sw.selector(), s, v);
        sw.cases().forEach(c -> walk(c.body(), v));
      }
      case Labeled l -> walk(l.body(), v);
      case Return r -> {
        if (r.value() != null) walk(r.value(), s, v);
      }
      case Break b -> {}
      case Continue c -> {}
    }
  }

  /** Walks {@code e} and its operands; {@code in} is the statement it sits in. */
  public static void walk(Expr e, Stmt in, Visitor v) {
    v.expr(e, in);
    switch (e) {
      case Unary u -> walk(u.x(), in, v);
      case Binary b -> {
        walk(b.a(), in, v);
        walk(b.b(), in, v);
      }
      case Compare c -> {
        walk(c.a(), in, v);
        walk(c.b(), in, v);
      }
      case Logic l -> {
        walk(l.a(), in, v);
        walk(l.b(), in, v);
      }
      case Convert c -> walk(c.x(), in, v);
      case Select s -> {
        walk(s.cond(), in, v);
        walk(s.a(), in, v);
        walk(s.b(), in, v);
      }
      case Load l -> {
        walk(l.array(), in, v);
        walk(l.index(), in, v);
      }
      case Length l -> walk(l.array(), in, v);
      case Call c -> c.args().forEach(x -> walk(x, in, v));
      case Invoke i -> i.args().forEach(x -> walk(x, in, v));
      case Const c -> {}
      case Read r -> {}
      case Alloc a -> {
        if (a.length() != null) walk(a.length(), in, v);
      }
    }
  }

  /** Whether some expression in {@code s} satisfies {@code p}. */
  public static boolean anyExpr(Stmt s, Predicate<Expr> p) {
    boolean[] found = {false};
    walk(s, new Visitor() {
      @Override
      public void expr(Expr e, Stmt in) {
        found[0] |= p.test(e);
      }
    });
    return found[0];
  }

  /** Whether {@code e} or one of its operands, at any depth, satisfies {@code p}. */
  public static boolean anyExpr(Expr e, Predicate<Expr> p) {
    boolean[] found = {false};
    walk(e, null, new Visitor() {
      @Override
      public void expr(Expr x, Stmt in) {
        found[0] |= p.test(x);
      }
    });
    return found[0];
  }

  /** The variables {@code s} assigns anywhere inside (itself included), in order of first assignment. */
  public static java.util.Set<Var> assigned(Stmt s) {
    java.util.Set<Var> out = new java.util.LinkedHashSet<>();
    walk(s, new Visitor() {
      @Override
      public void stmt(Stmt x) {
        if (x instanceof Assign a) out.add(a.var());
      }
    });
    return out;
  }

  /** The number of statements in {@code s} (itself included) that satisfy {@code p}. */
  public static int countStmts(Stmt s, Predicate<Stmt> p) {
    int[] n = {0};
    walk(s, new Visitor() {
      @Override
      public void stmt(Stmt x) {
        if (p.test(x)) n[0]++;
      }
    });
    return n[0];
  }

  /** Whether some statement in {@code s} (itself included) satisfies {@code p}. */
  public static boolean anyStmt(Stmt s, Predicate<Stmt> p) {
    boolean[] found = {false};
    walk(s, new Visitor() {
      @Override
      public void stmt(Stmt x) {
        found[0] |= p.test(x);
      }
    });
    return found[0];
  }
}
