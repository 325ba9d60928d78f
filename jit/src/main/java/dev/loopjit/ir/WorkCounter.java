// Counts what one work-item of a lowered kernel reads and writes in global memory and how many floating-point operations it does.
package dev.loopjit.ir;

import dev.loopjit.ir.Expr.*;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The work of one work-item of a lowered kernel for one launch: bytes its loads and stores of
 * global arrays touch, and its floating-point operations. The kernel is walked with what the host
 * knows at launch (scalar arguments, array lengths, trip counts, the grid) as an abstract
 * interpreter: values the host knows are computed, array contents are not.
 *
 * <p>Counted: a load of a global array reads its element's bytes, a store writes them, an atomic
 * does both; {@code float}/{@code double} {@code + - * / %} are one operation each, {@code Math.fma}
 * two, {@code sqrt}, {@code exp}, {@code sin} and the other Math functions one each; integer
 * arithmetic, comparisons, conversions, {@code min}/{@code max}/{@code abs} and local or private
 * arrays count nothing. These are the accesses the code makes, not the DRAM traffic: caches may
 * serve repeated reads.
 *
 * <p>The count is <b>exact</b> for straight-line code, for branches the host can decide (the guard
 * of extra work-items: every counted work-item is in range), and for counted loops ({@code for (v =
 * start; v < end; v += step)} with start, end and step known at launch), nested or not. Anything
 * else is <b>estimated</b>, and {@link Count#estimate()} says why: a branch on data (the larger
 * side is counted), a branch or a loop bound that depends on the work-item (the middle work-item,
 * or a counted loop's middle iteration, stands for all), a loop the host cannot count (one
 * iteration).
 */
public final class WorkCounter {
  /** Loops whose exit the host can decide are stepped through up to this many iterations when they are not counted loops. */
  private static final int STEPPED = 64;

  /**
   * The work of one work-item.
   *
   * @param bytesRead    bytes of global memory its loads (and atomics) read
   * @param bytesWritten bytes of global memory its stores (and atomics) write
   * @param flops        floating-point operations
   * @param estimate     null when exact, else why it is an estimate
   */
  public record Count(double bytesRead, double bytesWritten, double flops, String estimate) {
    public boolean exact() {
      return estimate == null;
    }

    /** This count for {@code items} work-items. */
    public Count times(double items) {
      return new Count(bytesRead * items, bytesWritten * items, flops * items, estimate);
    }
  }

  /**
   * What the host knows at launch.
   *
   * @param values the value of each variable it knows: scalar parameters, array parameters (their
   *               length), the length and trip-count arguments
   * @param global the global size per dimension (1 beyond the launch's dimensions)
   * @param local  the local size per dimension, or null when the driver picks it
   * @param counts the variables of the trip-count arguments (the guard of extra work-items reads them)
   */
  public record Launch(Map<Var, Object> values, long[] global, long[] local, Set<Var> counts) {}

  /** A value the host knows: {@code varying} when it depends on the work-item (the middle one stands for all), {@code guard} when it reads a trip count. */
  private record V(Object value, boolean varying, boolean guard) {}

  /** How a walked statement ended, when the host can tell. */
  private sealed interface Flow {}
  private record Normal() implements Flow {}
  private record Jump(Label target, boolean isContinue) implements Flow {}
  private record Returned() implements Flow {}
  private static final Flow NORMAL = new Normal();

  private static final class Acc {
    double read, write, flops;

    void max(Acc a, Acc b) {
      read += Math.max(a.read, b.read);
      write += Math.max(a.write, b.write);
      flops += Math.max(a.flops, b.flops);
    }
  }

  private final Launch launch;
  private final Map<Var, V> env = new HashMap<>();
  private String estimate;

  private WorkCounter(Launch launch) {
    this.launch = launch;
    launch.values().forEach((v, x) -> env.put(v, new V(x, false, launch.counts().contains(v))));
  }

  /** The work of one (in-range) work-item of {@code kernel} for {@code launch}. */
  public static Count perWorkItem(KernelIR kernel, Launch launch) {
    WorkCounter w = new WorkCounter(launch);
    w.report = kernel.boundsReport() == null ? null : kernel.boundsReport().var();
    Acc acc = new Acc();
    w.stmt(kernel.body(), acc, 1);
    return new Count(acc.read, acc.write, acc.flops, w.estimate);
  }

  private void estimated(String why, Src src) {
    if (estimate == null) estimate = why + (src == null || src == Src.NONE ? "" : " at " + src.describe());
  }

  // --- statements -----------------------------------------------------------------------------

  private Flow stmt(Stmt s, Acc acc, double w) {
    switch (s) {
      case Stmt.Block b -> {
        for (Stmt x : b.stmts()) {
          Flow f = stmt(x, acc, w);
          if (!(f instanceof Normal)) return f;
        }
        return NORMAL;
      }
      case Stmt.Assign a -> {
        expr(a.value(), acc, w);
        V v = eval(a.value());
        if (v == null) env.remove(a.var());
        else env.put(a.var(), v);
        return NORMAL;
      }
      case Stmt.Store st -> {
        expr(st.index(), acc, w);
        expr(st.value(), acc, w);
        if (st.array().type() instanceof ArrayType t && t.space() == ArrayType.Space.GLOBAL) acc.write += t.element().bytes() * w;
        return NORMAL;
      }
      case Stmt.Eval e -> {
        expr(e.call(), acc, w);
        return NORMAL;
      }
      case Stmt.If i -> {
        return branch(i, acc, w);
      }
      case Stmt.Loop l -> {
        return loop(l, acc, w);
      }
      case Stmt.Switch sw -> {
        return choose(sw, acc, w);
      }
      case Stmt.Labeled l -> {
        Flow f = stmt(l.body(), acc, w);
        return f instanceof Jump j && j.target().equals(l.label()) && !j.isContinue() ? NORMAL : f;
      }
      case Stmt.Break b -> {
        return new Jump(b.target(), false);
      }
      case Stmt.Continue c -> {
        return new Jump(c.target(), true);
      }
      case Stmt.Return r -> {
        if (r.value() != null) expr(r.value(), acc, w);
        return new Returned();
      }
    }
  }

  /** The bounds pass's report array: its checks never fail in a counted (successful) launch. */
  private Var report;

  /** Whether {@code b} is a bounds check's failure: it starts by writing the report. */
  private boolean reports(Stmt.Block b) {
    if (report == null || b.stmts().isEmpty()) return false;
    Expr array = switch (b.stmts().get(0)) {
      case Stmt.Store st -> st.array();
      case Stmt.Eval e when e.call() instanceof Expr.Call c && c.op() == Intrinsic.ATOMIC_CAS -> c.args().get(0);
      default -> null;
    };
    return array instanceof Expr.Read r && r.var().equals(report);
  }

  private Flow branch(Stmt.If i, Acc acc, double w) {
    if (reports(i.then()) || reports(i.otherwise())) {   // a bounds check: the launch succeeded, so it passed
      expr(i.cond(), acc, w);
      return stmt(reports(i.then()) ? i.otherwise() : i.then(), acc, w);
    }
    expr(i.cond(), acc, w);
    V c = eval(i.cond());
    if (c != null && c.value() instanceof Boolean b) {
      if (!c.varying() || c.guard()) return stmt(b ? i.then() : i.otherwise(), acc, w);
      return middle(i, b, acc, w);
    }
    estimated("a branch on data (the larger side counted)", i.src());
    Map<Var, V> before = new HashMap<>(env);
    Acc a = new Acc(), b = new Acc();
    Flow fa = stmt(i.then(), a, w);
    Map<Var, V> afterThen = new HashMap<>(env);
    env.clear();
    env.putAll(before);
    Flow fb = stmt(i.otherwise(), b, w);
    merge(afterThen);
    acc.max(a, b);
    return fa.equals(fb) ? fa : NORMAL;
  }

  /**
   * A branch that depends on the work-item: the side the middle work-item takes counts, exactly when
   * the other side does the same work (a loop and its copy with the bounds checks hoisted, which the
   * bounds pass picks per work-item), else as an estimate.
   */
  private Flow middle(Stmt.If i, boolean then, Acc acc, double w) {
    Map<Var, V> before = new HashMap<>(env);
    String estimateBefore = estimate;
    Acc other = new Acc(), taken = new Acc();
    Flow fo = stmt(then ? i.otherwise() : i.then(), other, w);
    env.clear();
    env.putAll(before);
    estimate = estimateBefore;
    Flow ft = stmt(then ? i.then() : i.otherwise(), taken, w);
    boolean same = ft.equals(fo) && taken.read == other.read && taken.write == other.write && taken.flops == other.flops;
    if (!same) {
      estimate = estimateBefore;   // this branch's reason comes before any found inside it
      estimated("a branch that depends on the work-item (the middle one counted)", i.src());
    }
    acc.read += taken.read;
    acc.write += taken.write;
    acc.flops += taken.flops;
    return ft;
  }

  /** Keeps the variables that have the same value in {@code other} as here; forgets the rest. */
  private void merge(Map<Var, V> other) {
    env.entrySet().removeIf(e -> !e.getValue().equals(other.get(e.getKey())));
  }

  private Flow choose(Stmt.Switch sw, Acc acc, double w) {
    expr(sw.selector(), acc, w);
    V sel = eval(sw.selector());
    List<Stmt.Case> cases = sw.cases();
    if (sel != null && sel.value() instanceof Integer k) {
      if (sel.varying() && !sel.guard()) estimated("a switch that depends on the work-item", sw.src());
      int start = -1;
      for (int c = 0; c < cases.size() && start < 0; c++) if (cases.get(c).values().contains(k)) start = c;
      for (int c = 0; c < cases.size() && start < 0; c++) if (cases.get(c).isDefault()) start = c;
      if (start < 0) return NORMAL;
      for (int c = start; c < cases.size(); c++) {
        Flow f = stmt(cases.get(c).body(), acc, w);
        if (f instanceof Jump j && j.target().equals(sw.label()) && !j.isContinue()) return NORMAL;
        if (!(f instanceof Normal)) return f;
      }
      return NORMAL;
    }
    estimated("a switch on data (the largest case counted)", sw.src());
    Map<Var, V> before = new HashMap<>(env);
    Acc most = new Acc();
    Map<Var, V> after = null;
    for (Stmt.Case c : cases) {
      env.clear();
      env.putAll(before);
      Acc a = new Acc();
      stmt(c.body(), a, w);
      Acc m = new Acc();
      m.max(most, a);
      most = m;
      if (after == null) after = new HashMap<>(env);
      else {
        Map<Var, V> now = new HashMap<>(env);
        after.entrySet().removeIf(e -> !e.getValue().equals(now.get(e.getKey())));
      }
    }
    env.clear();
    env.putAll(before);
    if (after != null) merge(after);
    acc.read += most.read;
    acc.write += most.write;
    acc.flops += most.flops;
    return NORMAL;
  }

  // --- loops ----------------------------------------------------------------------------------

  /** A counted loop: {@code var} from its value at entry by {@code step} while {@code exit} is false. */
  private record Counted(Var var, Expr exit, Expr step, boolean stepInUpdate) {}

  private Flow loop(Stmt.Loop l, Acc acc, double w) {
    Set<Var> assigned = assignedIn(l);
    Counted c = counted(l, assigned);
    if (c != null) {
      Flow f = countedLoop(l, c, assigned, acc, w);
      if (f != null) return f;
    }
    Flow f = stepped(l, acc, w);
    if (f != null) return f;
    estimated("a loop whose trip count the host cannot tell (one iteration counted)", l.src());
    forget(assigned);
    Flow body = stmt(l.body(), acc, w);
    stmt(l.update(), acc, w);
    forget(assigned);
    return body instanceof Returned ? body : NORMAL;
  }

  /** The counted-loop shape: the body opens with {@code if (exit) break}, and one variable moves by a loop-invariant step. */
  private Counted counted(Stmt.Loop l, Set<Var> assigned) {
    List<Stmt> body = l.body().stmts();
    if (body.isEmpty() || !(body.getFirst() instanceof Stmt.If test) || !test.otherwise().isEmpty()
        || test.then().stmts().size() != 1 || !(test.then().stmts().getFirst() instanceof Stmt.Break br) || !br.target().equals(l.label()))
      return null;
    // The step: `v = v + s` or `v = v - s`, the update's only statement or the body's last.
    Stmt.Assign step = null;
    boolean inUpdate = false;
    if (l.update().stmts().size() == 1 && l.update().stmts().getFirst() instanceof Stmt.Assign a) {
      step = a;
      inUpdate = true;
    } else if (l.update().isEmpty() && body.getLast() instanceof Stmt.Assign a) {
      step = a;
    }
    if (step == null || !(step.value() instanceof Binary b) || !(b.op() == Op.Binary.ADD || b.op() == Op.Binary.SUB)
        || !(b.a() instanceof Read r) || !r.var().equals(step.var()) || reads(b.b(), assigned)) return null;
    Var v = step.var();
    if (!(v.type() instanceof Prim p) || !(p == Prim.INT || p == Prim.LONG)) return null;
    // v moves only by the step; the exit test reads nothing else the loop changes; no other exit.
    int writes = 0;
    for (Stmt s : body) writes += countAssignments(s, v);
    if (writes != (inUpdate ? 0 : 1)) return null;
    Set<Var> others = new HashSet<>(assigned);
    others.remove(v);
    if (reads(test.cond(), others) || !reads(test.cond(), Set.of(v))) return null;
    Expr s = b.op() == Op.Binary.ADD ? b.b() : new Unary(Op.Unary.NEG, b.b());
    return new Counted(v, test.cond(), s, inUpdate);
  }

  private Flow countedLoop(Stmt.Loop l, Counted c, Set<Var> assigned, Acc acc, double w) {
    V start = env.get(c.var()), step = eval(c.step());
    if (start == null || step == null || !(start.value() instanceof Number s0) || !(step.value() instanceof Number st)) return null;
    long from = s0.longValue(), by = st.longValue();
    long trips = trips(c, from, by);
    if (trips < 0) return null;
    boolean varying = start.varying() || step.varying() || exitVaries(c);
    if (varying) estimated("a loop whose trip count depends on the work-item (the middle one counted)", l.src());
    // The exit test runs trips + 1 times; the rest of the body and the update trips times, seen at the middle iteration.
    expr(c.exit(), acc, w * (trips + 1));
    if (trips > 0) {
      forget(assigned);
      long middle = from + by * ((trips - 1) / 2);
      env.put(c.var(), new V(box(c.var(), middle), true, start.guard()));
      List<Stmt> rest = l.body().stmts().subList(1, l.body().stmts().size() - (c.stepInUpdate() ? 0 : 1));
      Flow f = stmt(new Stmt.Block(rest), acc, w * trips);
      if (f instanceof Returned) {
        estimated("a loop that may return early", l.src());
        return f;
      }
      if (f instanceof Jump j && !(j.isContinue() && j.target().equals(l.label())))
        estimated("a loop that may leave early", l.src());
      stmt(l.update(), acc, w * trips);
      forget(assigned);
    }
    env.put(c.var(), new V(box(c.var(), from + by * trips), start.varying() || varying, start.guard()));
    return NORMAL;
  }

  /** How many times a counted loop's body runs from {@code from} by {@code by}, or -1 when the host cannot tell. */
  private long trips(Counted c, long from, long by) {
    Var v = c.var();
    // The usual shape, in closed form: `v CMP bound` (or `bound CMP v`) exits.
    if (c.exit() instanceof Compare cmp && by != 0) {
      boolean left = cmp.a() instanceof Read r && r.var().equals(v) && !reads(cmp.b(), Set.of(v));
      boolean right = cmp.b() instanceof Read r && r.var().equals(v) && !reads(cmp.a(), Set.of(v));
      if (left || right) {
        V bound = eval(left ? cmp.b() : cmp.a());
        if (bound == null || !(bound.value() instanceof Number bn)) return -1;
        Op.Compare op = left ? cmp.op() : cmp.op().swap();
        long b = bn.longValue();
        // The loop runs while the exit test is false.
        long n = switch (op) {
          case GE -> by > 0 ? ceilDiv(b - from, by) : (from < b ? 0 : -1);        // while v < b
          case GT -> by > 0 ? ceilDiv(b - from + 1, by) : (from <= b ? 0 : -1);   // while v <= b
          case LE -> by < 0 ? ceilDiv(from - b, -by) : (from > b ? 0 : -1);       // while v > b
          case LT -> by < 0 ? ceilDiv(from - b + 1, -by) : (from >= b ? 0 : -1);  // while v >= b
          case EQ, NE -> -1;
        };
        if (n != -1) return Math.max(0, n);
      }
    }
    // Otherwise step the variable alone through the exit test, a bounded number of times.
    V saved = env.get(v);
    try {
      long x = from;
      for (long n = 0; n <= 1 << 16; n++) {
        env.put(v, new V(box(v, x), false, false));
        V exit = eval(c.exit());
        if (exit == null || !(exit.value() instanceof Boolean b)) return -1;
        if (b) return n;
        x += by;
      }
      return -1;
    } finally {
      env.put(v, saved);
    }
  }

  private boolean exitVaries(Counted c) {
    V saved = env.get(c.var());
    env.put(c.var(), new V(saved.value(), false, false));
    V exit = eval(c.exit());
    env.put(c.var(), saved);
    return exit != null && exit.varying();
  }

  private static long ceilDiv(long a, long b) {
    return a <= 0 ? 0 : Math.ceilDiv(a, b);
  }

  /**
   * A loop the host can step through: every iteration decided, ended within {@link #STEPPED}
   * iterations. Returns null (and counts nothing) when it is not.
   */
  private Flow stepped(Stmt.Loop l, Acc acc, double w) {
    Map<Var, V> before = new HashMap<>(env);
    String estimateBefore = estimate;
    Acc a = new Acc();
    for (int n = 0; n < STEPPED; n++) {
      Flow f = decided(l.body(), a, w);
      if (f == null) break;
      if (f instanceof Returned) return commit(a, acc, f);
      if (f instanceof Jump j && !j.target().equals(l.label())) return commit(a, acc, f);
      if (f instanceof Jump j && !j.isContinue()) return commit(a, acc, NORMAL);
      if (decided(l.update(), a, w) == null) break;
    }
    env.clear();
    env.putAll(before);
    estimate = estimateBefore;
    return null;
  }

  private static Flow commit(Acc from, Acc to, Flow f) {
    to.read += from.read;
    to.write += from.write;
    to.flops += from.flops;
    return f;
  }

  /** Walks {@code s} only while every branch in it is decided; null as soon as one is not (what was counted is then void). */
  private Flow decided(Stmt s, Acc acc, double w) {
    String before = estimate;
    estimate = null;
    Flow f = stmt(s, acc, w);
    boolean ok = estimate == null;
    estimate = before;
    return ok ? f : null;
  }

  private void forget(Set<Var> vars) {
    for (Var v : vars) env.remove(v);
  }

  // --- expressions ----------------------------------------------------------------------------

  private void expr(Expr e, Acc acc, double w) {
    switch (e) {
      case Load l -> {
        expr(l.index(), acc, w);
        if (l.array().type() instanceof ArrayType t && t.space() == ArrayType.Space.GLOBAL) acc.read += t.element().bytes() * w;
      }
      case Binary b -> {
        expr(b.a(), acc, w);
        expr(b.b(), acc, w);
        if (b.type() instanceof Prim p && (p == Prim.FLOAT || p == Prim.DOUBLE) && arithmetic(b.op())) acc.flops += w;
      }
      case Unary u -> expr(u.x(), acc, w);
      case Compare c -> { expr(c.a(), acc, w); expr(c.b(), acc, w); }
      case Logic l -> {
        expr(l.a(), acc, w);
        V a = eval(l.a());
        boolean skip = a != null && a.value() instanceof Boolean b && (l.op() == Op.Logic.AND ? !b : b);
        if (!skip) expr(l.b(), acc, w);
      }
      case Select s -> {
        expr(s.cond(), acc, w);
        V c = eval(s.cond());
        if (c != null && c.value() instanceof Boolean b) expr(b ? s.a() : s.b(), acc, w);
        else {
          Acc x = new Acc(), y = new Acc();
          expr(s.a(), x, w);
          expr(s.b(), y, w);
          if (x.read != y.read || x.write != y.write || x.flops != y.flops) estimated("a ?: on data (the larger side counted)", null);
          acc.max(x, y);
        }
      }
      case Convert c -> expr(c.x(), acc, w);
      case Call c -> {
        c.args().forEach(x -> expr(x, acc, w));
        boolean fp = c.type() == Prim.FLOAT || c.type() == Prim.DOUBLE;
        switch (c.op()) {
          case FMA -> { if (fp) acc.flops += 2 * w; }
          case SQRT, CBRT, EXP, EXPM1, LOG, LOG10, LOG1P, POW, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH, HYPOT -> {
            if (fp) acc.flops += w;
          }
          case ATOMIC_ADD, ATOMIC_CAS -> {
            if (c.args().getFirst().type() instanceof ArrayType t && t.space() == ArrayType.Space.GLOBAL) {
              acc.read += t.element().bytes() * w;
              acc.write += t.element().bytes() * w;
              if (c.op() == Intrinsic.ATOMIC_ADD && t.element().isFloating()) acc.flops += w;
            }
          }
          case LOAD_TRANSPOSED -> {   // rows × run loads
            TransposedLoad b = TransposedLoad.of(c);
            if (b.array().type() instanceof ArrayType t && t.space() == ArrayType.Space.GLOBAL) acc.read += t.element().bytes() * (double) b.rows() * b.run() * w;
          }
          default -> {}
        }
      }
      case Invoke i -> i.args().forEach(x -> expr(x, acc, w));
      case Const c -> {}
      case Read r -> {}
      case Length l -> {}
      case Alloc a -> {}
    }
  }

  private static boolean arithmetic(Op.Binary op) {
    return op == Op.Binary.ADD || op == Op.Binary.SUB || op == Op.Binary.MUL || op == Op.Binary.DIV || op == Op.Binary.REM;
  }

  /** The value of {@code e} when the host knows it, else null. */
  private V eval(Expr e) {
    return switch (e) {
      case Const c -> new V(c.value(), false, false);
      case Read r -> env.get(r.var());
      case Length l -> l.array() instanceof Read r ? env.get(r.var()) : null;
      case Unary u -> {
        V x = eval(u.x());
        if (x == null) yield null;
        Object v = JavaValues.unary(u.op(), u.prim(), x.value());
        yield v == null ? null : new V(v, x.varying(), x.guard());
      }
      case Binary b -> {
        V x = eval(b.a()), y = x == null ? null : eval(b.b());
        if (y == null) yield null;
        Object v = JavaValues.binary(b.op(), b.prim(), x.value(), y.value());
        yield v == null ? null : new V(v, x.varying() || y.varying(), x.guard() || y.guard());
      }
      case Compare c -> {
        V x = eval(c.a()), y = x == null ? null : eval(c.b());
        if (y == null || !(x.value() instanceof Number a) || !(y.value() instanceof Number b)) yield null;
        yield new V(JavaValues.compare(c.op(), a, b), x.varying() || y.varying(), x.guard() || y.guard());
      }
      case Logic l -> {
        V x = eval(l.a());
        if (x == null || !(x.value() instanceof Boolean a)) yield null;
        if (l.op() == Op.Logic.AND ? !a : a) yield x;
        V y = eval(l.b());
        if (y == null || !(y.value() instanceof Boolean)) yield null;
        yield new V(y.value(), x.varying() || y.varying(), x.guard() || y.guard());
      }
      case Select s -> {
        V c = eval(s.cond());
        if (c == null || !(c.value() instanceof Boolean b)) yield null;
        V x = eval(b ? s.a() : s.b());
        yield x == null ? null : new V(x.value(), x.varying() || c.varying(), x.guard() || c.guard());
      }
      case Convert c -> {
        V x = eval(c.x());
        if (x == null) yield null;
        Object v = JavaValues.convert(c.to(), x.value());
        yield v == null ? null : new V(v, x.varying(), x.guard());
      }
      case Call c -> call(c);
      default -> null;
    };
  }

  private V call(Call c) {
    switch (c.op()) {
      case GLOBAL_ID, LOCAL_ID, GROUP_ID -> {
        // The work-item in the middle stands for all (the average of anything linear in its id); where the
        // local size is not known, local id 1 (not the 0 that does a group's extra work, such as a reduction's combine).
        if (!(c.args().getFirst() instanceof Const k)) return null;
        int d = ((Number) k.value()).intValue();
        long global = d < launch.global().length ? launch.global()[d] : 1;
        long local = launch.local() != null && d < launch.local().length ? launch.local()[d] : 0;
        long id = switch (c.op()) {
          case GLOBAL_ID -> (global - 1) / 2;
          case LOCAL_ID -> local > 0 ? (local - 1) / 2 : 1;
          default -> local > 0 ? (Math.ceilDiv(global, local) - 1) / 2 : 0;
        };
        return new V((int) Math.max(0, id), true, false);
      }
      case GLOBAL_SIZE, LOCAL_SIZE -> {
        if (!(c.args().getFirst() instanceof Const k)) return null;
        int d = ((Number) k.value()).intValue();
        long[] sizes = c.op() == Intrinsic.GLOBAL_SIZE ? launch.global() : launch.local();
        if (sizes == null || d >= sizes.length) return null;
        return new V((int) Math.min(Integer.MAX_VALUE, sizes[d]), false, false);
      }
      case ADD_NO_WRAP, MUL_NO_WRAP -> {   // an index or its variable written signed: the same int as Java's + and *
        V x = eval(c.args().getFirst()), y = eval(c.args().get(1));
        if (x == null || y == null || !(x.value() instanceof Integer a) || !(y.value() instanceof Integer b)) return null;
        return new V(c.op() == Intrinsic.ADD_NO_WRAP ? a + b : a * b, x.varying() || y.varying(), x.guard() || y.guard());
      }
      case MIN, MAX, ABS -> {
        V x = eval(c.args().getFirst());
        V y = c.args().size() > 1 ? eval(c.args().get(1)) : x;
        if (x == null || y == null || !(x.value() instanceof Number a) || !(y.value() instanceof Number b)) return null;
        Object v = switch (c.type()) {
          case INT -> c.op() == Intrinsic.ABS ? Math.abs(a.intValue()) : c.op() == Intrinsic.MIN ? Math.min(a.intValue(), b.intValue()) : Math.max(a.intValue(), b.intValue());
          case LONG -> c.op() == Intrinsic.ABS ? Math.abs(a.longValue()) : c.op() == Intrinsic.MIN ? Math.min(a.longValue(), b.longValue()) : Math.max(a.longValue(), b.longValue());
          default -> null;
        };
        return v == null ? null : new V(v, x.varying() || y.varying(), x.guard() || y.guard());
      }
      default -> {
        return null;
      }
    }
  }

  private static Object box(Var v, long x) {
    return v.type() == Prim.LONG ? (Object) x : (Object) (int) x;
  }

  // --- what a statement touches ---------------------------------------------------------------

  /** The variables assigned anywhere in the loop (body and update). */
  private static Set<Var> assignedIn(Stmt.Loop l) {
    Set<Var> out = new HashSet<>(IrWalk.assigned(l.body()));
    out.addAll(IrWalk.assigned(l.update()));
    return out;
  }

  private static int countAssignments(Stmt s, Var v) {
    return IrWalk.countStmts(s, x -> x instanceof Stmt.Assign a && a.var().equals(v));
  }

  /** Whether {@code e} reads any of {@code vars}. */
  private static boolean reads(Expr e, Set<Var> vars) {
    return switch (e) {
      case Read r -> vars.contains(r.var());
      case Const c -> false;
      case Unary u -> reads(u.x(), vars);
      case Binary b -> reads(b.a(), vars) || reads(b.b(), vars);
      case Compare c -> reads(c.a(), vars) || reads(c.b(), vars);
      case Logic l -> reads(l.a(), vars) || reads(l.b(), vars);
      case Convert c -> reads(c.x(), vars);
      case Select s -> reads(s.cond(), vars) || reads(s.a(), vars) || reads(s.b(), vars);
      case Load l -> true;   // memory the loop may change
      case Length l -> reads(l.array(), vars);
      case Alloc a -> false;
      case Call c -> c.op().hasEffect() || c.args().stream().anyMatch(x -> reads(x, vars));
      case Invoke i -> true;
    };
  }
}
