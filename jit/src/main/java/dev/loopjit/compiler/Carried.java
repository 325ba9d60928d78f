// What one @Parallel iteration would read from another: variables and private arrays the loop writes, read before the iteration writes them.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * In Java a {@code @Parallel} loop is an ordinary loop: a variable or a private array
 * ({@code float[] t = new float[4]} before the loop) that one iteration writes is seen by the next.
 * On a device every work-item has its own copy, which starts with the value from before the loop.
 * The two agree only when each iteration writes such a value before it reads it; this finds the
 * first read where they may not, so the parallel pass refuses the kernel with that line rather
 * than run it to a different result. Conservative: a read on a path where the iteration may not
 * have written the value counts; a private array element counts as written only through a
 * constant index. (Java's definite assignment means such a read sees a value from before the loop
 * or from an earlier iteration.)
 */
final class Carried {
  private Carried() {}

  /** A read that may see another iteration's value: the variable or array, and the statement. */
  record Finding(Var var, boolean array, Stmt at) {}

  /** The first such read in {@code iteration} (one iteration's statements), or null. */
  static Finding first(List<Stmt> iteration) {
    Set<Var> assigned = new HashSet<>();
    for (Stmt s : iteration) assigned.addAll(ParallelLoops.assigned(s));
    Map<Var, Stores> stored = new HashMap<>();
    for (Stmt s : iteration)
      IrWalk.walk(s, new IrWalk.Visitor() {
        @Override
        public void stmt(Stmt x) {
          if (x instanceof Store st && privateArray(st.array()) instanceof Var v) stored.computeIfAbsent(v, k -> new Stores()).add(st.index());
        }
      });
    Walk w = new Walk(assigned, stored);
    State st = new State();
    try {
      for (Stmt s : iteration) w.stmt(s, st);
    } catch (Found f) {
      return f.finding;
    }
    return null;
  }

  /** The variable holding a private array that {@code array} reads, or null. */
  private static Var privateArray(Expr array) {
    return array instanceof Read r && array.type() instanceof ArrayType t && t.space() == ArrayType.Space.PRIVATE ? r.var() : null;
  }

  private static Long constant(Expr index) {
    return index instanceof Const c && c.value() instanceof Number n ? n.longValue() : null;
  }

  /** The indices an iteration stores a private array at: constants, and whether any other. */
  private static final class Stores {
    final Set<Long> constants = new HashSet<>();
    boolean other;

    void add(Expr index) {
      Long c = constant(index);
      if (c == null) other = true;
      else constants.add(c);
    }

    boolean mayWrite(Long index) {
      return other || index == null || constants.contains(index);
    }
  }

  /**
   * What the iteration has surely written on every path to here: variables, fresh private arrays,
   * private array elements. {@code dead}: no path reaches here (after a jump), which meets as "everything".
   */
  private static final class State {
    boolean dead;
    final Set<Var> vars = new HashSet<>();
    /** Private arrays this iteration allocated: every element is its own. */
    final Set<Var> fresh = new HashSet<>();
    final Map<Var, Set<Long>> elements = new HashMap<>();

    State copy() {
      State s = new State();
      s.dead = dead;
      s.vars.addAll(vars);
      s.fresh.addAll(fresh);
      elements.forEach((k, v) -> s.elements.put(k, new HashSet<>(v)));
      return s;
    }

    static State deadState() {
      State s = new State();
      s.dead = true;
      return s;
    }

    /** What both paths wrote. */
    static State meet(State a, State b) {
      if (a.dead) return b.copy();
      if (b.dead) return a.copy();
      State m = new State();
      m.vars.addAll(a.vars);
      m.vars.retainAll(b.vars);
      m.fresh.addAll(a.fresh);
      m.fresh.retainAll(b.fresh);
      a.elements.forEach((k, v) -> {
        Set<Long> both = new HashSet<>(v);
        both.retainAll(b.elements.getOrDefault(k, Set.of()));
        if (!both.isEmpty()) m.elements.put(k, both);
      });
      return m;
    }

    void set(State o) {
      dead = o.dead;
      vars.clear();
      vars.addAll(o.vars);
      fresh.clear();
      fresh.addAll(o.fresh);
      elements.clear();
      o.elements.forEach((k, v) -> elements.put(k, new HashSet<>(v)));
    }
  }

  private static final class Found extends RuntimeException {
    final Finding finding;

    Found(Finding finding) {
      super(null, null, false, false);
      this.finding = finding;
    }
  }

  /**
   * A walk in program order. A jump's state goes to where it lands: a {@code break} to the end of
   * its loop, block or switch, a {@code continue} to its loop's update; after the jump no path
   * continues. A loop's body is walked from the state before it (its first iteration).
   */
  private record Walk(Set<Var> assigned, Map<Var, Stores> stored, Map<Label, State> breaks, Map<Label, State> continues) {
    Walk(Set<Var> assigned, Map<Var, Stores> stored) {
      this(assigned, stored, new HashMap<>(), new HashMap<>());
    }

    void stmt(Stmt s, State st) {
      if (st.dead) return;   // unreachable code reads nothing
      switch (s) {
        case Block b -> b.stmts().forEach(x -> stmt(x, st));
        case Assign a -> {
          reads(a.value(), s, st);
          st.vars.add(a.var());
          st.elements.remove(a.var());
          if (a.value() instanceof Alloc) st.fresh.add(a.var());
          else st.fresh.remove(a.var());
        }
        case Store x -> {
          reads(x.array(), s, st);
          reads(x.index(), s, st);
          reads(x.value(), s, st);
          Var v = privateArray(x.array());
          Long c = constant(x.index());
          if (v != null && c != null && !st.fresh.contains(v)) st.elements.computeIfAbsent(v, k -> new HashSet<>()).add(c);
        }
        case Eval e -> reads(e.call(), s, st);
        case If i -> {
          reads(i.cond(), s, st);
          State a = st.copy(), b = st.copy();
          stmt(i.then(), a);
          stmt(i.otherwise(), b);
          st.set(State.meet(a, b));
        }
        case Loop l -> {
          State body = st.copy();
          stmt(l.body(), body);
          State update = State.meet(body, continues.getOrDefault(l.label(), State.deadState()));
          stmt(l.update(), update);
          st.set(breaks.getOrDefault(l.label(), State.deadState()));   // a for (;;) ends only by a break
        }
        case Switch sw -> {
          reads(sw.selector(), s, st);
          State fall = State.deadState();
          boolean hasDefault = false;
          for (Case c : sw.cases()) {
            hasDefault |= c.isDefault();
            State in = State.meet(st, fall);
            stmt(c.body(), in);
            fall = in;
          }
          State end = State.meet(fall, breaks.getOrDefault(sw.label(), State.deadState()));
          st.set(hasDefault ? end : State.meet(end, st));
        }
        case Labeled l -> {
          stmt(l.body(), st);
          st.set(State.meet(st, breaks.getOrDefault(l.label(), State.deadState())));
        }
        case Return r -> {
          if (r.value() != null) reads(r.value(), s, st);
          st.set(State.deadState());
        }
        case Break b -> {
          breaks.merge(b.target(), st.copy(), State::meet);
          st.set(State.deadState());
        }
        case Continue c -> {
          continues.merge(c.target(), st.copy(), State::meet);
          st.set(State.deadState());
        }
      }
    }

    private void reads(Expr e, Stmt in, State st) {
      IrWalk.walk(new Eval(e, Src.NONE), new IrWalk.Visitor() {
        @Override
        public void expr(Expr x, Stmt ignored) {
          if (x instanceof Load ld && privateArray(ld.array()) instanceof Var v && stored.containsKey(v) && !st.fresh.contains(v)) {
            Long c = constant(ld.index());
            boolean written = c != null && st.elements.getOrDefault(v, Set.of()).contains(c);
            if (!written && stored.get(v).mayWrite(c)) throw new Found(new Finding(v, true, in));
          } else if (x instanceof Read r && assigned.contains(r.var()) && !st.vars.contains(r.var()) && !(r.type() instanceof ArrayType)) {
            throw new Found(new Finding(r.var(), false, in));
          }
        }
      });
    }
  }
}
