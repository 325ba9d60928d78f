// Pass "parallel": the @Parallel loop nest becomes work-item indices, a guard, and a launch shape for the host.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the {@code @Parallel} nest — up to three perfectly nested loops
 * {@code for (@Parallel int i = start; i OP end; i += step)} at the top of the method — and
 * replaces it by one work-item per iteration: {@code i = start + globalId * step}, guarded by
 * {@code globalId < count}. The trip counts are expressions of the parameters that the host
 * evaluates at launch ({@link Launch.Loops}), so a new size never recompiles. The innermost loop
 * is dimension x (neighbouring work-items then touch neighbouring elements in row-major code).
 * Statements before the nest that write memory run once, before every iteration (a prologue
 * launch), those that only set variables in every work-item; statements after the nest run once,
 * after every iteration (an epilogue launch). What cannot keep Java's meaning when iterations run at once is
 * refused: a return or break out of the loop (but {@code if (c) return;} or {@code break;} at the
 * start of the body with {@code c} the same for every iteration), writes to the loop variable, statements after an
 * inner parallel loop, reads after the loop of variables the loop assigns, bounds that depend on
 * an outer parallel variable or on memory.
 */
final class ParallelLoops implements Pass {
  /** One parallel loop of the nest. */
  private record Level(Loop loop, Var var, Expr start, Expr step, Op.Compare op, Expr end, List<Stmt> body) {}

  private static final Object UNKNOWN = new Object();

  /**
   * The refusals of a loop whose iterations would not give Java's result if run at once; the jvm
   * device refuses these too ({@link Compiler#checkParallelMeaning}).
   */
  static final Set<String> MEANING = Set.of("code before a @Parallel loop", "code after a @Parallel loop",
      "a value carried between @Parallel iterations");

  @Override
  public String name() {
    return "parallel";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    return lower(ir, cx.withLoops(ir.loops())).withLoops(dev.loopjit.ir.LoopFacts.NONE);   // the loop facts, read here, end here
  }

  private KernelIR lower(KernelIR ir, Context cx) {
    boolean explicit = ir.params().stream().anyMatch(p -> p.kind() == KernelIR.Param.Kind.CONTEXT);
    Set<Var> params = new HashSet<>();
    for (KernelIR.Param p : ir.params()) if (p.var() != null) params.add(p.var());
    List<Stmt> top = flatten(ir.body().stmts());
    Map<Var, Object> env = new HashMap<>();
    int at = -1;
    for (int k = 0; k < top.size() && at < 0; k++) {
      Stmt s = top.get(k);
      if (s instanceof Loop l && level(l, cx) != null) at = k;
      else record(s, env);
    }
    Set<Var> annotated = new HashSet<>();
    cx.parallelLoops.values().forEach(annotated::addAll);
    if (at < 0) {
      refuseNested(ir.body(), cx, null);
      for (Var v : annotated) throw notALoop(v, cx);
      return ir.withLaunch(explicit ? new Launch.Explicit() : new Launch.Single(), ir.body());
    }
    Loop first = (Loop) top.get(at);
    // A KernelContext used for its atomicAdd alone (TornadoVM's atomics in a @Parallel loop) asks for no grid of its own.
    if (explicit && usesWorkItems(ir.body()))
      throw Refusal.error(src(first, cx), "@Parallel with KernelContext", "a KernelContext kernel cannot also have @Parallel loops "
          + "(a @Parallel loop may use a KernelContext for its atomicAdd alone: no ids, sizes, barriers, local arrays or SIMD-group operations)");
    List<Stmt> after = new ArrayList<>();
    for (int k = at + 1; k < top.size(); k++) if (!(top.get(k) instanceof Return r && r.value() == null)) after.add(top.get(k));
    checkEpilogue(after, first, cx);
    List<Level> nest = nest(first, env, params, cx);
    for (Level l : nest) annotated.remove(l.var());
    for (Var v : annotated) throw notALoop(v, cx);

    Label frame = cx.names.label();
    int dims = nest.size();
    List<Expr> counts = new ArrayList<>();
    List<Var> countVars = new ArrayList<>();
    Expr guard = null;
    List<Stmt> inside = new ArrayList<>();
    for (int d = 0; d < dims; d++) {
      Var count = cx.names.fresh("count_" + "xyz".charAt(d), Prim.INT);
      countVars.add(count);
      Expr test = new Compare(Op.Compare.LT, gid(d), new Read(count));
      guard = guard == null ? test : new Logic(Op.Logic.AND, guard, test);
      Level l = nest.get(dims - 1 - d);
      counts.add(Fold.fold(count(l)));
    }
    for (int k = 0; k < dims; k++) {
      Level l = nest.get(k);
      int d = dims - 1 - k;
      Src s = src(l.loop(), cx);
      inside.add(new Assign(l.var(), Fold.fold(new Binary(Op.Binary.ADD, l.start(), new Binary(Op.Binary.MUL, gid(d), Fold.fold(l.step())))), s));
      int exits = uniformExits(l.body(), first, nest.subList(0, k), l.loop());
      for (Stmt x : l.body().subList(0, exits)) {
        If i = (If) x;
        if (i.then().stmts().get(0) instanceof Return && !after.isEmpty())
          throw Refusal.error(srcOf(x, first, cx), "return inside a @Parallel loop", "a 'return' at the start of a @Parallel loop "
              + "with statements after the loop is not supported (they run only when it does not return); use an if around them");
        inside.add(new If(i.cond(), new Block(List.of(new Break(frame, i.src()))), Block.EMPTY, i.src()));
      }
      inside.addAll(continueToBreak(l.body().subList(exits, l.body().size()), nest, frame));
    }
    refuseCarried(inside, first, cx);
    Stmt replaced = new Labeled(frame, new Block(List.of(new If(guard, new Block(inside), Block.EMPTY, src(first, cx)))), src(first, cx));
    List<Stmt> before = top.subList(0, at);
    boolean prologue = before.stream().anyMatch(ParallelLoops::writesMemory);
    Launch.Loops launch = new Launch.Loops(counts, countVars, frame, 0, false, prologue, !after.isEmpty());
    List<Stmt> body = new ArrayList<>();
    for (int k = 0; k < before.size(); k++) body.add(beforeTheLoop(before.get(k), top.subList(k + 1, top.size()), launch, first, cx));
    body.add(replaced);
    if (!after.isEmpty()) body.add(new If(launch.inPhase(Launch.Loops.EPILOGUE), new Block(after), Block.EMPTY, srcOf(after.get(0), first, cx)));
    if (top.getLast() instanceof Return r && r.value() == null) body.add(r);
    return ir.withLaunch(launch, new Block(body, ir.body().src()));
  }

  /**
   * A statement before the nest as Java runs it, once before every iteration: one that writes
   * memory goes in the prologue ({@code if (count_x == -1) s}, a launch of one work-item before the
   * iterations); one that only sets variables runs in every work-item of every launch, which gives
   * each the same values. A statement that does both, setting a variable read later, is refused.
   */
  private static Stmt beforeTheLoop(Stmt s, List<Stmt> later, Launch.Loops launch, Loop loop, Context cx) {
    if (!writesMemory(s)) return s;
    Set<Var> sets = assigned(s);
    sets.addAll(privateArraysStored(s));   // a private array it fills is a value the later code may read
    if (!sets.isEmpty()) {
      // only a read that may see the value s left counts: javac gives the loop's variable the slot
      // of a loop before it (for (k…) b[k] = 0; for (@Parallel i…)), and the nest assigns it first
      Set<Var> read = Chunks.exposed(later);
      for (Var v : sets.stream().sorted(java.util.Comparator.comparing(Var::name)).toList())
        if (read.contains(v))
          throw Refusal.error(srcOf(s, loop, cx), "code before a @Parallel loop", "this statement writes memory, which must happen once "
              + "before the iterations, and sets '" + v.name() + "', which the code after it reads in every work-item; split it in two");
    }
    return new If(launch.inPhase(Launch.Loops.PROLOGUE), new Block(List.of(s), s.src()), Block.EMPTY, s.src());
  }

  /**
   * Whether {@code s} stores to memory or calls something with an effect (an atomic, a barrier, a
   * print). A store into a private array (one the kernel allocates) is not: every work-item has its own.
   */
  private static boolean writesMemory(Stmt s) {
    boolean[] writes = {false};
    IrWalk.walk(s, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        writes[0] |= x instanceof Store st && !(st.array().type() instanceof ArrayType t && t.space() == ArrayType.Space.PRIVATE)
            || x instanceof Eval;
      }

      @Override
      public void expr(Expr e, Stmt in) {
        writes[0] |= e instanceof Invoke || e instanceof Call c && (c.op() == Intrinsic.ATOMIC_ADD || c.op() == Intrinsic.ATOMIC_CAS);
      }
    });
    return writes[0];
  }

  /** The private arrays (each work-item's own) that {@code s} stores into. */
  private static Set<Var> privateArraysStored(Stmt s) {
    Set<Var> out = new HashSet<>();
    IrWalk.walk(s, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        if (x instanceof Store st && st.array() instanceof Read r && st.array().type() instanceof ArrayType t && t.space() == ArrayType.Space.PRIVATE)
          out.add(r.var());
      }
    });
    return out;
  }

  /** Where the parallel frame {@code loops.frame()} is among the kernel's top-level statements, or -1. */
  static int frameIndex(KernelIR ir, Launch.Loops loops) {
    List<Stmt> top = ir.body().stmts();
    for (int k = 0; k < top.size(); k++) if (top.get(k) instanceof Labeled l && l.label().equals(loops.frame())) return k;
    return -1;
  }

  /** The guard of a frame that is one guarded iteration ({@code frame: if (id < count) { … }}, as this pass makes it), or null. */
  static If guardOf(Labeled frame) {
    return frame.body().stmts().size() == 1 && frame.body().stmts().get(0) instanceof If guard && guard.otherwise().isEmpty() ? guard : null;
  }

  /** Whether {@code s} is a statement {@link #beforeTheLoop} put in the prologue. */
  static boolean inPrologue(Stmt s) {
    return s instanceof If i && i.cond() instanceof Compare c && c.op() == Op.Compare.EQ && c.b() instanceof Const k
        && k.longValue() == Launch.Loops.PROLOGUE && i.otherwise().isEmpty();
  }

  /**
   * Refuses an iteration that reads a variable or private array element another iteration may
   * have written ({@link Carried}): in Java the value passes from one iteration to the next, on a
   * device each work-item has its own copy.
   */
  private static void refuseCarried(List<Stmt> iteration, Loop loop, Context cx) {
    Carried.Finding f = Carried.first(iteration);
    if (f == null) return;
    String what = f.array() ? "reads the private array '" + f.var().name() + "', which the @Parallel loop's iterations write, where this "
        + "iteration may not have written that element yet" : "reads '" + f.var().name() + "' before this iteration assigns it, and the "
        + "@Parallel loop's iterations assign it";
    throw Refusal.error(srcOf(f.at(), loop, cx), "a value carried between @Parallel iterations", "this statement " + what
        + ": in Java it would see what an earlier iteration left, but the iterations run at once, each work-item with its own copy. "
        + (f.array() ? "Allocate the array inside the loop, or write the element before reading it in the same iteration"
            : "Assign it in the iteration before reading it") + " (or drop @Parallel: the loop is not parallel)");
  }

  /**
   * Statements after the nest run once, after every iteration, as in Java: in an epilogue launch
   * of one work-item ({@link Launch.Loops#epilogue()}). They may read what was set before the loop
   * and memory, not a variable the loop assigns (each work-item had its own).
   */
  private static void checkEpilogue(List<Stmt> after, Loop loop, Context cx) {
    Set<Var> inLoop = assigned(loop), defined = new HashSet<>(), arrays = privateArraysStored(loop);
    inLoop.addAll(arrays);
    for (Stmt s : after) {
      if (s instanceof Return r)
        throw Refusal.error(srcOf(s, loop, cx), "return after a @Parallel loop", "a kernel returns no value; remove the return value");
      IrWalk.walk(s, new IrWalk.Visitor() {
        @Override
        public void expr(Expr e, Stmt in) {
          if (e instanceof Read r && inLoop.contains(r.var()) && !defined.contains(r.var()))
            throw Refusal.error(srcOf(in, loop, cx), "code after a @Parallel loop", "the statement after the @Parallel loop reads "
                + (arrays.contains(r.var()) ? "the private array '" + r.var().name() + "', which the loop's iterations write"
                    : "'" + r.var().name() + "', which the loop's iterations assign")
                + " (each work-item has its own); after the loop only values set before it and memory can be read"
                + (arrays.contains(r.var()) ? " (pass it as an argument to keep what the iterations write)" : ""));
        }
      });
      if (s instanceof Assign a) defined.add(a.var());
    }
  }

  private static Expr gid(int d) {
    return new Call(Intrinsic.GLOBAL_ID, Prim.INT, List.of(Const.of(d)));
  }

  private static List<Stmt> flatten(List<Stmt> stmts) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : stmts) {
      if (s instanceof Block b) out.addAll(flatten(b.stmts()));
      else out.add(s);
    }
    return out;
  }

  /** Records a straight-line assignment before the nest for substitution into loop bounds. */
  private static void record(Stmt s, Map<Var, Object> env) {
    if (s instanceof Assign a) {
      Expr v = substitute(a.value(), env);
      env.put(a.var(), v == null ? UNKNOWN : v);
    } else {
      for (Var v : assigned(s)) env.put(v, UNKNOWN);
    }
  }

  /** {@code e} with recorded variables replaced by their values; null if it reads an unknown one. */
  private static Expr substitute(Expr e, Map<Var, Object> env) {
    boolean[] unknown = {false};
    Expr r = new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        if (x instanceof Read rd && env.containsKey(rd.var())) {
          Object v = env.get(rd.var());
          if (v == UNKNOWN) unknown[0] = true;
          else return (Expr) v;
        }
        return x;
      }
    }.rewrite(e);
    return unknown[0] ? null : r;
  }

  /** Every variable {@code s} assigns. */
  static Set<Var> assigned(Stmt s) {
    return new HashSet<>(IrWalk.assigned(s));
  }

  /** The parallel level {@code l} forms, or null when it is a sequential loop. */
  private static Level level(Loop l, Context cx) {
    List<Var> candidates = cx.parallelLoops.get(l.label());
    if (candidates == null || l.body().isEmpty()) return null;
    if (!(l.body().stmts().get(0) instanceof If test) || !test.otherwise().isEmpty() || test.then().stmts().size() != 1
        || !(test.then().stmts().get(0) instanceof Break b) || !b.target().equals(l.label())) return null;
    Expr cont = Structurer.not(test.cond());
    // for (…; i < n; …) { if (c) break; … } reaches here as the exit test i >= n || c: the loop, and an exit at the start of its body
    Stmt exit = null;
    if (test.cond() instanceof Logic either && either.op() == Op.Logic.OR && either.a() instanceof Compare) {
      exit = new If(either.b(), new Block(List.of(new Break(l.label(), test.src()))), Block.EMPTY, test.src());
      cont = Structurer.not(either.a());
    }
    if (!(cont instanceof Compare c) || c.a().prim() != Prim.INT) return null;
    List<Stmt> rest = iteration(l, l.body().stmts().subList(1, l.body().stmts().size()), cx);
    if (exit != null) {
      rest = new ArrayList<>(rest);
      rest.add(0, exit);
    }
    if (rest.isEmpty() || !(rest.get(rest.size() - 1) instanceof Assign inc)) return null;
    for (Var v : candidates) {
      Expr end;
      Op.Compare op;
      if (c.a() instanceof Read r && r.var().equals(v)) { op = c.op(); end = c.b(); }
      else if (c.b() instanceof Read r && r.var().equals(v)) { op = c.op().swap(); end = c.a(); }
      else continue;
      if (!inc.var().equals(v) || !(inc.value() instanceof Binary bin)) continue;
      Expr step;
      if (bin.op() == Op.Binary.ADD && bin.a() instanceof Read r && r.var().equals(v)) step = bin.b();
      else if (bin.op() == Op.Binary.ADD && bin.b() instanceof Read r && r.var().equals(v)) step = bin.a();
      else if (bin.op() == Op.Binary.SUB && bin.a() instanceof Read r && r.var().equals(v)) step = new Unary(Op.Unary.NEG, bin.b());
      else continue;
      return new Level(l, v, null, step, op, end, rest.subList(0, rest.size() - 1));
    }
    return null;
  }

  /**
   * One iteration's statements: the body, then the update. A {@code continue} of the loop runs the
   * update; when the update holds more than the increment (javac merges a body's last statements
   * into it), the body is framed so that continue leaves the frame and still runs them.
   */
  private static List<Stmt> iteration(Loop l, List<Stmt> body, Context cx) {
    List<Stmt> update = flatten(l.update().stmts());
    List<Stmt> out = new ArrayList<>();
    boolean continues = update.size() > 1 && mentions(body, l.label());
    if (continues) {
      Label frame = cx.names.label();
      Block framed = new Rewriter() {
        @Override
        protected List<Stmt> stmts(Stmt x) {
          return x instanceof Continue c && c.target().equals(l.label()) ? List.of(new Break(frame, c.src())) : List.of(x);
        }
      }.rewrite(new Block(body));
      out.add(new Labeled(frame, framed, l.src()));
    } else {
      out.addAll(body);
    }
    out.addAll(update);
    return flatten(out);
  }

  private static boolean mentions(List<Stmt> body, Label label) {
    boolean[] found = {false};
    new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt x) {
        if (x instanceof Continue c && c.target().equals(label)) found[0] = true;
        return List.of(x);
      }
    }.rewrite(new Block(body));
    return found[0];
  }

  private List<Level> nest(Loop outer, Map<Var, Object> env, Set<Var> params, Context cx) {
    List<Level> levels = new ArrayList<>();
    Map<Var, Object> scope = new HashMap<>(env);
    Loop loop = outer;
    while (loop != null) {
      if (levels.size() == 3) throw Refusal.error(src(loop, cx), "4-D @Parallel nest", "at most three @Parallel loops can be nested");
      Level l = level(loop, cx);
      Src s = src(loop, cx);
      Object start = scope.get(l.var());
      if (start == null || start == UNKNOWN)
        throw Refusal.error(s, "@Parallel loop start", "the start of @Parallel loop '" + l.var().name() + "' must be computed from the parameters before the loop");
      Expr end = hostExpr(l.end(), scope, params, s, "end", l.var());
      Expr step = hostExpr(l.step(), scope, params, s, "step", l.var());
      checkStep(l, step, s);
      for (Var v : assigned(new Block(l.body()))) {
        if (v.equals(l.var()))
          throw Refusal.error(s, "assigning the @Parallel variable", "the @Parallel variable '" + v.name() + "' is assigned inside its loop");
      }
      checkExits(l.body().subList(uniformExits(l.body(), outer, levels, loop), l.body().size()), l, levels, s);
      levels.add(new Level(loop, l.var(), hostExpr((Expr) start, scope, params, s, "start", l.var()), step, l.op(), end, l.body()));
      scope.put(l.var(), UNKNOWN);
      // an inner parallel loop must be the last statement, after plain assignments only
      Loop inner = null;
      List<Stmt> body = flatten(l.body());
      for (int k = 0; k < body.size(); k++) {
        Stmt x = body.get(k);
        if (x instanceof Loop il && level(il, cx) != null) {
          if (k != body.size() - 1)
            throw Refusal.error(srcOf(body.get(k + 1), il, cx), "code after an inner @Parallel loop",
                "statements after an inner @Parallel loop are not supported: @Parallel loops must be perfectly nested");
          inner = il;
          levels.set(levels.size() - 1, withBody(levels.get(levels.size() - 1), body.subList(0, k)));
        } else if (x instanceof Assign a) {
          record(a, scope);
        } else {
          refuseNested(x, cx, null);
          for (Var v : assigned(x)) scope.put(v, UNKNOWN);
        }
      }
      if (inner != null) {
        for (Stmt x : levels.get(levels.size() - 1).body())
          if (!(x instanceof Assign))
            throw Refusal.error(srcOf(x, inner, cx), "code between @Parallel loops",
                "only assignments to local variables may stand between nested @Parallel loops");
      }
      loop = inner;
    }
    return levels;
  }

  private static Level withBody(Level l, List<Stmt> body) {
    return new Level(l.loop(), l.var(), l.start(), l.step(), l.op(), l.end(), new ArrayList<>(body));
  }

  /** A loop bound as the host will evaluate it: parameters, lengths, constants and arithmetic only. */
  private static Expr hostExpr(Expr e, Map<Var, Object> scope, Set<Var> params, Src s, String what, Var v) {
    Expr x = substitute(e, scope);
    if (x != null) x = constantLengths(x);
    String problem = x == null ? "a variable computed inside the nest or in a branch" : hostProblem(x, params);
    if (problem != null)
      throw Refusal.error(s, "@Parallel loop " + what, "the " + what + " of @Parallel loop '" + v.name()
          + "' must be computable from the parameters before the loop; it uses " + problem);
    return x;
  }

  /**
   * {@code new int[8].length} (a bound from a local array of constant size, as TornadoVM programs write it) is 8;
   * {@code new int[n].length} is n, an array sized at launch (pass {@code launchSized}; the host refuses a negative n before the launch).
   */
  private static Expr constantLengths(Expr e) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        if (x instanceof Length l && l.array() instanceof Alloc a) {
          if (a.length() == null && a.type().length() >= 0) return Const.of(a.type().length());
          if (a.length() instanceof Const c) return c;
          if (a.length() != null && a.type().launchSized()) return a.length();
        }
        return x;
      }
    }.rewrite(e);
  }

  private static String hostProblem(Expr e, Set<Var> params) {
    return switch (e) {
      case Const c -> null;
      case Read r -> params.contains(r.var()) && r.var().type() instanceof Prim ? null : "'" + r.var().name() + "'";
      case Length l -> l.array() instanceof Read r && params.contains(r.var()) ? null : "the length of a local array";
      case Load l -> "an array element (the host cannot read device memory at launch)";
      case Unary u -> hostProblem(u.x(), params);
      case Binary b -> first(hostProblem(b.a(), params), hostProblem(b.b(), params));
      case Compare c -> first(hostProblem(c.a(), params), hostProblem(c.b(), params));
      case Logic l -> first(hostProblem(l.a(), params), hostProblem(l.b(), params));
      case Convert c -> hostProblem(c.x(), params);
      case Select s -> first(hostProblem(s.cond(), params), first(hostProblem(s.a(), params), hostProblem(s.b(), params)));
      case Call c when c.op() == Intrinsic.MIN || c.op() == Intrinsic.MAX ->
          first(hostProblem(c.args().get(0), params), hostProblem(c.args().get(1), params));
      // A collection parameter's shape (Matrix2DFloat.getNumRows()): the host reads it from the collection.
      case Call c when c.op() == Intrinsic.SHAPE && c.args().get(0) instanceof Read r && params.contains(r.var()) -> null;
      case Call c -> "the function " + c.op().name().toLowerCase();
      case Invoke i -> "a call";
      case Alloc a -> "an allocation";
    };
  }

  private static String first(String a, String b) {
    return a != null ? a : b;
  }

  private static void checkStep(Level l, Expr step, Src s) {
    if (!(step instanceof Const c) && !(step instanceof Unary u && u.x() instanceof Const)) {
      if (l.op() == Op.Compare.NE || l.op() == Op.Compare.EQ)
        throw Refusal.error(s, "@Parallel loop step", "a @Parallel loop with != needs a constant step of 1 or -1");
      return;
    }
    long v = ((Number) HostEval.eval(step, Map.of())).longValue();
    boolean ok = switch (l.op()) {
      case LT, LE -> v > 0;
      case GT, GE -> v < 0;
      case NE -> v == 1 || v == -1;
      case EQ -> false;
    };
    if (!ok) throw Refusal.error(s, "@Parallel loop step", "the step " + v + " of @Parallel loop '" + l.var().name()
        + "' never reaches its end (" + l.op().symbol + ")");
  }

  /** The trip count in long arithmetic: {@code ceil((end - start) / step)} for the loop's comparison, at least 0. */
  private static Expr count(Level l) {
    Expr a = toLong(l.start()), b = toLong(l.end()), s = toLong(l.step());
    Expr one = Const.of(1L), zero = Const.of(0L);
    Expr d = new Unary(Op.Unary.NEG, s);
    return switch (l.op()) {
      case LT -> new Select(new Compare(Op.Compare.GT, b, a), div(add(sub(b, a), sub(s, one)), s), zero);
      case LE -> new Select(new Compare(Op.Compare.GE, b, a), add(div(sub(b, a), s), one), zero);
      case GT -> new Select(new Compare(Op.Compare.GT, a, b), div(add(sub(a, b), sub(d, one)), d), zero);
      case GE -> new Select(new Compare(Op.Compare.GE, a, b), add(div(sub(a, b), d), one), zero);
      case NE -> new Select(new Compare(Op.Compare.GT, s, zero),
          new Select(new Compare(Op.Compare.GT, b, a), sub(b, a), zero), new Select(new Compare(Op.Compare.GT, a, b), sub(a, b), zero));
      case EQ -> zero;
    };
  }

  private static Expr toLong(Expr e) {
    return new Convert(Prim.LONG, e);
  }

  private static Expr add(Expr a, Expr b) { return new Binary(Op.Binary.ADD, a, b); }
  private static Expr sub(Expr a, Expr b) { return new Binary(Op.Binary.SUB, a, b); }
  private static Expr div(Expr a, Expr b) { return new Binary(Op.Binary.DIV, a, b); }

  /**
   * How many statements at the start of a parallel loop's body are {@code if (c) return;} or
   * {@code if (c) break;} (out of the nest) with {@code c} the same for every iteration: it reads
   * no memory and no variable the nest assigns. Java then stops at the first iteration or not at
   * all, and every work-item agrees — it skips its iteration exactly when Java runs none.
   */
  private static int uniformExits(List<Stmt> body, Loop nest, List<Level> outer, Loop loop) {
    Set<Label> labels = new HashSet<>();
    labels.add(loop.label());
    for (Level o : outer) labels.add(o.loop().label());
    Set<Var> assignedInNest = assigned(nest);
    int k = 0;
    while (k < body.size() && body.get(k) instanceof If i && i.otherwise().isEmpty() && i.then().stmts().size() == 1
        && (i.then().stmts().get(0) instanceof Return r && r.value() == null
            || i.then().stmts().get(0) instanceof Break b && labels.contains(b.target()))
        && invariant(i.cond(), assignedInNest)) k++;
    return k;
  }

  private static boolean invariant(Expr c, Set<Var> assignedInNest) {
    boolean[] ok = {true};
    IrWalk.walk(new Eval(c, Src.NONE), new IrWalk.Visitor() {
      @Override
      public void expr(Expr e, Stmt in) {
        if (e instanceof Load || e instanceof Invoke || e instanceof Call call && call.op().hasEffect()
            || e instanceof Read r && assignedInNest.contains(r.var())) ok[0] = false;
      }
    });
    return ok[0];
  }

  /** A return or break out of a parallel loop cannot keep Java's meaning. */
  private static void checkExits(List<Stmt> body, Level l, List<Level> outer, Src s) {
    Set<Label> nest = new HashSet<>();
    nest.add(l.loop().label());
    for (Level o : outer) nest.add(o.loop().label());
    new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt x) {
        if (x instanceof Return)
          throw Refusal.error(x.src() == Src.NONE ? s : x.src(), "return inside a @Parallel loop",
              "'return' inside a @Parallel loop is not supported: Java would stop every later iteration, which work-items running at once cannot do");
        if (x instanceof Break b && nest.contains(b.target()))
          throw Refusal.error(x.src() == Src.NONE ? s : x.src(), "break out of a @Parallel loop",
              "'break' out of a @Parallel loop is not supported: its iterations run at once, so none can stop the others");
        return List.of(x);
      }
    }.rewrite(new Block(body));
  }

  /** Inside the nest, {@code continue} of a parallel loop ends this work-item: a break out of the frame. */
  private static List<Stmt> continueToBreak(List<Stmt> body, List<Level> nest, Label frame) {
    Set<Label> labels = new HashSet<>();
    for (Level l : nest) labels.add(l.loop().label());
    return new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt x) {
        if (x instanceof Continue c && labels.contains(c.target())) return List.of(new Break(frame, c.src()));
        return List.of(x);
      }
    }.rewrite(new Block(body)).stmts();
  }

  /** Refuses a parallel loop found anywhere in {@code s} (it is not at the top of the method or not perfectly nested). */
  private static void refuseNested(Stmt s, Context cx, Loop allowed) {
    new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt x) {
        if (x instanceof Loop l && l != allowed && level(l, cx) != null)
          throw Refusal.error(src(l, cx), "nested @Parallel loop",
              "a @Parallel loop inside an if, a sequential loop or a switch is not supported; @Parallel loops must be at the top of the method, perfectly nested");
        return List.of(x);
      }
    }.rewrite(s);
  }

  private static dev.loopjit.api.KernelCompilationException notALoop(Var v, Context cx) {
    Src at = cx.annotated.getOrDefault(v, new Src(cx.method.owner().getName(), cx.method.name(), -1, null));
    return Refusal.error(at, "@Parallel variable", "@Parallel variable '" + v.name()
        + "' is not the counter of a loop of the form for (@Parallel int i = start; i < end; i += step)");
  }

  private static Src src(Loop l, Context cx) {
    Src s = cx.loopSrc.get(l.label());
    return s == null || s == Src.NONE ? l.src() : s;
  }

  private static Src srcOf(Stmt s, Loop near, Context cx) {
    return s.src() == Src.NONE ? src(near, cx) : s.src();
  }

  /**
   * Whether {@code body} uses the work-item's place in a grid: its ids or sizes, a barrier, a local
   * array or a SIMD-group operation — what a KernelContext gives besides atomicAdd.
   */
  static boolean usesWorkItems(Stmt body) {
    return IrWalk.anyExpr(body, e -> switch (e) {
      case Call c -> switch (c.op()) {
        case GLOBAL_ID, LOCAL_ID, GROUP_ID, GLOBAL_SIZE, LOCAL_SIZE, BARRIER_LOCAL, BARRIER_GLOBAL, SIMD_SHUFFLE, SIMD_SUM, SIMD_MAX -> true;
        default -> false;
      };
      case Alloc a -> a.type().space() == ArrayType.Space.LOCAL;
      default -> false;
    });
  }
}
