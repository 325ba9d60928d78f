// Makes a random, valid, terminating kernel from a seed: every primitive type, operator, cast, Math helper and loop shape.
package dev.loopjit.fuzz;

import dev.loopjit.fuzz.Code.Ex;
import dev.loopjit.fuzz.Code.St;
import dev.loopjit.fuzz.FuzzKernel.Param;
import dev.loopjit.fuzz.FuzzKernel.Role;
import dev.loopjit.fuzz.FuzzKernel.Shape;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random kernels whose Java meaning is fully defined and the same on every device: integer
 * divisors and array indices are guarded so nothing throws, every loop has a counter bound, work-item
 * {@code i} writes only its own output slots, NaN payloads and NaN signs (which Java leaves to the
 * hardware) never reach an integer ({@code floatToRawIntBits} sees only non-NaN values, {@code
 * copySign} is {@code StrictMath}'s), and the built-ins whose accuracy OpenCL only bounds (sin, exp,
 * pow, ...) write only the sink output. Everything else must match the jvm bit for bit.
 *
 * <p>The same seed gives the same kernel. {@link #generate(long)} picks the shape and features;
 * statements and expressions recurse with shrinking budgets.
 */
final class KernelGenerator {
  private static final int MASK = 7; // private arrays and tables have 8 elements

  private final SplittableRandom r;
  private final long seed;
  private final List<Param> params = new ArrayList<>();
  private final List<St> members = new ArrayList<>();
  private final List<Helper> helpers = new ArrayList<>();
  private final List<Table> tables = new ArrayList<>();
  private int names;

  /** A readable scalar in scope; {@code assignable} if statements may change it. */
  private record Var(String name, JType type, boolean assignable) {}

  /** A private array local. */
  private record Priv(String name, JType type) {}

  /** A static final table. */
  private record Table(String name, JType type) {}

  /** A helper method returning {@code type}, or writing an output ({@code output} not null). */
  private record Helper(String name, JType type, List<JType> args, Param output) {}

  /** An enclosing construct a break or continue may leave: a loop or a switch, with its label (or null). */
  private record Jump(boolean loop, String label, boolean parallel) {
    Jump(boolean loop, String label) {
      this(loop, label, false);
    }
  }

  /** Where statements are being generated. */
  private final class Scope {
    final List<Var> vars = new ArrayList<>();
    final List<Priv> privs = new ArrayList<>();
    final Deque<Jump> jumps = new ArrayDeque<>();
    final boolean kernel;       // the work-item body (has i, inputs and outputs)
    final JType returns;        // a helper's return type (null in the kernel)
    int budget;                 // statements left
    int outSlot;                // next free observation slot per output

    Scope(boolean kernel, JType returns, int budget) {
      this.kernel = kernel;
      this.returns = returns;
      this.budget = budget;
    }
  }

  private KernelGenerator(long seed) {
    this.seed = seed;
    this.r = new SplittableRandom(seed);
  }

  /** The kernel for {@code seed}, in class {@code className}. */
  static FuzzKernel generate(long seed, String className) {
    return new KernelGenerator(seed).kernel(className);
  }

  private String fresh(String prefix) {
    return prefix + names++;
  }

  private boolean chance(int percent) {
    return r.nextInt(100) < percent;
  }

  private <T> T pick(List<T> l) {
    return l.get(r.nextInt(l.size()));
  }

  @SafeVarargs
  private <T> T pick(T... l) {
    return l[r.nextInt(l.length)];
  }

  // ---------------------------------------------------------------- the kernel

  private static boolean context(Shape shape) {
    return shape == Shape.CONTEXT || shape == Shape.CONTEXT_LOCAL || shape == Shape.CONTEXT_GROUP;
  }

  private FuzzKernel kernel(String className) {
    Shape shape = pickShape();
    int n = pick(1, 2, 3, 7, 8, 31, 64, 100, 129, 256);
    int[] dims = null;
    int local = 0;
    if (shape == Shape.NEST_2D) dims = new int[] {pick(1, 3, 8, 13), pick(1, 2, 5, 9), 1};
    if (shape == Shape.NEST_3D) dims = new int[] {pick(1, 2, 4, 5), pick(1, 3, 4), pick(1, 2, 3)};
    if (dims != null) n = dims[0] * dims[1] * dims[2];
    if (context(shape)) local = pick(1, 4, 8, 16, 32, 64);
    int variant = shape == Shape.CONTEXT_GROUP ? r.nextInt(128) : 0;

    if (context(shape)) params.add(new Param("ctx", Role.CONTEXT, JType.INT, false, false, null));
    boolean offHeap = chance(25) && shape != Shape.SEQUENTIAL;
    // inputs
    List<JType> inTypes = new ArrayList<>(List.of(JType.values()));
    shuffle(inTypes);
    int inputs = 2 + r.nextInt(3);
    for (JType t : inTypes.subList(0, inputs)) {
      boolean oh = offHeap && t != JType.CHAR && t != JType.BOOLEAN && chance(60);
      params.add(new Param(t.letter + "a", Role.INPUT, t, oh, false, null));
    }
    // outputs: int, long, float, double always (every local is observed), narrow ones sometimes
    for (JType t : List.of(JType.INT, JType.LONG, JType.FLOAT, JType.DOUBLE))
      params.add(new Param("o" + t.letter, Role.OUTPUT, t, offHeap && chance(60), false, null));
    if (chance(20)) params.add(new Param("oh", Role.OUTPUT, JType.FLOAT, false, true, null));
    else if (chance(30)) {
      JType t = pick(JType.BYTE, JType.SHORT, JType.CHAR, JType.BOOLEAN);
      params.add(new Param("o" + t.letter, Role.OUTPUT, t, false, false, null));
    }
    if (context(shape) && chance(40)) params.add(new Param("acc", Role.ATOMIC, JType.INT, false, false, null));
    boolean sinks = chance(30);
    if (sinks) params.add(new Param("sd", Role.SINK, JType.DOUBLE, false, false, null));
    if (shape == Shape.REDUCTION) {
      int count = 1 + r.nextInt(2);
      for (int k = 0; k < count; k++) {
        JType t = pick(JType.INT, JType.LONG, JType.FLOAT, JType.DOUBLE);
        String op = t.isFloating() ? pick("min", "max") : pick("+", "*", "min", "max");
        params.add(new Param("r" + k, Role.REDUCE, t, offHeap && chance(50), false, op));
      }
    }
    // scalars
    int scalars = r.nextInt(3);
    for (int k = 0; k < scalars && params.size() < 11; k++) {
      JType t = pick(JType.values());
      params.add(new Param("s" + k, Role.SCALAR, t, false, false, null));
    }
    if (shape == Shape.NEST_2D || shape == Shape.NEST_3D) {
      params.add(new Param("w", Role.DIM, JType.INT, false, false, null));
      params.add(new Param("h", Role.DIM, JType.INT, false, false, null));
      if (shape == Shape.NEST_3D) params.add(new Param("d", Role.DIM, JType.INT, false, false, null));
    }
    params.add(new Param("n", Role.COUNT, JType.INT, false, false, null));
    if (shape == Shape.STRIDED) params.add(new Param("lo", Role.LOW, JType.INT, false, false, null));
    while (params.size() > 15) params.remove(params.stream().filter(p -> p.role() == Role.SCALAR).findFirst()
        .orElseGet(() -> params.stream().filter(p -> p.role() == Role.INPUT).findFirst().orElseThrow()));

    // tables and helpers
    int tableCount = chance(20) ? 1 + r.nextInt(2) : 0;
    for (int k = 0; k < tableCount; k++) table();
    int helperCount = chance(40) ? 1 + r.nextInt(3) : 0;
    for (int k = 0; k < helperCount; k++) helper();

    // the work-item: locals first, then statements, then every local observed
    Scope s = new Scope(true, null, 8 + r.nextInt(18));
    for (Param p : params)
      if (p.role() == Role.SCALAR) s.vars.add(new Var(p.name(), p.type(), false));
    s.vars.add(new Var("i", JType.INT, false));
    if (shape == Shape.CONTEXT_LOCAL || shape == Shape.CONTEXT_GROUP) s.vars.add(new Var("neighbour", JType.INT, false));
    if (shape == Shape.CONTEXT_GROUP) s.vars.add(new Var("total", JType.INT, false));
    if (context(shape))
      for (String id : List.of("ctx.localIdx", "ctx.groupIdx", "ctx.localGroupSizeX", "ctx.globalGroupSizeX"))
        if (chance(50)) s.vars.add(new Var(id, JType.INT, false));
    List<St> prefix = new ArrayList<>();
    if (chance(25) && !context(shape)) {
      Scope outer = new Scope(false, null, 0);
      outer.vars.addAll(s.vars.stream().filter(v -> !v.name().equals("i")).toList());
      String name = fresh("base");
      JType t = pick(JType.INT, JType.LONG, JType.DOUBLE);
      prefix.add(St.of(t.java + " " + name + " = #0;", expr(outer, t, 2)));
      s.vars.add(new Var(name, t, false));
    }
    List<St> body = new ArrayList<>();
    int locals = 3 + r.nextInt(6);
    for (int k = 0; k < locals; k++) {
      JType t = pick(JType.values());
      String name = fresh("v");
      body.add(St.of(t.java + " " + name + " = #0;", chance(40) ? literal(t) : expr(s, t, 2)));
      s.vars.add(new Var(name, t, true));
    }
    if (chance(35)) {
      JType t = pick(JType.values());
      String name = fresh("p");
      if (chance(50)) body.add(St.of(t.java + "[] " + name + " = new " + t.java + "[" + (MASK + 1) + "];"));
      else {
        List<String> vals = new ArrayList<>();
        for (int k = 0; k <= MASK; k++) vals.add(t.literal(t.value(r)));
        body.add(St.of(t.java + "[] " + name + " = {" + String.join(", ", vals) + "};"));
      }
      s.privs.add(new Priv(name, t));
    }
    List<St> suffix = new ArrayList<>();
    if (shape == Shape.ACROSS) across(s, prefix, body, suffix);
    boolean loopBody = !context(shape);
    if (loopBody && chance(30)) s.jumps.push(new Jump(true, null, true)); // statements may `continue` the work-item's loop
    List<St> statements = new ArrayList<>(block(s, 3));
    if (endsInJump(statements)) statements.remove(statements.size() - 1); // the observing stores follow
    body.addAll(statements);
    s.jumps.clear();
    if (shape == Shape.REDUCTION)
      for (Param p : params) if (p.role() == Role.REDUCE) body.add(reduceUpdate(s, p));
    for (Var v : List.copyOf(s.vars)) if (v.assignable()) observe(s, v.name(), v.type(), body);
    for (Priv p : s.privs) observe(s, p.name() + "[" + r.nextInt(MASK + 1) + "]", p.type(), body);
    return new FuzzKernel(className, seed, shape, List.copyOf(params), List.copyOf(members), prefix, body, suffix, variant, n, dims, local);
  }

  /** Only these shapes, when {@code fuzz.shapes} names some (e.g. {@code CONTEXT_GROUP,ACROSS}); else all. */
  private static final List<Shape> ONLY = System.getProperty("fuzz.shapes", "").isBlank() ? List.of()
      : java.util.Arrays.stream(System.getProperty("fuzz.shapes").split(",")).map(String::trim).map(Shape::valueOf).toList();

  private Shape pickShape() {
    if (!ONLY.isEmpty()) return pick(ONLY);
    int k = r.nextInt(100);
    if (k < 26) return Shape.PARALLEL;
    if (k < 31) return Shape.REVERSED;
    if (k < 35) return Shape.STRIDED;
    if (k < 43) return Shape.NEST_2D;
    if (k < 47) return Shape.NEST_3D;
    if (k < 51) return Shape.FORWARDED;
    if (k < 56) return Shape.SEQUENTIAL;
    if (k < 65) return Shape.REDUCTION;
    if (k < 76) return Shape.CONTEXT;
    if (k < 82) return Shape.CONTEXT_LOCAL;
    if (k < 92) return Shape.CONTEXT_GROUP;
    return Shape.ACROSS;
  }

  /**
   * The values around an ACROSS loop: a private array {@code q} and a variable {@code carried} set
   * before it; the iteration reads {@code q[c]} (and perhaps writes it first, or after), reads or
   * assigns {@code carried}; statements after the loop read them into the last slot of an output.
   * About half of these pass a value between iterations or out of the loop: every device and the
   * jvm must refuse those.
   */
  private void across(Scope s, List<St> prefix, List<St> body, List<St> suffix) {
    List<String> vals = new ArrayList<>();
    for (int k = 0; k <= MASK; k++) vals.add(JType.INT.literal(JType.INT.value(r)));
    prefix.add(St.of("int[] q = {" + String.join(", ", vals) + "};"));
    prefix.add(St.of("int carried = " + JType.INT.literal(JType.INT.value(r)) + ";"));
    int c = r.nextInt(MASK + 1);
    String qv = fresh("qv");
    switch (r.nextInt(5)) {
      case 0 -> body.add(St.of("int " + qv + " = q[" + c + "] + carried;"));                          // read only
      case 1 -> {                                                                                     // written, then read
        body.add(St.of("q[" + c + "] = #0;", expr(s, JType.INT, 2)));
        body.add(St.of("int " + qv + " = q[" + c + "];"));
      }
      case 2 -> {                                                                                     // read, then written: carried
        body.add(St.of("int " + qv + " = q[" + c + "];"));
        body.add(St.of("q[" + c + "] = #0;", expr(s, JType.INT, 2)));
      }
      case 3 -> {                                                                                     // a variable read, then assigned: carried
        body.add(St.of("int " + qv + " = carried;"));
        body.add(St.of("carried = #0;", expr(s, JType.INT, 2)));
      }
      default -> {                                                                                    // assigned, then read
        body.add(St.of("carried = #0;", expr(s, JType.INT, 2)));
        body.add(St.of("int " + qv + " = carried;"));
      }
    }
    s.vars.add(new Var(qv, JType.INT, false));
    observe(s, qv, JType.INT, body);
    Param out = output(JType.INT);
    String last = "n * " + FuzzKernel.SLOTS + " - 1";
    if (chance(60)) suffix.add(St.of(out.store(last, out.load(last) + " + q[" + r.nextInt(MASK + 1) + "]")));
    if (chance(40)) suffix.add(St.of(out.store(last, out.load(last) + " ^ carried")));
  }

  private <T> void shuffle(List<T> l) {
    for (int i = l.size() - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      T t = l.get(i);
      l.set(i, l.get(j));
      l.set(j, t);
    }
  }

  private Param output(JType t) {
    for (Param p : params) if (p.role() == Role.OUTPUT && p.element() == t && !p.half()) return p;
    return null;
  }

  private Param outputOrHalf(JType t) {
    List<Param> l = params.stream().filter(p -> p.role() == Role.OUTPUT && p.element() == t).toList();
    return l.isEmpty() ? null : pick(l);
  }

  /** Stores {@code value} (of type {@code t}) into the next observation slot of an output that holds it. */
  private void observe(Scope s, String value, JType t, List<St> into) {
    int slot = 6 + s.outSlot++ % (FuzzKernel.SLOTS - 6);
    Param out = output(t);
    String v = value;
    if (out == null) {
      switch (t) {
        case BOOLEAN -> { out = output(JType.INT); v = "(" + value + " ? 1 : 0)"; }
        case BYTE, SHORT, CHAR -> out = output(JType.INT);
        default -> throw new IllegalStateException("no output for " + t);
      }
    }
    into.add(St.of(out.store("i * " + FuzzKernel.SLOTS + " + " + slot, v)));
  }

  private St reduceUpdate(Scope s, Param p) {
    String cur = p.load("0");
    Ex x = expr(s, p.type(), 2);
    String value = switch (p.reduce()) {
      case "+" -> cur + " + #0";
      case "*" -> cur + " * #0";
      case "min" -> "Math.min(" + cur + ", #0)";
      default -> "Math.max(#0, " + cur + ")";
    };
    return St.of(p.store("0", value), x);
  }

  // ---------------------------------------------------------------- tables and helpers

  private void table() {
    JType t = pick(JType.INT, JType.LONG, JType.FLOAT, JType.DOUBLE, JType.SHORT, JType.BYTE, JType.CHAR, JType.BOOLEAN);
    String name = "T" + tables.size();
    List<String> vals = new ArrayList<>();
    for (int k = 0; k <= MASK; k++) vals.add(t.literal(t.value(r)));
    members.add(St.of("static final " + t.java + "[] " + name + " = {" + String.join(", ", vals) + "};"));
    tables.add(new Table(name, t));
  }

  private void helper() {
    String name = fresh("h");
    if (chance(25)) { // a void helper writing two slots of an output
      JType t = pick(JType.INT, JType.LONG, JType.FLOAT, JType.DOUBLE);
      Param out = output(t);
      Param formal = new Param("o", Role.OUTPUT, t, out.offHeap(), false, null);
      Scope s = new Scope(false, null, 2);
      s.vars.add(new Var("x", t, true));
      s.vars.add(new Var("at", JType.INT, false));
      List<St> body = new ArrayList<>(block(s, 2));
      body.add(St.of(formal.store("at", "#0"), expr(s, t, 2)));
      body.add(St.of(formal.store("at + 1", "#0"), expr(s, t, 2)));
      members.add(St.block("static void " + name + "(" + formal.javaType() + " o, int at, " + t.java + " x) @0", List.of(), List.of(body)));
      helpers.add(new Helper(name, t, List.of(t), out));
      return;
    }
    JType ret = pick(JType.values());
    int arity = 1 + r.nextInt(3);
    List<JType> args = new ArrayList<>();
    Scope s = new Scope(false, ret, 2 + r.nextInt(5));
    StringBuilder sig = new StringBuilder();
    for (int k = 0; k < arity; k++) {
      JType t = pick(JType.values());
      args.add(t);
      s.vars.add(new Var("a" + k, t, true));
      sig.append(k == 0 ? "" : ", ").append(t.java).append(" a").append(k);
    }
    List<St> body = new ArrayList<>(block(s, 2));
    body.add(St.of("return #0;", expr(s, ret, 3)));
    members.add(St.block("static " + ret.java + " " + name + "(" + sig + ") @0", List.of(), List.of(body)));
    helpers.add(new Helper(name, ret, List.copyOf(args), null));
  }

  // ---------------------------------------------------------------- statements

  /** A block of statements at nesting {@code depth} (0: only simple ones). */
  private List<St> block(Scope s, int depth) {
    List<St> out = new ArrayList<>();
    int count = 1 + r.nextInt(Math.max(1, Math.min(s.budget, 5)));
    for (int k = 0; k < count && s.budget > 0; k++) {
      s.budget--;
      out.add(statement(s, depth));
    }
    // a block inside a loop or switch may end by leaving it
    if (!s.jumps.isEmpty() && chance(15)) out.add(St.of(jump(s)));
    return out;
  }

  private St statement(Scope s, int depth) {
    List<Var> assignable = s.vars.stream().filter(Var::assignable).toList();
    int k = r.nextInt(depth > 0 ? 100 : 55);
    if (k < 25 && !assignable.isEmpty()) {
      Var v = pick(assignable);
      return St.of(v.name() + " = #0;", expr(s, v.type(), 3));
    }
    if (k < 35 && !assignable.isEmpty()) return compound(s, pick(assignable));
    if (k < 50 && s.kernel) return store(s);
    if (k < 55 && !s.privs.isEmpty()) {
      Priv p = pick(s.privs);
      return St.of(p.name() + "[(#0) & " + MASK + "] = #1;", expr(s, JType.INT, 2), expr(s, p.type(), 2));
    }
    if (k < 55) return store(s);
    if (k < 68) return ifStatement(s, depth);
    if (k < 78) return loop(s, depth);
    if (k < 88) return switchStatement(s, depth);
    if (k < 92 && s.kernel && params.stream().anyMatch(p -> p.role() == Role.SINK)) return sink(s);
    if (k < 92 && s.kernel && params.stream().anyMatch(p -> p.role() == Role.ATOMIC))
      return St.of("ctx.atomicAdd(acc, (#0) & 3, #1);", index(s), expr(s, JType.INT, 2));
    if (k < 96 && s.kernel && helpers.stream().anyMatch(h -> h.output() != null)) {
      Helper h = pick(helpers.stream().filter(x -> x.output() != null).toList());
      return St.of(h.name() + "(" + h.output().name() + ", i * " + FuzzKernel.SLOTS + " + " + (2 * r.nextInt(3)) + ", #0);",
          expr(s, h.type(), 3));
    }
    if (s.returns != null && chance(50)) return St.block("if (#0) @0", List.of(expr(s, JType.BOOLEAN, 2)),
        List.of(List.of(St.of("return #0;", expr(s, s.returns, 2)))));
    if (!assignable.isEmpty()) {
      Var v = pick(assignable);
      return St.of(v.name() + " = #0;", expr(s, v.type(), 3));
    }
    return ifStatement(s, 0);
  }

  private St store(Scope s) {
    if (!s.kernel) {
      List<Var> assignable = s.vars.stream().filter(Var::assignable).toList();
      Var v = pick(assignable);
      return St.of(v.name() + " = #0;", expr(s, v.type(), 3));
    }
    List<Param> outs = params.stream().filter(p -> p.role() == Role.OUTPUT).toList();
    Param p = pick(outs);
    String idx = "i * " + FuzzKernel.SLOTS + " + " + r.nextInt(6);
    if (chance(25) && p.element().isNumeric() && !p.offHeap() && !p.half()) {
      String op = p.element().isIntegral() ? pick("+=", "-=", "*=", "^=", "|=") : pick("+=", "-=", "*=");
      return St.of(p.name() + "[" + idx + "] " + op + " #0;", expr(s, p.element(), 3));
    }
    return St.of(p.store(idx, "#0"), expr(s, p.element(), 3));
  }

  private St sink(Scope s) {
    String f = pick("sin", "cos", "tan", "asin", "acos", "atan", "exp", "log", "log10", "sinh", "cosh", "tanh", "cbrt",
        "expm1", "log1p", "pow", "atan2", "hypot");
    boolean two = f.equals("pow") || f.equals("atan2") || f.equals("hypot");
    String idx = "i * " + FuzzKernel.SLOTS + " + " + r.nextInt(FuzzKernel.SLOTS);
    return two ? St.of("sd[" + idx + "] = Math." + f + "(#0, #1);", expr(s, JType.DOUBLE, 2), expr(s, JType.DOUBLE, 2))
        : St.of("sd[" + idx + "] = Math." + f + "(#0);", expr(s, JType.DOUBLE, 3));
  }

  private St compound(Scope s, Var v) {
    JType t = v.type();
    if (t == JType.BOOLEAN) return St.of(v.name() + " " + pick("&=", "|=", "^=") + " #0;", expr(s, JType.BOOLEAN, 2));
    if (chance(20)) return St.of(pick(v.name() + "++;", v.name() + "--;", "++" + v.name() + ";", "--" + v.name() + ";"));
    JType rhs = t.isIntegral() && chance(70) ? pick(JType.INT, JType.LONG, t) : pick(JType.NUMERIC);
    List<String> ops = new ArrayList<>(List.of("+=", "-=", "*=", "/=", "%="));
    if (t.isIntegral() && rhs.isIntegral()) ops.addAll(List.of("&=", "|=", "^=", "<<=", ">>=", ">>>="));
    String op = pick(ops);
    if ((op.equals("/=") || op.equals("%=")) && rhs.isIntegral())
      return St.of(v.name() + " " + op + " #0;", nonZero(expr(s, rhs, 2)));
    return St.of(v.name() + " " + op + " #0;", expr(s, rhs, 2));
  }

  private St ifStatement(Scope s, int depth) {
    Ex c = expr(s, JType.BOOLEAN, 3);
    List<St> then = block(s, depth - 1);
    if (chance(50)) return St.block("if (#0) @0", List.of(c), List.of(then));
    List<St> otherwise = new ArrayList<>(block(s, depth - 1));
    if (endsInJump(then) && endsInJump(otherwise)) otherwise.remove(otherwise.size() - 1);
    return St.block("if (#0) @0 else @1", List.of(c), List.of(then, otherwise));
  }

  private St loop(Scope s, int depth) {
    String k = fresh("k");
    int bound = 1 + r.nextInt(4);
    String label = chance(30) ? fresh("L") : null;
    String lab = label == null ? "" : label + ": ";
    s.jumps.push(new Jump(true, label));
    s.vars.add(new Var(k, JType.INT, false));
    int kind = r.nextInt(3);
    Ex cond = expr(s, JType.BOOLEAN, 2);
    List<St> body = new ArrayList<>(block(s, depth - 1));
    s.vars.removeIf(v -> v.name().equals(k));
    s.jumps.pop();
    // a do-while whose body always jumps elsewhere never reaches its condition: javac calls what follows unreachable
    if (kind == 2 && endsInJump(body) && !List.of("break;", "continue;").contains(body.get(body.size() - 1).template()))
      body.remove(body.size() - 1);
    return switch (kind) {
      case 0 -> chance(50)
          ? St.block(lab + "for (int " + k + " = 0; " + k + " < " + bound + "; " + k + "++) @0", List.of(), List.of(body))
          : St.block(lab + "for (int " + k + " = " + bound + "; " + k + " > 0 && (#0); " + k + "--) @0", List.of(cond), List.of(body));
      case 1 -> St.block("{ int " + k + " = 0; " + lab + "while (" + k + "++ < " + bound + " && (#0)) @0 }", List.of(cond), List.of(body));
      default -> St.block("{ int " + k + " = 0; " + lab + "do @0 while (++" + k + " < " + bound + " && (#0)); }", List.of(cond), List.of(body));
    };
  }

  private St switchStatement(Scope s, int depth) {
    Ex sel = switch (r.nextInt(4)) {
      case 0 -> Ex.of(JType.INT, "(($0) & 7)", expr(s, JType.INT, 2));
      case 1 -> Ex.of(JType.INT, "(($0) % 5)", expr(s, JType.INT, 2));
      case 2 -> expr(s, pick(JType.CHAR, JType.BYTE, JType.SHORT), 2);
      default -> expr(s, JType.INT, 2);
    };
    boolean charSel = sel.type() == JType.CHAR;
    List<Integer> values = new ArrayList<>();
    int cases = 1 + r.nextInt(4);
    boolean sparse = chance(25);
    while (values.size() < cases) {
      int v = sparse ? pick(-100, -7, 0, 3, 100, 1000, 65, 255, -1) : r.nextInt(-2, 6);
      if (charSel) v = Math.abs(v);
      if (sel.type() == JType.BYTE) v = (byte) v;
      if (!values.contains(v)) values.add(v);
    }
    boolean arrow = chance(40);
    String label = chance(15) ? fresh("S") : null;
    s.jumps.push(new Jump(false, label));
    StringBuilder t = new StringBuilder((label == null ? "" : label + ": ") + "switch (#0) {");
    List<List<St>> blocks = new ArrayList<>();
    boolean dflt = chance(60);
    List<List<String>> groups = new ArrayList<>();
    for (int v = 0; v < values.size(); ) {
      int take = v + 1 < values.size() && chance(30) ? 2 : 1;
      List<String> g = new ArrayList<>();
      for (int q = 0; q < take; q++) g.add(caseValue(values.get(v++), sel.type()));
      groups.add(g);
    }
    int arms = groups.size() + (dflt ? 1 : 0);
    for (int a = 0; a < arms; a++) {
      List<St> b = new ArrayList<>(block(s, depth - 1));
      String caseLabel = a == groups.size() ? "default" : arrow ? "case " + String.join(", ", groups.get(a))
          : "case " + String.join(": case ", groups.get(a));
      if (!arrow && a < arms - 1 && chance(65) && !endsInJump(b)) b.add(St.of("break;"));
      if (a == arms - 1 && endsInJump(b) && !b.get(b.size() - 1).template().equals("break;")) b.remove(b.size() - 1);
      t.append(' ').append(caseLabel).append(arrow ? " -> @" : ": @").append(blocks.size());
      blocks.add(b);
    }
    s.jumps.pop();
    return St.block(t.append(" }").toString(), List.of(sel), blocks);
  }

  private static String caseValue(int v, JType selector) {
    return selector == JType.CHAR ? "(char) " + v : v < 0 ? "(" + v + ")" : Integer.toString(v);
  }

  private static boolean endsInJump(List<St> b) {
    if (b.isEmpty()) return false;
    String t = b.get(b.size() - 1).template();
    return t.startsWith("break") || t.startsWith("continue") || t.startsWith("return");
  }

  /** A break or continue of an enclosing loop or switch: unlabelled for the innermost, labelled for any labelled one. */
  private String jump(Scope s) {
    List<String> options = new ArrayList<>();
    if (!s.jumps.peek().parallel()) options.add("break;"); // a break out of the @Parallel loop is refused, by design
    if (s.jumps.stream().anyMatch(Jump::loop)) options.add("continue;");
    if (options.isEmpty()) options.add("continue;");
    for (Jump j : s.jumps) {
      if (j.label() == null) continue;
      options.add("break " + j.label() + ";");
      if (j.loop()) options.add("continue " + j.label() + ";");
    }
    return pick(options);
  }

  // ---------------------------------------------------------------- expressions

  /** An expression of type {@code t}, at most {@code depth} operators deep. */
  private Ex expr(Scope s, JType t, int depth) {
    if (depth <= 0 || chance(25)) return leaf(s, t);
    return switch (t) {
      case BOOLEAN -> bool(s, depth);
      case BYTE, SHORT, CHAR -> narrow(s, t, depth);
      case INT -> intExpr(s, depth);
      case LONG -> longExpr(s, depth);
      case FLOAT -> floatExpr(s, depth);
      case DOUBLE -> doubleExpr(s, depth);
    };
  }

  private Ex literal(JType t) {
    return Ex.leaf(t, t.literal(t.value(r)));
  }

  private Ex leaf(Scope s, JType t) {
    List<java.util.function.Supplier<Ex>> options = new ArrayList<>();
    for (Var v : s.vars) if (v.type() == t) options.add(() -> Ex.leaf(t, v.name()));
    // an expression with an effect: Java evaluates left to right, and && || ?: only what they need
    List<Var> assignable = s.vars.stream().filter(v -> v.assignable() && v.type() == t).toList();
    if (!assignable.isEmpty() && chance(6)) {
      Var v = pick(assignable);
      if (t.isNumeric() && chance(60)) return Ex.leaf(t, "(" + EFFECT + pick(v.name() + "++", v.name() + "--", "++" + v.name(), "--" + v.name()) + ")");
      if (t.isNarrow() || t == JType.BOOLEAN) return Ex.of(t, "(" + EFFECT + v.name() + " = ($0))", literal(t));
      return Ex.of(t, "(" + EFFECT + v.name() + " " + pick("=", "+=", "-=", "*=") + " ($0))", leafNoEffect(s, t));
    }
    if (s.kernel) {
      for (Param p : params) {
        if (p.role() != Role.INPUT || p.element() != t) continue;
        options.add(() -> Ex.leaf(t, p.load("i")));
        options.add(() -> Ex.of(t, p.load("Math.floorMod($0, n)"), index(s)));
      }
      for (Param p : params)
        if (p.role() == Role.OUTPUT && p.element() == t && chance(20))
          options.add(() -> Ex.leaf(t, p.load("i * " + FuzzKernel.SLOTS + " + " + r.nextInt(6))));
    }
    for (Priv p : s.privs) if (p.type() == t) options.add(() -> Ex.of(t, p.name() + "[($0) & " + MASK + "]", index(s)));
    for (Table tb : tables) if (tb.type() == t) options.add(() -> Ex.of(t, tb.name() + "[($0) & " + MASK + "]", index(s)));
    if (options.isEmpty() || chance(30)) return literal(t);
    return pick(options).get();
  }

  private Ex leafNoEffect(Scope s, JType t) {
    List<Var> l = s.vars.stream().filter(v -> v.type() == t).toList();
    return l.isEmpty() || chance(40) ? literal(t) : Ex.leaf(t, pick(l).name());
  }

  /** An index: an int variable, a literal, or one operation on them; never a load. */
  private Ex index(Scope s) {
    List<Var> ints = s.vars.stream().filter(v -> v.type() == JType.INT).toList();
    Ex v = ints.isEmpty() || chance(20) ? literal(JType.INT) : Ex.leaf(JType.INT, pick(ints).name());
    if (chance(50)) return v;
    return Ex.of(JType.INT, "(($0) " + pick("+", "-", "*", "^") + " ($1))", v, ints.isEmpty() ? literal(JType.INT) : Ex.leaf(JType.INT, pick(ints).name()));
  }

  /** Marks an expression with an effect ({@code v++}, {@code v += e}): a guard may not evaluate it twice. */
  static final String EFFECT = "/*effect*/ ";

  private static boolean hasEffect(Ex x) {
    return x.template().contains(EFFECT) || x.kids().stream().anyMatch(KernelGenerator::hasEffect);
  }

  /** A divisor that is never zero: {@code (x | 1)} or {@code (x == 0 ? 1 : x)} (the latter only for an x without effects). */
  private Ex nonZero(Ex x) {
    String one = x.type() == JType.LONG ? "1L" : "1";
    if (x.type().isNarrow()) return Ex.of(JType.INT, "(($0) | 1)", x);
    return chance(50) || hasEffect(x) ? Ex.of(x.type(), "(($0) | " + one + ")", x) : Ex.of(x.type(), "(($0) == 0 ? " + one + " : ($0))", x);
  }

  /** A float or double that is never NaN, for the raw-bits views Java leaves open on NaN; an operand with effects becomes a literal. */
  private Ex notNaN(Ex x) {
    String zero = x.type() == JType.FLOAT ? "0f" : "0d";
    if (hasEffect(x)) x = literal(x.type());
    return Ex.of(x.type(), "(($0) != ($0) ? " + zero + " : ($0))", x);
  }

  private Ex intOperand(Scope s, int depth) {
    return expr(s, chance(75) ? JType.INT : pick(JType.BYTE, JType.SHORT, JType.CHAR), depth);
  }

  private Ex helperCall(Scope s, JType t, int depth) {
    List<Helper> l = helpers.stream().filter(h -> h.output() == null && h.type() == t).toList();
    if (l.isEmpty()) return null;
    Helper h = pick(l);
    List<Ex> args = new ArrayList<>();
    StringBuilder tmpl = new StringBuilder(h.name()).append('(');
    for (int k = 0; k < h.args().size(); k++) {
      args.add(expr(s, h.args().get(k), depth - 1));
      tmpl.append(k == 0 ? "" : ", ").append('$').append(k);
    }
    return new Ex(t, tmpl.append(')').toString(), args);
  }

  private Ex ternary(Scope s, JType t, int depth) {
    return Ex.of(t, "(($0) ? ($1) : ($2))", expr(s, JType.BOOLEAN, depth - 1), expr(s, t, depth - 1), expr(s, t, depth - 1));
  }

  private Ex bool(Scope s, int depth) {
    int k = r.nextInt(10);
    if (k < 4) {
      JType a = pick(JType.NUMERIC), b = chance(60) ? a : pick(JType.NUMERIC);
      return Ex.of(JType.BOOLEAN, "(($0) " + pick("<", "<=", ">", ">=", "==", "!=") + " ($1))", expr(s, a, depth - 1), expr(s, b, depth - 1));
    }
    if (k < 6) return Ex.of(JType.BOOLEAN, "(($0) " + pick("&&", "||", "&", "|", "^", "==", "!=") + " ($1))",
        expr(s, JType.BOOLEAN, depth - 1), expr(s, JType.BOOLEAN, depth - 1));
    if (k < 7) return Ex.of(JType.BOOLEAN, "(!($0))", expr(s, JType.BOOLEAN, depth - 1));
    if (k < 8) {
      JType f = pick(JType.FLOAT, JType.DOUBLE);
      return Ex.of(JType.BOOLEAN, f.box + "." + pick("isNaN", "isInfinite", "isFinite") + "($0)", expr(s, f, depth - 1));
    }
    if (k < 9) return ternary(s, JType.BOOLEAN, depth);
    Ex h = helperCall(s, JType.BOOLEAN, depth);
    return h != null ? h : leaf(s, JType.BOOLEAN);
  }

  private Ex narrow(Scope s, JType t, int depth) {
    int k = r.nextInt(10);
    if (k < 6) return Ex.of(t, "((" + t.java + ") ($0))", expr(s, pick(JType.NUMERIC), depth - 1));
    if (k < 8) return ternary(s, t, depth);
    Ex h = helperCall(s, t, depth);
    return h != null ? h : leaf(s, t);
  }

  private Ex intExpr(Scope s, int depth) {
    int d = depth - 1;
    int k = r.nextInt(100);
    if (k < 30) {
      String op = pick("+", "-", "*", "&", "|", "^", "/", "%", "<<", ">>", ">>>", "+", "-", "*");
      if (op.equals("/") || op.equals("%")) return Ex.of(JType.INT, "(($0) " + op + " ($1))", intOperand(s, d), nonZero(intOperand(s, d)));
      if (op.startsWith("<") || op.startsWith(">"))
        return Ex.of(JType.INT, "(($0) " + op + " ($1))", intOperand(s, d), expr(s, chance(80) ? JType.INT : JType.LONG, d));
      return Ex.of(JType.INT, "(($0) " + op + " ($1))", intOperand(s, d), intOperand(s, d));
    }
    if (k < 36) return Ex.of(JType.INT, pick("(-($0))", "(~($0))", "(+($0))"), intOperand(s, d));
    if (k < 48) return Ex.of(JType.INT, "((int) ($0))", expr(s, pick(JType.LONG, JType.FLOAT, JType.DOUBLE, JType.CHAR), d));
    if (k < 53) return ternary(s, JType.INT, depth);
    if (k < 56) return Ex.of(JType.INT, "(($0) ? 1 : 0)", expr(s, JType.BOOLEAN, d));
    if (k < 60) {
      Ex h = helperCall(s, JType.INT, depth);
      if (h != null) return h;
    }
    // library calls
    return switch (r.nextInt(25)) {
      case 23 -> exactInt(s, d);
      case 0 -> Ex.of(JType.INT, "Math.abs($0)", intOperand(s, d));
      case 1 -> Ex.of(JType.INT, "Math." + pick("min", "max") + "($0, $1)", intOperand(s, d), intOperand(s, d));
      case 2 -> Ex.of(JType.INT, "Math." + pick("floorMod", "floorDiv") + "($0, $1)", intOperand(s, d), nonZero(intOperand(s, d)));
      case 3 -> Ex.of(JType.INT, "Integer." + pick("bitCount", "numberOfLeadingZeros", "numberOfTrailingZeros", "reverse",
          "reverseBytes", "highestOneBit", "lowestOneBit", "signum") + "($0)", intOperand(s, d));
      case 4 -> Ex.of(JType.INT, "Long." + pick("bitCount", "numberOfLeadingZeros", "numberOfTrailingZeros", "signum") + "($0)",
          expr(s, chance(70) ? JType.LONG : pick(JType.INT, JType.BYTE, JType.SHORT, JType.CHAR), d));
      case 5 -> Ex.of(JType.INT, "Integer." + pick("rotateLeft", "rotateRight") + "($0, $1)", intOperand(s, d), intOperand(s, d));
      case 6 -> Ex.of(JType.INT, "Integer." + pick("compare", "compareUnsigned", "sum", "max", "min") + "($0, $1)", intOperand(s, d), intOperand(s, d));
      case 7 -> Ex.of(JType.INT, "Long.compare($0, $1)", expr(s, JType.LONG, d), expr(s, JType.LONG, d));
      case 8 -> Ex.of(JType.INT, "Float.compare($0, $1)", expr(s, JType.FLOAT, d), expr(s, JType.FLOAT, d));
      case 9 -> Ex.of(JType.INT, "Double.compare($0, $1)", expr(s, JType.DOUBLE, d), expr(s, JType.DOUBLE, d));
      case 10 -> Ex.of(JType.INT, "Integer." + pick("divideUnsigned", "remainderUnsigned") + "($0, $1)", intOperand(s, d), nonZero(expr(s, JType.INT, d)));
      case 11 -> Ex.of(JType.INT, "Float.floatToIntBits($0)", expr(s, JType.FLOAT, d));
      case 12 -> Ex.of(JType.INT, "Float.floatToRawIntBits($0)", notNaN(expr(s, JType.FLOAT, d)));
      case 13 -> Ex.of(JType.INT, "Math.round($0)", expr(s, JType.FLOAT, d));
      case 14 -> Ex.of(JType.INT, "Math.getExponent($0)", expr(s, pick(JType.FLOAT, JType.DOUBLE), d));
      case 15 -> Ex.of(JType.INT, "Short.toUnsignedInt($0)", expr(s, JType.SHORT, d));
      case 16 -> Ex.of(JType.INT, "Byte.toUnsignedInt($0)", expr(s, JType.BYTE, d));
      case 17 -> Ex.of(JType.INT, "Math.clamp($0, " + pick("-5, 5", "0, 100", "Integer.MIN_VALUE, 0", "-1000000, 1000000") + ")", expr(s, JType.LONG, d));
      case 18 -> s.kernel ? Ex.leaf(JType.INT, "n") : Ex.of(JType.INT, "Integer.reverse($0)", intOperand(s, d));
      case 19 -> Ex.of(JType.INT, "Integer.bitCount($0)", expr(s, pick(JType.BYTE, JType.SHORT, JType.CHAR), d));
      case 20 -> Ex.of(JType.INT, "Math.abs($0)", expr(s, pick(JType.BYTE, JType.SHORT, JType.CHAR), d));
      case 21 -> Ex.of(JType.INT, "Math." + pick("min", "max") + "($0, $1)", expr(s, pick(JType.BYTE, JType.SHORT, JType.CHAR), d),
          expr(s, pick(JType.BYTE, JType.SHORT, JType.CHAR), d));
      case 22 -> Ex.of(JType.INT, "Float.floatToIntBits(Float.float16ToFloat(Float.floatToFloat16($0)))", notNaN(expr(s, JType.FLOAT, d)));
      default -> Ex.of(JType.INT, "(($0) >>> ($1))", intOperand(s, d), intOperand(s, d));
    };
  }

  /**
   * A {@code Math.*Exact} of ints: mostly of operands narrowed so that it cannot overflow, now and
   * then of whole ones, which may (then Java's ArithmeticException must come from every device).
   */
  private Ex exactInt(Scope s, int d) {
    boolean whole = chance(30);
    String narrow = whole ? "" : " >> 17";
    return switch (r.nextInt(5)) {
      case 0 -> Ex.of(JType.INT, "Math." + pick("addExact", "subtractExact", "multiplyExact") + "(($0)" + narrow + ", ($1)" + narrow + ")",
          intOperand(s, d), intOperand(s, d));
      case 1 -> Ex.of(JType.INT, "Math." + pick("incrementExact", "decrementExact", "negateExact", "absExact") + "(($0)" + narrow + ")", intOperand(s, d));
      case 2 -> Ex.of(JType.INT, "Math.toIntExact(($0)" + (whole ? "" : " >> 33") + ")", expr(s, JType.LONG, d));
      case 3 -> Ex.of(JType.INT, "((int) Math." + pick("addExact", "multiplyExact", "subtractExact") + "(($0)" + (whole ? "" : " >> 33") + ", ($1)"
          + (whole ? "" : " >> 33") + "))", expr(s, JType.LONG, d), expr(s, JType.LONG, d));
      default -> Ex.of(JType.INT, "((int) Math.multiplyExact(($0)" + (whole ? "" : " >> 33") + ", ($1)" + narrow + "))", expr(s, JType.LONG, d),
          intOperand(s, d));
    };
  }

  private Ex longExpr(Scope s, int depth) {
    int d = depth - 1;
    int k = r.nextInt(100);
    JType other = chance(70) ? JType.LONG : JType.INT;
    if (k < 30) {
      String op = pick("+", "-", "*", "&", "|", "^", "/", "%", "<<", ">>", ">>>", "+", "*");
      if (op.equals("/") || op.equals("%")) return Ex.of(JType.LONG, "(($0) " + op + " ($1))", expr(s, JType.LONG, d), nonZero(expr(s, other, d)));
      if (op.startsWith("<") || op.startsWith(">")) return Ex.of(JType.LONG, "(($0) " + op + " ($1))", expr(s, JType.LONG, d), expr(s, other, d));
      return Ex.of(JType.LONG, "(($0) " + op + " ($1))", expr(s, JType.LONG, d), expr(s, other, d));
    }
    if (k < 36) return Ex.of(JType.LONG, pick("(-($0))", "(~($0))"), expr(s, JType.LONG, d));
    if (k < 50) return Ex.of(JType.LONG, "((long) ($0))", expr(s, pick(JType.INT, JType.FLOAT, JType.DOUBLE, JType.CHAR, JType.BYTE), d));
    if (k < 55) return ternary(s, JType.LONG, depth);
    if (k < 58) {
      Ex h = helperCall(s, JType.LONG, depth);
      if (h != null) return h;
    }
    return switch (r.nextInt(14)) {
      case 0 -> Ex.of(JType.LONG, "Math.abs($0)", expr(s, JType.LONG, d));
      case 1 -> Ex.of(JType.LONG, "Math." + pick("min", "max") + "($0, $1)", expr(s, JType.LONG, d), expr(s, JType.LONG, d));
      case 2 -> Ex.of(JType.LONG, "Math." + pick("floorMod", "floorDiv") + "($0, $1)", expr(s, JType.LONG, d), nonZero(expr(s, JType.LONG, d)));
      case 3 -> Ex.of(JType.LONG, "Long." + pick("reverse", "reverseBytes", "highestOneBit", "lowestOneBit") + "($0)", expr(s, JType.LONG, d));
      case 4 -> Ex.of(JType.LONG, "Long." + pick("rotateLeft", "rotateRight") + "($0, $1)", expr(s, JType.LONG, d), expr(s, JType.INT, d));
      case 5 -> Ex.of(JType.LONG, "Math.multiplyHigh($0, $1)", expr(s, JType.LONG, d), expr(s, JType.LONG, d));
      case 6 -> Ex.of(JType.LONG, "Double.doubleToLongBits($0)", expr(s, JType.DOUBLE, d));
      case 7 -> Ex.of(JType.LONG, "Double.doubleToRawLongBits($0)", notNaN(expr(s, JType.DOUBLE, d)));
      case 8 -> Ex.of(JType.LONG, "Math.round($0)", expr(s, JType.DOUBLE, d));
      case 9 -> Ex.of(JType.LONG, "Integer.toUnsignedLong($0)", expr(s, JType.INT, d));
      case 10 -> Ex.of(JType.LONG, "Long." + pick("divideUnsigned", "remainderUnsigned") + "($0, $1)", expr(s, JType.LONG, d), nonZero(expr(s, JType.LONG, d)));
      case 11 -> Ex.of(JType.LONG, "((long) Math.floorMod($0, $1))", expr(s, JType.LONG, d), nonZero(expr(s, JType.INT, d)));
      case 12 -> Ex.of(JType.LONG, "Math.unsignedMultiplyHigh($0, $1)", expr(s, JType.LONG, d), expr(s, JType.LONG, d));
      default -> Ex.of(JType.LONG, "Long.sum($0, $1)", expr(s, JType.LONG, d), expr(s, JType.LONG, d));
    };
  }

  private Ex floatExpr(Scope s, int depth) {
    int d = depth - 1;
    int k = r.nextInt(100);
    if (k < 30) {
      JType other = chance(75) ? JType.FLOAT : pick(JType.INT, JType.LONG, JType.SHORT, JType.CHAR);
      Ex a = expr(s, JType.FLOAT, d), b = expr(s, other, d);
      return chance(50) ? Ex.of(JType.FLOAT, "(($0) " + pick("+", "-", "*", "/", "%") + " ($1))", a, b)
          : Ex.of(JType.FLOAT, "(($1) " + pick("+", "-", "*", "/", "%") + " ($0))", a, b);
    }
    if (k < 34) return Ex.of(JType.FLOAT, "(-($0))", expr(s, JType.FLOAT, d));
    if (k < 48) return Ex.of(JType.FLOAT, "((float) ($0))", expr(s, pick(JType.INT, JType.LONG, JType.DOUBLE, JType.CHAR, JType.SHORT), d));
    if (k < 53) return ternary(s, JType.FLOAT, depth);
    if (k < 56) {
      Ex h = helperCall(s, JType.FLOAT, depth);
      if (h != null) return h;
    }
    return switch (r.nextInt(15)) {
      case 0 -> Ex.of(JType.FLOAT, "Math.abs($0)", expr(s, JType.FLOAT, d));
      case 1 -> Ex.of(JType.FLOAT, "Math." + pick("min", "max") + "($0, $1)", expr(s, JType.FLOAT, d), expr(s, JType.FLOAT, d));
      case 2 -> Ex.of(JType.FLOAT, "((float) Math.sqrt($0))", expr(s, JType.FLOAT, d));
      case 3 -> Ex.of(JType.FLOAT, "Math.fma($0, $1, $2)", expr(s, JType.FLOAT, d), expr(s, JType.FLOAT, d), expr(s, JType.FLOAT, d));
      case 4 -> Ex.of(JType.FLOAT, "Math." + pick("signum", "ulp", "nextUp", "nextDown") + "($0)", expr(s, JType.FLOAT, d));
      case 5 -> Ex.of(JType.FLOAT, "StrictMath.copySign($0, $1)", expr(s, JType.FLOAT, d), expr(s, JType.FLOAT, d));
      case 6 -> Ex.of(JType.FLOAT, "Math.scalb($0, $1)", expr(s, JType.FLOAT, d), expr(s, JType.INT, d));
      case 7 -> Ex.of(JType.FLOAT, "Float.intBitsToFloat($0)", expr(s, JType.INT, d));
      case 8 -> Ex.of(JType.FLOAT, "Float." + pick("min", "max", "sum") + "($0, $1)", expr(s, JType.FLOAT, d), expr(s, JType.FLOAT, d));
      case 9 -> Ex.of(JType.FLOAT, "((float) Math." + pick("rint", "floor", "ceil") + "($0))", expr(s, JType.FLOAT, d));
      case 10 -> Ex.of(JType.FLOAT, "Math.nextAfter($0, $1)", expr(s, JType.FLOAT, d), expr(s, JType.DOUBLE, d));
      case 11 -> Ex.of(JType.FLOAT, "Math.clamp($0, " + pick("-1f, 1f", "0f, 255f", "-1e30f, 1e30f") + ")", expr(s, JType.FLOAT, d));
      case 12 -> Ex.of(JType.FLOAT, "Float.float16ToFloat(Float.floatToFloat16($0))", expr(s, JType.FLOAT, d));
      case 13 -> Ex.of(JType.FLOAT, "((float) ($0))", Ex.of(JType.DOUBLE, "Math.sqrt($0)", expr(s, JType.DOUBLE, d)));
      default -> Ex.of(JType.FLOAT, "(($0) * ($1) + ($2))", expr(s, JType.FLOAT, d), expr(s, JType.FLOAT, d), expr(s, JType.FLOAT, d));
    };
  }

  private Ex doubleExpr(Scope s, int depth) {
    int d = depth - 1;
    int k = r.nextInt(100);
    if (k < 30) {
      JType other = chance(70) ? JType.DOUBLE : pick(JType.INT, JType.LONG, JType.FLOAT);
      Ex a = expr(s, JType.DOUBLE, d), b = expr(s, other, d);
      return chance(50) ? Ex.of(JType.DOUBLE, "(($0) " + pick("+", "-", "*", "/", "%") + " ($1))", a, b)
          : Ex.of(JType.DOUBLE, "(($1) " + pick("+", "-", "*", "/", "%") + " ($0))", a, b);
    }
    if (k < 34) return Ex.of(JType.DOUBLE, "(-($0))", expr(s, JType.DOUBLE, d));
    if (k < 48) return Ex.of(JType.DOUBLE, "((double) ($0))", expr(s, pick(JType.INT, JType.LONG, JType.FLOAT, JType.CHAR), d));
    if (k < 53) return ternary(s, JType.DOUBLE, depth);
    if (k < 56) {
      Ex h = helperCall(s, JType.DOUBLE, depth);
      if (h != null) return h;
    }
    return switch (r.nextInt(14)) {
      case 0 -> Ex.of(JType.DOUBLE, "Math.abs($0)", expr(s, JType.DOUBLE, d));
      case 1 -> Ex.of(JType.DOUBLE, "Math." + pick("min", "max") + "($0, $1)", expr(s, JType.DOUBLE, d), expr(s, JType.DOUBLE, d));
      case 2 -> Ex.of(JType.DOUBLE, "Math.sqrt($0)", expr(s, JType.DOUBLE, d));
      case 3 -> Ex.of(JType.DOUBLE, "Math.fma($0, $1, $2)", expr(s, JType.DOUBLE, d), expr(s, JType.DOUBLE, d), expr(s, JType.DOUBLE, d));
      case 4 -> Ex.of(JType.DOUBLE, "Math." + pick("signum", "ulp", "nextUp", "nextDown", "toRadians", "toDegrees") + "($0)", expr(s, JType.DOUBLE, d));
      case 5 -> Ex.of(JType.DOUBLE, "StrictMath.copySign($0, $1)", expr(s, JType.DOUBLE, d), expr(s, JType.DOUBLE, d));
      case 6 -> Ex.of(JType.DOUBLE, "Math.scalb($0, $1)", expr(s, JType.DOUBLE, d), expr(s, JType.INT, d));
      case 7 -> Ex.of(JType.DOUBLE, "Double.longBitsToDouble($0)", expr(s, JType.LONG, d));
      case 8 -> Ex.of(JType.DOUBLE, "Double." + pick("min", "max", "sum") + "($0, $1)", expr(s, JType.DOUBLE, d), expr(s, JType.DOUBLE, d));
      case 9, 10 -> Ex.of(JType.DOUBLE, "Math." + pick("rint", "floor", "ceil") + "($0)", expr(s, JType.DOUBLE, d));
      case 11 -> Ex.of(JType.DOUBLE, "Math.IEEEremainder($0, $1)", expr(s, JType.DOUBLE, d), expr(s, JType.DOUBLE, d));
      case 12 -> Ex.of(JType.DOUBLE, "Math.clamp($0, " + pick("-1d, 1d", "0d, 255d", "-1e300, 1e300") + ")", expr(s, JType.DOUBLE, d));
      default -> Ex.of(JType.DOUBLE, "Math.nextAfter($0, $1)", expr(s, JType.DOUBLE, d), expr(s, JType.DOUBLE, d));
    };
  }
}
