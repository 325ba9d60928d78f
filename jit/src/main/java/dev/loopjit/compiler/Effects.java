// What an expression reads and whether evaluating it could have an effect: the questions passes ask before moving code.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Var;

/** Queries over expressions, for code motion (spilling, forwarding, hoisting). */
final class Effects {
  private Effects() {}

  /** Whether {@code e} reads variable {@code v}. */
  static boolean reads(Expr e, Var v) {
    return switch (e) {
      case Read r -> r.var().equals(v);
      case Const c -> false;
      case Alloc a -> a.length() != null && reads(a.length(), v);
      case Unary u -> reads(u.x(), v);
      case Binary b -> reads(b.a(), v) || reads(b.b(), v);
      case Compare c -> reads(c.a(), v) || reads(c.b(), v);
      case Logic l -> reads(l.a(), v) || reads(l.b(), v);
      case Convert c -> reads(c.x(), v);
      case Select s -> reads(s.cond(), v) || reads(s.a(), v) || reads(s.b(), v);
      case Load l -> reads(l.array(), v) || reads(l.index(), v);
      case Length l -> reads(l.array(), v);
      case Call c -> c.args().stream().anyMatch(x -> reads(x, v));
      case Invoke i -> i.args().stream().anyMatch(x -> reads(x, v));
    };
  }

  /** Whether {@code e} reads memory or calls something with an effect (its value may change with memory). */
  static boolean readsMemory(Expr e) {
    return switch (e) {
      case Load l -> true;
      case Call c -> c.op().hasEffect() || c.args().stream().anyMatch(Effects::readsMemory);
      case Invoke i -> true;
      case Read r -> false;
      case Const c -> false;
      case Alloc a -> false;
      case Length l -> false;
      case Unary u -> readsMemory(u.x());
      case Binary b -> readsMemory(b.a()) || readsMemory(b.b());
      case Compare c -> readsMemory(c.a()) || readsMemory(c.b());
      case Logic l -> readsMemory(l.a()) || readsMemory(l.b());
      case Convert c -> readsMemory(c.x());
      case Select s -> readsMemory(s.cond()) || readsMemory(s.a()) || readsMemory(s.b());
    };
  }

  /** Whether evaluating {@code e} has no effect, so it may be moved, duplicated or dropped. */
  static boolean pure(Expr e) {
    return switch (e) {
      case Call c -> !c.op().hasEffect() && c.args().stream().allMatch(Effects::pure);
      case Invoke i -> false;
      case Alloc a -> false;
      case Const c -> true;
      case Read r -> true;
      case Length l -> true;
      case Load l -> pure(l.array()) && pure(l.index());
      case Unary u -> pure(u.x());
      case Binary x -> pure(x.a()) && pure(x.b());
      case Compare c -> pure(c.a()) && pure(c.b());
      case Logic l -> pure(l.a()) && pure(l.b());
      case Convert c -> pure(c.x());
      case Select s -> pure(s.cond()) && pure(s.a()) && pure(s.b());
    };
  }}
