// For the reduce pass: reads of a @Reduce element that the parser moved into temporaries, put back into the update.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code out[0] = out[0] OP x} reaches the reduce pass in the shape {@code out[0] = t OP x} when
 * the parser had to move the read of {@code out[0]} into a temporary {@code t}: before a call in
 * {@code x} (the call might write memory), or where {@code x} has a {@code ?:} that joins two
 * branches (each branch assigns {@code t}). A forward walk over the statements tracks which
 * temporaries surely hold which element — an assignment from the element or from such a
 * temporary makes it so; a store into the array, an atomic, or any assignment of the temporary
 * ends it; after an if, only what both arms that fall through agree on stays; a loop, switch or
 * labelled block keeps only what nothing inside it changes. An update reading a temporary that
 * surely holds its element gets the element back, and temporaries no one reads any more go.
 */
final class ReduceOperands {
  private ReduceOperands() {}

  /** A reduce array's element. */
  private record Element(Var array, long index) {}

  static Block restore(Block body, List<Var> arrays, Set<Var> temps) {
    Map<Store, Store> replaced = new IdentityHashMap<>();
    walk(body.stmts(), new HashMap<>(), arrays, temps, replaced);
    if (replaced.isEmpty()) return body;
    Block b = substitute(body, replaced);
    // the temporaries that only copied an element and that no one reads any more go
    Set<Var> copies = new java.util.HashSet<>();
    collectElementCopies(b, arrays, temps, copies);
    boolean removed = true;
    while (removed) {
      removed = false;
      for (Var t : List.copyOf(copies)) {
        if (reads(b, t)) continue;
        b = drop(b, t);
        copies.remove(t);
        removed = true;
      }
    }
    return b;
  }

  /** The facts after {@code stmts} (temporary -> the element it holds), or null when they end in a jump. */
  private static Map<Var, Element> walk(List<Stmt> stmts, Map<Var, Element> in, List<Var> arrays, Set<Var> temps, Map<Store, Store> replaced) {
    Map<Var, Element> facts = new HashMap<>(in);
    for (Stmt s : stmts) {
      switch (s) {
        case Assign a -> {
          if (hasEffect(a.value())) facts.clear();
          facts.remove(a.var());
          Element e = element(a.value(), arrays, facts);
          if (temps.contains(a.var()) && e != null) facts.put(a.var(), e);
          // a temporary that copied this one still holds the element: copies keep their own fact
        }
        case Store st -> {
          if (st.array() instanceof Read r && arrays.contains(r.var())) {
            Map<Var, Expr> swap = new HashMap<>();
            for (var f : facts.entrySet())
              if (f.getValue().array().equals(r.var()) && Effects.reads(st.value(), f.getKey()))
                swap.put(f.getKey(), new Load(new Read(r.var()), Const.of((int) f.getValue().index())));
            if (!swap.isEmpty()) replaced.put(st, new Store(st.array(), st.index(), replace(st.value(), swap), st.src()));
            facts.values().removeIf(e -> e.array().equals(r.var()));
          }
          if (hasEffect(st.value())) facts.clear();
        }
        case Eval e -> {
          if (hasEffect(e.call())) facts.clear();
        }
        case If i -> {
          Map<Var, Element> t = walk(i.then().stmts(), facts, arrays, temps, replaced);
          Map<Var, Element> o = walk(i.otherwise().stmts(), facts, arrays, temps, replaced);
          if (t == null && o == null) return null;
          facts = t == null ? o : o == null ? t : intersect(t, o);
        }
        case Block b -> {
          Map<Var, Element> after = walk(b.stmts(), facts, arrays, temps, replaced);
          if (after == null) return null;
          facts = after;
        }
        case Break b -> {
          return null;
        }
        case Continue c -> {
          return null;
        }
        case Return r -> {
          return null;
        }
        default -> { // Loop, Switch, Labeled: inside, and after, only the facts nothing in it changes
          Map<Var, Element> stable = new HashMap<>(facts);
          kill(s, stable, arrays);
          switch (s) {
            case Loop l -> {
              walk(l.body().stmts(), stable, arrays, temps, replaced);
              walk(l.update().stmts(), stable, arrays, temps, replaced);
            }
            case Switch sw -> sw.cases().forEach(c -> walk(c.body().stmts(), stable, arrays, temps, replaced));
            case Labeled lb -> walk(lb.body().stmts(), stable, arrays, temps, replaced);
            default -> throw new IllegalStateException(s.toString());
          }
          facts = stable;
        }
      }
    }
    return facts;
  }

  /** Removes from {@code facts} the temporaries {@code s} assigns and the elements of arrays it stores into (all, if it has effects). */
  private static void kill(Stmt s, Map<Var, Element> facts, List<Var> arrays) {
    IrWalk.walk(s, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        if (x instanceof Assign a) facts.remove(a.var());
        if (x instanceof Store st && st.array() instanceof Read r) facts.values().removeIf(e -> e.array().equals(r.var()));
      }

      @Override
      public void expr(Expr e, Stmt in) {
        if (e instanceof Call c && c.op().hasEffect()) facts.clear();
      }
    });
  }

  private static Map<Var, Element> intersect(Map<Var, Element> a, Map<Var, Element> b) {
    Map<Var, Element> out = new HashMap<>();
    for (var e : a.entrySet()) if (e.getValue().equals(b.get(e.getKey()))) out.put(e.getKey(), e.getValue());
    return out;
  }

  /** Whether evaluating {@code e} may write memory (an atomic); allocating a private array does not. */
  static boolean hasEffect(Expr e) {
    return IrWalk.anyExpr(e, x -> x instanceof Call c && c.op().hasEffect() || x instanceof Invoke);
  }

  static Expr replace(Expr value, Map<Var, Expr> swap) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        return x instanceof Read rd && swap.containsKey(rd.var()) ? swap.get(rd.var()) : x;
      }
    }.rewrite(value);
  }

  /** The element {@code e} reads: {@code out[k]} itself or a temporary known to hold it; else null. */
  private static Element element(Expr e, List<Var> arrays, Map<Var, Element> facts) {
    if (e instanceof Load l && l.array() instanceof Read r && arrays.contains(r.var()) && l.index() instanceof Const c)
      return new Element(r.var(), c.longValue());
    if (e instanceof Read r) return facts.get(r.var());
    return null;
  }

  /** Temporaries whose every assignment is a read of a reduce element or a copy of a temporary: candidates to drop when unread. */
  private static void collectElementCopies(Block b, List<Var> arrays, Set<Var> temps, Set<Var> out) {
    Set<Var> other = new java.util.HashSet<>();
    IrWalk.walk(b, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        if (x instanceof Assign a && temps.contains(a.var())) {
          boolean copy = a.value() instanceof Load l && l.array() instanceof Read r && arrays.contains(r.var())
              || a.value() instanceof Read rd && temps.contains(rd.var());
          (copy ? out : other).add(a.var());
        }
      }
    });
    out.removeAll(other);
  }

  private static boolean reads(Block b, Var t) {
    return IrWalk.anyExpr(b, e -> e instanceof Read r && r.var().equals(t));
  }

  /** {@code b} with the stores of {@code replaced} (the very nodes of {@code b}) replaced. */
  private static Block substitute(Block b, Map<Store, Store> replaced) {
    return new Rewriter() {
      @Override
      protected List<Stmt> before(Stmt s) {
        return s instanceof Store st && replaced.containsKey(st) ? List.of(replaced.get(st)) : null;
      }
    }.rewrite(b);
  }

  private static Block drop(Block b, Var t) {
    return new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt s) {
        return s instanceof Assign a && a.var().equals(t) ? List.of() : List.of(s);
      }
    }.rewrite(b);
  }
}
