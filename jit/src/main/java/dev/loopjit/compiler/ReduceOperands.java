// For the reduce pass: reads of a @Reduce element that the parser moved into temporaries, put back into the update.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
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
 * branches (each branch assigns {@code t}). When every assignment of {@code t} is a read of that
 * element (or a copy of such a temporary), all of them come before the update in the code, and
 * nothing between the first of them and the update stores into the array, {@code t} is the
 * element's value: the update gets {@code out[0]} back and the temporaries go.
 */
final class ReduceOperands {
  private ReduceOperands() {}

  /** A reduce array's element. */
  private record Element(Var array, long index) {}

  static Block restore(Block body, List<Var> arrays, Set<Var> temps) {
    List<Stmt> order = new ArrayList<>();
    linearize(body, order);
    // temporaries all of whose assignments give one element's value
    Map<Var, Element> same = new HashMap<>();
    Map<Var, List<Integer>> defs = new HashMap<>();
    for (int i = 0; i < order.size(); i++)
      if (order.get(i) instanceof Assign a && temps.contains(a.var())) defs.computeIfAbsent(a.var(), k -> new ArrayList<>()).add(i);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (var e : defs.entrySet()) {
        Element el = null;
        boolean ok = true;
        for (int i : e.getValue()) {
          Element v = element(((Assign) order.get(i)).value(), arrays, same);
          if (v == null || el != null && !el.equals(v)) ok = false;
          el = v;
        }
        if (ok && el != null && !el.equals(same.get(e.getKey()))) {
          same.put(e.getKey(), el);
          changed = true;
        }
      }
    }
    if (same.isEmpty()) return body;
    // updates reading such a temporary, where nothing stores into the array between its first assignment and the update
    Map<Stmt, Store> replaced = new IdentityHashMap<>();
    for (int u = 0; u < order.size(); u++) {
      if (!(order.get(u) instanceof Store st) || !(st.array() instanceof Read r) || !arrays.contains(r.var())) continue;
      Map<Var, Expr> swap = new HashMap<>();
      for (var e : same.entrySet()) {
        if (!e.getValue().array().equals(r.var()) || !Effects.reads(st.value(), e.getKey())) continue;
        int first = order.size(), last = -1;
        for (Var src : sources(e.getKey(), order, defs, new java.util.HashSet<>()))
          for (int i : defs.get(src)) {
            first = Math.min(first, i);
            last = Math.max(last, i);
          }
        boolean before = last < u;
        boolean clear = true;
        for (int k = first + 1; k < u; k++) if (storesInto(order.get(k), r.var())) clear = false;
        if (before && clear) swap.put(e.getKey(), new Load(new Read(r.var()), Const.of((int) e.getValue().index())));
      }
      if (swap.isEmpty()) continue;
      Expr value = new Rewriter() {
        @Override
        protected Expr expr(Expr x) {
          return x instanceof Read rd && swap.containsKey(rd.var()) ? swap.get(rd.var()) : x;
        }
      }.rewrite(st.value());
      replaced.put(st, new Store(st.array(), st.index(), value, st.src()));
    }
    if (replaced.isEmpty()) return body;
    Block b = substitute(body, replaced);
    // the temporaries no update reads any more, and the copies between them, go
    boolean removed = true;
    while (removed) {
      removed = false;
      for (Var t : List.copyOf(same.keySet())) {
        if (reads(b, t)) continue;
        b = drop(b, t);
        same.remove(t);
        removed = true;
      }
    }
    return b;
  }

  /** {@code t} and the temporaries its assignments copy, transitively. */
  private static Set<Var> sources(Var t, List<Stmt> order, Map<Var, List<Integer>> defs, Set<Var> seen) {
    if (!seen.add(t) || !defs.containsKey(t)) return seen;
    for (int i : defs.get(t)) if (((Assign) order.get(i)).value() instanceof Read r && defs.containsKey(r.var())) sources(r.var(), order, defs, seen);
    return seen;
  }

  /** The element {@code e} reads: {@code out[k]} itself or a temporary known to hold it; else null. */
  private static Element element(Expr e, List<Var> arrays, Map<Var, Element> same) {
    if (e instanceof Load l && l.array() instanceof Read r && arrays.contains(r.var()) && l.index() instanceof Const c)
      return new Element(r.var(), c.longValue());
    if (e instanceof Read r) return same.get(r.var());
    return null;
  }

  private static void linearize(Block b, List<Stmt> out) {
    for (Stmt s : b.stmts()) {
      out.add(s);
      switch (s) {
        case Block inner -> linearize(inner, out);
        case If i -> {
          linearize(i.then(), out);
          linearize(i.otherwise(), out);
        }
        case Loop l -> {
          linearize(l.body(), out);
          linearize(l.update(), out);
        }
        case Labeled l -> linearize(l.body(), out);
        case Switch sw -> sw.cases().forEach(c -> linearize(c.body(), out));
        default -> {}
      }
    }
  }

  /** Whether {@code s} itself (not the statements inside it) stores into {@code array} or has an effect on memory. */
  private static boolean storesInto(Stmt s, Var array) {
    if (s instanceof Store st && st.array() instanceof Read r && r.var().equals(array)) return true;
    if (s instanceof Eval e && e.call() instanceof Call c && c.op().hasEffect()) return true;
    return s instanceof Assign a && a.value() instanceof Call c && c.op().hasEffect();
  }

  private static boolean reads(Block b, Var t) {
    boolean[] found = {false};
    new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Read r && r.var().equals(t)) found[0] = true;
        return e;
      }
    }.rewrite(b);
    return found[0];
  }

  private static Block substitute(Block b, Map<Stmt, Store> replaced) {
    List<Stmt> l = new ArrayList<>();
    for (Stmt s : b.stmts()) l.add(switch (s) {
      case Store st when replaced.containsKey(st) -> replaced.get(st);
      case Block inner -> substitute(inner, replaced);
      case If i -> new If(i.cond(), substitute(i.then(), replaced), substitute(i.otherwise(), replaced), i.src());
      case Loop lp -> new Loop(lp.label(), substitute(lp.body(), replaced), substitute(lp.update(), replaced), lp.src());
      case Labeled lb -> new Labeled(lb.label(), substitute(lb.body(), replaced), lb.src());
      case Switch sw -> new Switch(sw.label(), sw.selector(),
          sw.cases().stream().map(c -> new Case(c.values(), substitute(c.body(), replaced))).toList(), sw.src());
      default -> s;
    });
    return new Block(l, b.src());
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
