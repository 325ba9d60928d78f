// Which lane iterations of the chunk pass jvm-mt computes with the Vector API: float lanes, their per-lane values in vector registers.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * The chunk pass's wide form ({@code compiler.Lanes}) runs up to 1024 neighbouring iterations of x
 * side by side (64, four rows at a time, where the nest has rows): {@code lanes = min(1024, end - x)},
 * then the iteration, where each statement that differs between the iterations is a loop over the
 * lanes writing one element of a lane array
 * ({@code acc_lanes[lane] = acc_lanes[lane] + u * b[p * n + x + lane]}) or of a global array. The
 * JVM's JIT vectorises each such loop alone, so a lane array goes through memory at every
 * statement. Where the iteration qualifies, jvm-mt's emitter runs it a group of vectors of
 * {@code V} lanes at a time instead ({@code V} the JVM's preferred species of the element type;
 * {@link Plan#groups} vectors per lane array, fewer where {@link #choose} keeps the kernel within
 * {@link #BUDGET}), each lane array held in that many vector locals, which the JIT keeps in
 * registers across the loops between the lane statements; the last {@code lanes mod groups·V}
 * lanes run the scalar form.
 *
 * <p>It qualifies when every lane loop's statement is float arithmetic, or every one double or
 * every one int arithmetic ({@code + - * /} and negation, each exact lane by lane in the Vector API
 * as in Java: {@link VectorOps}, {@link DoubleVectorOps}, {@link IntVectorOps}, which has no
 * division), on lane-array elements, on global arrays of that type at {@code invariant + lane},
 * and on values the same for every lane,
 * and {@code c ? x : y} of such values where {@code c} is the same for every lane (one side per vector);
 * when lane arrays are read and written only so; and when nothing outside the lane loops writes
 * memory or calls anything (the iteration's lane-independent statements then run once per vector
 * group instead of once, which repeats only their reads). Each lane keeps its own sequence of
 * operations in Java's order, so results are bit-identical; a load or store out of range fails with
 * Java's exception for the first lane out of range ({@link VectorOps}).
 */
final class LaneVectors {
  /**
   * Vectors per lane array: enough independent chains to hide an add's latency, few enough for the
   * registers. Measured on naive matmul 1024 (2-core AMD EPYC, AVX-512, 16 floats a vector): 2 → 27,
   * 4 → 45, 6 → 41, 8 → 50, 16 → 8 GFLOP/s (spilled); with {@code -XX:UseAVX=2} (8 floats) 4 → 31, 8 → 44.
   */
  static final int GROUPS = 8;

  /**
   * Vector locals a group may hold across its loops with AVX-512 (of 32 registers; half with 16):
   * four rows of lanes (four sums and the shared row of B) take four vectors each. Measured on naive
   * matmul with four rows (2-core AMD EPYC, AVX-512, fastest of 5): 2 vectors each (10 in all) 111 GFLOP/s
   * at n = 1024 and 71 at 2048, 4 each (20) 142 and 96.
   */
  static final int REGISTERS = 24;

  /** One lane loop: its lane variable, the statements before it (lane-independent loads, then {@code lane = 0}) and its one store. */
  record LaneLoop(Var lane, List<Stmt> before, Assign init, Store store) {}

  /**
   * A qualifying iteration: the lane count's variable, its lane loops by identity of their block,
   * the lane arrays (private) in the order found, and the element type of its lanes (float, double or int).
   */
  record Plan(Var lanes, Map<Block, LaneLoop> loops, List<Var> laneArrays, Prim element) {
    /**
     * Vectors of {@code length} elements per lane array in a group ({@code wideRegisters}: the
     * machine has 512-bit vectors, and 32 registers): {@link #GROUPS} at most, no more
     * than the registers hold for all the lane arrays together ({@link #REGISTERS}) and no wider
     * than the lane arrays, at least one.
     */
    int groups(int length, boolean wideRegisters) {
      int lanes = Integer.MAX_VALUE;
      for (Var a : laneArrays) lanes = Math.min(lanes, ((ArrayType) a.type()).length());
      int registers = wideRegisters ? REGISTERS : REGISTERS / 2;   // 32 vector registers with AVX-512, 16 below it
      return Math.max(1, Math.min(GROUPS, Math.min(registers / Math.max(1, laneArrays.size()), lanes / length)));
    }

    boolean isLaneArray(Expr e) {
      return e instanceof Read r && laneArrays.contains(r.var());
    }

    /**
     * The Vector API calls the emitter writes for this iteration in groups of {@code groups}
     * vectors: one {@code zero()}, each lane loop's broadcasts of constants and variables once, and
     * its operations, loads and stores once per vector.
     */
    int calls(int groups) {
      int calls = 1;
      for (LaneLoop loop : loops.values()) {
        Set<Expr> broadcasts = broadcasts(loop.store().value(), loop.lane());
        int perVector = callsOf(loop.store().value(), loop.lane(), broadcasts) + (isLaneArray(loop.store().array()) ? 0 : 1);
        calls += broadcasts.size() + groups * perVector;
      }
      return calls;
    }

    /**
     * The values in {@code e}, one lane's value, that are the same for every lane and cannot fail
     * (constants, variables), in the order found: the emitter broadcasts each once for all the
     * vectors of a group, not once per vector.
     */
    Set<Expr> broadcasts(Expr e, Var lane) {
      Set<Expr> out = new LinkedHashSet<>();
      new Object() {
        void walk(Expr x) {
          if (!mentions(x, lane, Plan.this)) {
            if (x instanceof Const || x instanceof Read) out.add(x);
            return;
          }
          switch (x) {
            case Binary b -> { walk(b.a()); walk(b.b()); }
            case Unary u -> walk(u.x());
            case Select sel -> { walk(sel.a()); walk(sel.b()); }
            default -> {}
          }
        }
      }.walk(e);
      return out;
    }

    /**
     * What {@link #calls} cost of {@link #BUDGET}: an int operation counts 5/4 (an int matmul four
     * rows at a time, 80 calls, fell off the cliff in one run of five — 293 ms against 15–24 at
     * n = 1024 — and at 64 calls took 18–20 ms in every run).
     */
    int cost(int groups) {
      return element == Prim.INT ? calls(groups) * 5 / 4 : calls(groups);
    }

    /** Calls per vector for {@code e}: a broadcast ({@link #broadcasts}) costs nothing here, another lane-independent value one. */
    private int callsOf(Expr e, Var lane, Set<Expr> broadcasts) {
      if (!mentions(e, lane, this)) return broadcasts.contains(e) ? 0 : 1;
      return switch (e) {
        case Load ld when isLaneArray(ld.array()) -> 0;
        case Load ld -> 1;
        case Binary b -> 1 + callsOf(b.a(), lane, broadcasts) + callsOf(b.b(), lane, broadcasts);
        case Unary u -> 1 + callsOf(u.x(), lane, broadcasts);
        case Select sel -> callsOf(sel.a(), lane, broadcasts) + callsOf(sel.b(), lane, broadcasts);
        default -> 0;
      };
    }

    /** Whether {@code a} is a lane loop's {@code lane = 0}. */
    boolean isLaneStart(Assign a) {
      for (LaneLoop l : loops.values()) if (l.init() == a) return true;
      return false;
    }
  }

  private LaneVectors() {}

  /** Whether this JVM has the Vector API (run with {@code --add-modules jdk.incubator.vector}). */
  static boolean available() {
    return AVAILABLE;
  }

  private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

  /**
   * Vector API calls one kernel method may hold ({@link Plan#calls}, a proxy for what C2 inlines).
   * C2 stops inlining once a method's nodes pass a fixed limit, and a vector operation left as a
   * call boxes the vectors it takes, which in a loop allocates on every turn: 4 to 20 times slower,
   * and differently from one run to the next, as the JIT's timing decides what it inlines first.
   * Measured on jvm-mt at n = 1024 (2-core AMD EPYC, JDK 25, fastest of 5, three runs each): naive
   * matmul four rows at a time, 80 calls in all, 14.7–15.7 ms in every run; a matmul with a bias
   * per row, 145 calls: 192–552 ms, and 28–29 ms once cut to 70; two sums, one with a division,
   * 128 calls: 456–482 ms in four runs of five (27 in one), cut to 88: 121–455 ms, cut to 68: 35–38 ms.
   */
  static final int BUDGET = 80;

  /** A lane iteration run as vectors, {@code groups} vectors per lane array at a time. */
  record Choice(Plan plan, int groups) {}

  /**
   * The lane iterations of {@code body} that run as vectors ({@code length} elements of their type
   * each), by their lane
   * count's statement: each with {@link Plan#groups} vectors per lane array, then, while the calls
   * of all ({@link Plan#cost}) pass {@link #BUDGET}, the iteration with the most calls halved, and at one vector per
   * lane array left to the scalar form.
   */
  static Map<Stmt, Choice> choose(Block body, ToIntFunction<Prim> length, boolean wideRegisters) {
    // in program order: the choice between equals is the same in every run; groups 0 = the scalar form
    List<Stmt> widths = new ArrayList<>();
    List<Plan> plans = new ArrayList<>();
    IrWalk.walk(body, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (!(s instanceof Block b)) return;
        for (int i = 0; i + 1 < b.stmts().size(); i++) {
          Plan plan = of(b.stmts().get(i), b.stmts().get(i + 1));
          if (plan != null) {
            widths.add(b.stmts().get(i));
            plans.add(plan);
          }
        }
      }
    });
    int[] groups = new int[plans.size()];
    for (int k = 0; k < groups.length; k++) groups[k] = plans.get(k).groups(length.applyAsInt(plans.get(k).element()), wideRegisters);
    while (true) {
      int total = 0, most = -1, largest = -1;
      for (int k = 0; k < groups.length; k++) {
        if (groups[k] == 0) continue;
        int cost = plans.get(k).cost(groups[k]);
        total += cost;
        if (cost > most) {
          most = cost;
          largest = k;
        }
      }
      if (total <= BUDGET) break;
      groups[largest] /= 2;
    }
    Map<Stmt, Choice> chosen = new IdentityHashMap<>();
    for (int k = 0; k < groups.length; k++) if (groups[k] > 0) chosen.put(widths.get(k), new Choice(plans.get(k), groups[k]));
    return chosen;
  }


  /**
   * The plan for the iteration {@code iteration} that follows {@code width}, or null where the
   * statement pair is not the wide lane form or does not qualify.
   */
  static Plan of(Stmt width, Stmt iteration) {
    if (!(width instanceof Assign w && w.var().type() == Prim.INT && w.value() instanceof Call c && c.op() == Intrinsic.MIN
        && c.args().get(0) instanceof Const) || !(iteration instanceof Labeled l)) return null;
    Map<Block, LaneLoop> loops = new IdentityHashMap<>();
    IrWalk.walk(l.body(), new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Block b) {
          LaneLoop loop = laneLoop(b, w.var());
          if (loop != null) loops.put(b, loop);
        }
      }
    });
    if (loops.isEmpty()) return null;
    Set<Var> laneArrays = new LinkedHashSet<>();
    for (LaneLoop loop : loops.values())
      if (loop.store().array() instanceof Read r && r.var().type() instanceof ArrayType t && t.space() == ArrayType.Space.PRIVATE)
        laneArrays.add(r.var());
    // float or double lanes, one kind per iteration: the kind of its first lane loop's store
    Prim element = ((ArrayType) loops.values().iterator().next().store().array().type()).element();
    if (element != Prim.FLOAT && element != Prim.DOUBLE && element != Prim.INT) return null;
    for (Var a : laneArrays)
      if (!(a.type() instanceof ArrayType t && t.element() == element)) return null;
    Plan plan = new Plan(w.var(), loops, List.copyOf(laneArrays), element);
    return qualifies(l.body(), plan) ? plan : null;
  }

  /** {@code b} as a lane loop over {@code lanes}: {@code {…; lane = 0}; for (;;) { if (lane >= lanes) break; store } update { lane = lane + 1 }}. */
  private static LaneLoop laneLoop(Block b, Var lanes) {
    if (b.stmts().size() != 2 || !(b.stmts().get(0) instanceof Block before) || !(b.stmts().get(1) instanceof Loop loop)) return null;
    if (before.stmts().isEmpty() || !(before.stmts().getLast() instanceof Assign init && init.value() instanceof Const k && k.longValue() == 0)) return null;
    Var lane = init.var();
    List<Stmt> body = loop.body().stmts(), update = loop.update().stmts();
    if (body.size() != 2 || update.size() != 1 || !(body.get(1) instanceof Store store)) return null;
    if (!(body.get(0) instanceof If i && i.otherwise().isEmpty() && i.then().stmts().size() == 1 && i.then().stmts().get(0) instanceof Break br
        && br.target().equals(loop.label()) && i.cond() instanceof Compare cmp && cmp.op() == Op.Compare.GE && cmp.a().equals(new Read(lane))
        && cmp.b().equals(new Read(lanes)))) return null;
    if (!(update.get(0) instanceof Assign step && step.var().equals(lane) && step.value() instanceof Binary add && add.op() == Op.Binary.ADD
        && add.a().equals(new Read(lane)) && add.b() instanceof Const one && one.longValue() == 1)) return null;
    return new LaneLoop(lane, before.stmts().subList(0, before.stmts().size() - 1), init, store);
  }

  /** Whether every lane loop's store vectorises and the rest of the iteration may run once per vector group. */
  private static boolean qualifies(Block iteration, Plan plan) {
    for (LaneLoop loop : plan.loops().values()) {
      Store st = loop.store();
      boolean toLaneArray = plan.isLaneArray(st.array()) && st.index().equals(new Read(loop.lane()));
      boolean toGlobal = isGlobal(st.array(), plan.element()) && !mentions(st.array(), loop.lane(), plan) && offset(st.index(), loop.lane(), plan) != null;
      if (!(toLaneArray || toGlobal) || !vectorises(st.value(), loop.lane(), plan)) return false;
      for (Stmt s : loop.before()) if (!(s instanceof Assign) || IrWalk.anyExpr(s, e -> forbiddenOutside(e, plan))) return false;
    }
    // outside the lane loops (and in their lane-independent loads): no stores, calls with an effect or returns, no lane array, no lane count
    List<Stmt> outside = new ArrayList<>();
    List<Expr> conditions = new ArrayList<>();
    collectOutside(iteration, plan, outside, conditions);
    for (Stmt s : outside) {
      if (s instanceof Store || s instanceof Return || s instanceof Eval) return false;
      if (IrWalk.anyExpr(s, e -> forbiddenOutside(e, plan))) return false;
    }
    for (Expr c : conditions) if (IrWalk.anyExpr(c, e -> forbiddenOutside(e, plan))) return false;
    return true;
  }

  private static boolean forbiddenOutside(Expr e, Plan plan) {
    return e instanceof Call c && c.op().hasEffect() || e instanceof Alloc || plan.isLaneArray(e) || e instanceof Read r && r.var().equals(plan.lanes());
  }

  /** The statements of {@code b} outside its lane loops, blocks, loops and branches opened ({@code conditions}: their tests). */
  private static void collectOutside(Block b, Plan plan, List<Stmt> out, List<Expr> conditions) {
    for (Stmt s : b.stmts()) {
      if (s instanceof Block inner && plan.loops().containsKey(inner)) continue;
      switch (s) {
        case Block inner -> collectOutside(inner, plan, out, conditions);
        case If i -> {
          conditions.add(i.cond());
          collectOutside(i.then(), plan, out, conditions);
          collectOutside(i.otherwise(), plan, out, conditions);
        }
        case Loop l -> {
          collectOutside(l.body(), plan, out, conditions);
          collectOutside(l.update(), plan, out, conditions);
        }
        case Labeled l -> collectOutside(l.body(), plan, out, conditions);
        case Switch sw -> {
          conditions.add(sw.selector());
          for (Case c : sw.cases()) collectOutside(c.body(), plan, out, conditions);
        }
        default -> out.add(s);
      }
    }
  }

  /** Whether {@code e}, a float value of one lane, has a vector form: lane-array and lane-moving global loads, + - * /, negation and square root, lane-independent values. */
  private static boolean vectorises(Expr e, Var lane, Plan plan) {
    if (e.type() != plan.element()) return false;
    if (!mentions(e, lane, plan)) return !IrWalk.anyExpr(e, x -> x instanceof Call c && c.op().hasEffect());
    return switch (e) {
      case Load ld when plan.isLaneArray(ld.array()) -> ld.index().equals(new Read(lane));
      case Load ld -> isGlobal(ld.array(), plan.element()) && !mentions(ld.array(), lane, plan) && offset(ld.index(), lane, plan) != null;
      case Binary b when b.op() == Op.Binary.ADD || b.op() == Op.Binary.SUB || b.op() == Op.Binary.MUL || b.op() == Op.Binary.DIV && plan.element() != Prim.INT ->
          vectorises(b.a(), lane, plan) && vectorises(b.b(), lane, plan);
      case Unary u when u.op() == Op.Unary.NEG -> vectorises(u.x(), lane, plan);
      // the square root, correctly rounded in the lanes as in Java (a float's: (float) Math.sqrt((double) x), which Simplify writes so)
      case Call c when c.op() == Intrinsic.SQRT && plan.element() != Prim.INT -> vectorises(c.args().get(0), lane, plan);
      // a choice the same for every lane (a branch on the row or a parameter, as Simplify writes small ones): one side per vector
      case Select sel -> !mentions(sel.cond(), lane, plan) && !IrWalk.anyExpr(sel.cond(), x -> x instanceof Call c && c.op().hasEffect())
          && vectorises(sel.a(), lane, plan) && vectorises(sel.b(), lane, plan);
      default -> false;
    };
  }

  /**
   * {@code index} less its lane, where it is {@code invariant + lane} (sums in any order, Java's or
   * the unwrapping kind): the lane-independent part, or null.
   */
  static Expr offset(Expr index, Var lane, Plan plan) {
    if (index.equals(new Read(lane))) return Const.of(0);
    Expr a, b;
    switch (index) {
      case Binary x when x.op() == Op.Binary.ADD && x.prim() == Prim.INT -> {
        a = x.a();
        b = x.b();
      }
      case Call c when c.op() == Intrinsic.ADD_NO_WRAP -> {
        a = c.args().get(0);
        b = c.args().get(1);
      }
      default -> {
        return null;
      }
    }
    boolean inA = mentions(a, lane, plan), inB = mentions(b, lane, plan);
    if (inA == inB) return null;
    Expr rest = offset(inA ? a : b, lane, plan);
    if (rest == null) return null;
    Expr other = inA ? b : a;
    return rest instanceof Const k && k.longValue() == 0 ? other : new Binary(Op.Binary.ADD, other, rest);
  }

  private static boolean isGlobal(Expr array, Prim element) {
    return array.type() instanceof ArrayType t && t.space() == ArrayType.Space.GLOBAL && t.element() == element;
  }

  /** Whether {@code e} reads the lane or a lane array. */
  static boolean mentions(Expr e, Var lane, Plan plan) {
    return IrWalk.anyExpr(e, x -> x instanceof Read r && (r.var().equals(lane) || plan.laneArrays().contains(r.var())));
  }
}
