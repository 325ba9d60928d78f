// What the bounds pass knows about int values at a point of a kernel: non-negative, and below which lengths or counts.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Var;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Facts about terms (an int variable, or a work-item id such as {@code global_id(0)}) that hold at
 * one point of a kernel: the term is {@code >= 0}, and it is {@code < B} for each bound B in a set.
 * A bound is a value that never changes while the kernel runs: an array's length, a parallel loop's
 * trip count, a constant. The bounds pass carries these forward through the structured IR
 * ({@link Bounds}); an index is proven in range for array {@code a} when it is non-negative and
 * below a bound that is at most {@code a.length}. That proof is deliberately simple (no arithmetic
 * beyond {@code x + 1}, {@code x - 1} and {@code min}). Where it fails, {@link #upper} gives the host
 * a symbolic upper bound of the index (sums, products, quotients, remainders and minima of trip
 * counts, lengths and int parameters the kernel never assigns) to evaluate with the task's arguments
 * at launch ({@code BoundsSite.upper}).
 */
final class Ranges {
  /**
   * What is known of one term: it is {@code >= 0}, below each of {@code below}, and (when
   * {@code upper} is not null) at most {@code upper}, a bound in the form {@link #upper} gives.
   */
  record Info(boolean nonNegative, Set<Expr> below, Expr upper) {
    static final Info NONE = new Info(false, Set.of(), null);

    Info(boolean nonNegative, Set<Expr> below) {
      this(nonNegative, below, null);
    }

    Info meet(Info o) {
      Set<Expr> b = new HashSet<>(below);
      b.retainAll(o.below);
      return new Info(nonNegative && o.nonNegative, Set.copyOf(b), java.util.Objects.equals(upper, o.upper) ? upper : null);
    }

    Info with(boolean nonNeg, Expr bound) {
      Set<Expr> b = new HashSet<>(below);
      if (bound != null) b.add(bound);
      return new Info(nonNegative || nonNeg, Set.copyOf(b), upper);
    }

    boolean known() {
      return nonNegative || !below.isEmpty() || upper != null;
    }
  }

  /** The kernel's launch, for what its trip counts are bounded by. */
  private final Launch launch;
  private final Set<Var> countVars;
  /**
   * Int variables fixed for the whole launch, so bounds too, with their values as the host computes
   * them: parameters the kernel never assigns, and locals assigned once from one of those, a
   * constant or a length (an inlined helper's copy of its parameter).
   */
  private final Map<Var, Expr> fixed;
  /**
   * Whether a trip count is at least 1 wherever the kernel runs (the host launches no empty grid);
   * not in a kernel with a prologue or an epilogue, whose extra launches pass negative counts.
   */
  private final boolean countsPositive;
  /** Facts by term; never null (an unreachable point is a null Ranges at the caller). */
  private final Map<Expr, Info> facts;

  private Ranges(Launch launch, Set<Var> countVars, Map<Var, Expr> fixed, Map<Expr, Info> facts) {
    this.launch = launch;
    this.countVars = countVars;
    this.fixed = fixed;
    this.countsPositive = launch instanceof Launch.Loops l && !l.prologue() && !l.epilogue();
    this.facts = facts;
  }

  /** Nothing known, at the start of a kernel launched as {@code launch} whose int variables {@code fixed} never change (values: their host form). */
  static Ranges start(Launch launch, Map<Var, Expr> fixed) {
    Set<Var> counts = launch instanceof Launch.Loops l ? Set.copyOf(l.countVars()) : Set.of();
    return new Ranges(launch, counts, Map.copyOf(fixed), Map.of());
  }

  /** What holds at both points ({@code null}: a point never reached). */
  static Ranges meet(Ranges a, Ranges b) {
    if (a == null) return b;
    if (b == null) return a;
    Map<Expr, Info> m = new HashMap<>();
    for (var e : a.facts.entrySet()) {
      Info o = b.facts.get(e.getKey());
      if (o != null) {
        Info i = e.getValue().meet(o);
        if (i.known()) m.put(e.getKey(), i);
      }
    }
    return new Ranges(a.launch, a.countVars, a.fixed, Map.copyOf(m));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Ranges r && r.facts.equals(facts);
  }

  @Override
  public int hashCode() {
    return facts.hashCode();
  }

  /** These facts, with every fact about {@code vars} forgotten (they may have changed). */
  Ranges forget(Set<Var> vars) {
    if (vars.isEmpty()) return this;
    Map<Expr, Info> m = new HashMap<>(facts);
    for (Var v : vars) m.remove(new Read(v));
    return new Ranges(launch, countVars, fixed, Map.copyOf(m));
  }

  /** After {@code v = value}. */
  Ranges assign(Var v, Expr value) {
    if (v.type() != Prim.INT) return this;
    Info i = info(value);
    // the bound of the new value in terms of the old one's (v = v + n: old bound + n); a loop's head
    // meets it with the entry's, which differs, and forgets it there
    Expr up = upper(value);
    if (up != null) i = new Info(i.nonNegative, i.below, up);   // not proven >= 0 here: the host checks the leaves
    Map<Expr, Info> m = new HashMap<>(facts);
    m.remove(new Read(v));
    if (i.known()) m.put(new Read(v), i);
    return new Ranges(launch, countVars, fixed, Map.copyOf(m));
  }

  /** Where {@code cond} is known to be {@code truth}. */
  Ranges assume(Expr cond, boolean truth) {
    Map<Expr, Info> m = new HashMap<>(facts);
    learn(cond, truth, m);
    return new Ranges(launch, countVars, fixed, Map.copyOf(m));
  }

  private void learn(Expr cond, boolean truth, Map<Expr, Info> m) {
    switch (cond) {
      case Unary u when u.op() == Op.Unary.NOT -> learn(u.x(), !truth, m);
      case Logic l when (l.op() == Op.Logic.AND) == truth -> {   // a && b true, or a || b false: both halves known
        learn(l.a(), truth, m);
        learn(l.b(), truth, m);
      }
      case Compare c when c.a().type() == Prim.INT && c.b().type() == Prim.INT -> {
        Op.Compare op = truth ? c.op() : c.op().negate();
        learnCompare(op, c.a(), c.b(), m);
        learnCompare(op.swap(), c.b(), c.a(), m);
      }
      default -> {}
    }
  }

  /** {@code x op y} holds, with x a term. */
  private void learnCompare(Op.Compare op, Expr x, Expr y, Map<Expr, Info> m) {
    if (!isTerm(x)) return;
    Info old = m.getOrDefault(x, Info.NONE);
    if (op == Op.Compare.LT && isBound(y)) m.put(x, old.with(false, y));
    if (op == Op.Compare.LE && y instanceof Const k) m.put(x, old.with(false, Const.of((int) Math.min(Integer.MAX_VALUE, k.longValue() + 1))));
    if ((op == Op.Compare.GE && nonNegative(y)) || (op == Op.Compare.GT && y instanceof Const k && k.longValue() >= -1))
      m.put(x, m.getOrDefault(x, Info.NONE).with(true, null));
  }

  private static boolean isTerm(Expr e) {
    return e instanceof Read r && r.var().type() == Prim.INT || e instanceof Call c && isId(c.op());
  }

  private static boolean isId(Intrinsic op) {
    return op == Intrinsic.GLOBAL_ID || op == Intrinsic.LOCAL_ID || op == Intrinsic.GROUP_ID;
  }

  /** A value fixed for the whole launch: an array's length, a trip count, a fixed int variable, a constant. */
  private boolean isBound(Expr e) {
    return e instanceof Length l && l.array() instanceof Read || e instanceof Read r && (countVars.contains(r.var()) || fixed.containsKey(r.var()))
        || e instanceof Const k && k.type() == Prim.INT;
  }

  private boolean nonNegative(Expr e) {
    return info(e).nonNegative;
  }

  /** What is known of the int value of {@code e} here. */
  Info info(Expr e) {
    return switch (e) {
      case Const k when k.type() == Prim.INT -> new Info(k.longValue() >= 0, Set.of());
      case Read r when countVars.contains(r.var()) -> new Info(countsPositive, Set.of());   // a launched grid has at least one iteration
      case Read r -> facts.getOrDefault(e, Info.NONE);
      case Length l -> new Info(true, Set.of());
      case Call c when isId(c.op()) -> facts.getOrDefault(e, Info.NONE).with(true, null);
      case Call c when c.op() == Intrinsic.MIN && c.type() == Prim.INT -> {
        Info a = info(c.args().get(0)), b = info(c.args().get(1));
        Set<Expr> below = new HashSet<>(a.below);
        below.addAll(b.below);
        yield new Info(a.nonNegative && b.nonNegative, Set.copyOf(below));
      }
      // x - 1 with x a trip count (>= 1) or a length (>= 0): below x, and non-negative for a trip count
      // (not a parameter: p - 1 wraps to Integer.MAX_VALUE for p = Integer.MIN_VALUE)
      case Binary b when b.op() == Op.Binary.SUB && b.prim() == Prim.INT && b.b() instanceof Const k && k.longValue() == 1
          && (b.a() instanceof Length l && l.array() instanceof Read || b.a() instanceof Read r && countVars.contains(r.var()))
          -> new Info(b.a() instanceof Read && countsPositive, Set.of(b.a()));
      // x + 1 with 0 <= x < some bound: still non-negative (no overflow, a bound is at most Integer.MAX_VALUE)
      case Binary b when b.op() == Op.Binary.ADD && b.prim() == Prim.INT && b.b() instanceof Const k && k.longValue() == 1 -> {
        Info x = info(b.a());
        yield new Info(x.nonNegative && !x.below.isEmpty(), Set.of());
      }
      default -> Info.NONE;
    };
  }

  /**
   * Whether {@code index} is known to be in range for {@code array}: {@code [0] = index >= 0},
   * {@code [1] = index < array.length}.
   */
  boolean[] proven(Expr array, Expr index) {
    if (index instanceof Const k && k.type() == Prim.INT) {
      int len = constantLength(array);
      return new boolean[] {k.longValue() >= 0, len >= 0 && k.longValue() < len};
    }
    Info i = info(index);
    boolean upper = false;
    for (Expr b : i.below) upper |= atMostLength(b, array);
    return new boolean[] {i.nonNegative, upper};
  }

  /**
   * An upper bound of the int value {@code e} (inclusive) that the host can evaluate from the task's
   * arguments, or null: built from non-negative terms only, so {@code e >= 0} wherever the bound's
   * leaves are. Leaves are constants, array lengths, trip counts (as the launch computes them) and
   * int parameters the kernel never assigns; {@code b - 1} stands for "a non-negative term below
   * b" (the point is unreachable when b is 0); inner nodes are {@code +} and {@code *}, whose
   * values the host checks stay within int (so that Java's arithmetic did not wrap either),
   * {@code x / d} and {@code x % d} with d a leaf or a sum or product of leaves (its value: the host divides x's bound by it, or
   * takes d - 1 for the remainder; LoopJIT's {@code x / 0} and {@code x % 0} are 0), and
   * {@code min(x, y)} (each operand a bound, or {@code v - 1} for the value of a leaf v, taken
   * only where v >= 1). The host's reading of this form is {@code spi.KernelFacts}.
   */
  Expr upper(Expr e) {
    return switch (e) {
      case Const k when k.type() == Prim.INT && k.longValue() >= 0 -> Const.of(k.longValue());
      case Length l when constantLength(l.array()) >= 0 -> Const.of((long) constantLength(l.array()));   // a private or local array
      case Length l when l.array() instanceof Read -> l;
      case Read r when fixed.containsKey(r.var()) -> fixed.get(r.var());
      case Read r when countVars.contains(r.var()) -> countsPositive ? count(r.var()) : null;
      case Binary b when (b.op() == Op.Binary.ADD || b.op() == Op.Binary.MUL) && b.prim() == Prim.INT -> {
        Expr x = upper(b.a()), y = x == null ? null : upper(b.b());
        yield y == null ? null : new Binary(b.op(), x, y);
      }
      // x / d and x % d by a value fixed for the launch (the bound's node holds d's value itself, not a bound of it)
      case Binary b when (b.op() == Op.Binary.DIV || b.op() == Op.Binary.REM) && b.prim() == Prim.INT && (isBound(b.b()) || exact(b.b())) -> {
        Expr x = upper(b.a()), d = x == null ? null : upper(b.b());
        yield d == null ? null : new Binary(b.op(), x, d);
      }
      case Call c when c.op() == Intrinsic.MIN && c.type() == Prim.INT -> {
        Expr x = minOperand(c.args().get(0)), y = x == null ? null : minOperand(c.args().get(1));
        yield y == null ? null : new Call(Intrinsic.MIN, Prim.INT, List.of(x, y));
      }
      default -> {
        Info i = isTerm(e) ? info(e) : Info.NONE;
        if (i.upper != null) yield i.upper;
        if (!i.nonNegative) yield null;
        for (Expr b : i.below) {
          Expr u = upper(b);
          if (u != null) yield new Binary(Op.Binary.SUB, u, Const.of(1L));
        }
        yield null;
      }
    };
  }

  /**
   * Whether {@link #upper} gives {@code e}'s value itself, not only a bound of it: sums and products of
   * constants, lengths, trip counts and fixed variables ({@code p / (outH * outW)}: the host divides by
   * the product's value, as the kernel does; a bound of a divisor would not bound the quotient).
   */
  private boolean exact(Expr e) {
    return switch (e) {
      case Const k -> k.type() == Prim.INT && k.longValue() >= 0;
      case Length l -> l.array() instanceof Read;
      // a fixed variable's host form is its value only where it is a leaf: a compound one is written
      // value >= 0 ? value : -1, and -1 · -1 would stand for a positive product of two negatives
      case Read r -> fixed.containsKey(r.var()) && !(fixed.get(r.var()) instanceof Select) || countVars.contains(r.var()) && countsPositive;
      case Binary b -> (b.op() == Op.Binary.ADD || b.op() == Op.Binary.MUL) && b.prim() == Prim.INT && exact(b.a()) && exact(b.b());
      default -> false;
    };
  }

  /**
   * An operand of {@code min} in {@link #upper}'s form: its bound, or for {@code v - 1} with v fixed
   * for the launch ({@code min(oh, outH - 1)}) that value itself, written {@code v - 1}, which the
   * host takes inside a {@code min} only where v >= 1 (else it proves nothing).
   */
  private Expr minOperand(Expr e) {
    if (e instanceof Binary b && b.op() == Op.Binary.SUB && b.prim() == Prim.INT && b.b() instanceof Const k && k.longValue() == 1
        && isBound(b.a())) {
      Expr v = upper(b.a());
      return v == null ? null : new Binary(Op.Binary.SUB, v, Const.of(1L));
    }
    return upper(e);
  }

  /**
   * {@code e} with the sums and products {@link #upper} bounds written as signed arithmetic
   * ({@code ADD_NO_WRAP}, {@code MUL_NO_WRAP}): where the host has checked that every node of the bound
   * fits in an int and its leaves are non-negative, each of those nodes of {@code e} lies between 0
   * and its bound, so it does not wrap. Other parts keep Java's arithmetic.
   */
  Expr signed(Expr e) {
    if (e instanceof Binary b && (b.op() == Op.Binary.ADD || b.op() == Op.Binary.MUL) && b.prim() == Prim.INT && upper(b.a()) != null
        && upper(b.b()) != null)
      return new Call(b.op() == Op.Binary.ADD ? Intrinsic.ADD_NO_WRAP : Intrinsic.MUL_NO_WRAP, Prim.INT, List.of(signed(b.a()), signed(b.b())));
    return e;
  }

  /** The launch's expression for the trip count that count variable {@code v} holds. */
  private Expr count(Var v) {
    Launch.Loops loops = (Launch.Loops) launch;
    return loops.counts().get(loops.countVars().indexOf(v));
  }

  /** Whether bound {@code b} is at most {@code array}'s length. */
  private boolean atMostLength(Expr b, Expr array) {
    if (b instanceof Length l && l.array().equals(array)) return true;
    int len = constantLength(array);
    if (len >= 0 && b instanceof Const k) return k.longValue() <= len;
    if (len >= 0 && b instanceof Length l && constantLength(l.array()) >= 0) return constantLength(l.array()) <= len;
    if (b instanceof Read r && countVars.contains(r.var()) && launch instanceof Launch.Loops loops) {
      int d = loops.countVars().indexOf(r.var());
      return lengthOf(loops.counts().get(d), array);
    }
    return false;
  }

  /** Whether a trip count (as the host computes it) is at most {@code array.length}: {@code max(0, (long) array.length)}. */
  private static boolean lengthOf(Expr count, Expr array) {
    Expr e = count;
    if (e instanceof Select s && s.b() instanceof Const z && z.longValue() == 0 && s.cond() instanceof Compare c
        && c.op() == Op.Compare.GT && c.a().equals(s.a()) && c.b() instanceof Const) e = s.a();
    if (e instanceof Convert cv && cv.to() == Prim.LONG) e = cv.x();
    return e instanceof Length l && l.array().equals(array);
  }

  /** The constant length of a private or local array, else -1. */
  static int constantLength(Expr array) {
    return array.type() instanceof ArrayType t && t.space() != ArrayType.Space.GLOBAL ? t.length() : -1;
  }

  /** For tests and dumps. */
  @Override
  public String toString() {
    return facts.toString();
  }
}
