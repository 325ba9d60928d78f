// SIMD groups (sub-groups, warps) of 32 work-items: KernelContext's simd* calls, and their lowering for each kind of target.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A SIMD group is 32 consecutive work-items of a work-group in linear order (x fastest), the last
 * one shorter when the group is not a multiple of 32: a CUDA warp exactly, and what the jvm device
 * emulates ({@code KernelContext.SIMD_WIDTH}).
 *
 * <p>Parse ({@link #call}): the ids and size are arithmetic of the local ids and sizes; a shuffle,
 * broadcast or shuffle-down is {@link Intrinsic#SIMD_SHUFFLE} with its source lane brought into the
 * group (a lane outside it means the caller's own value, as Java's {@code KernelContext} defines);
 * sums and maxima are {@link Intrinsic#SIMD_SUM} / {@link Intrinsic#SIMD_MAX}.
 *
 * <p>Lower ({@link #lower}, the {@code simd} pass, before {@code legalise}): where the target shuffles natively
 * (PTX {@code shfl.sync}) a sum or maximum becomes a loop of shuffles from lane 0 upwards; elsewhere
 * (OpenCL C, whose {@code cl_khr_subgroups} does not let a kernel choose 32-wide sub-groups, and
 * SPIR-V) every SIMD operation becomes an exchange through a work-group array sized at launch (one
 * per element type: a {@code KernelArg.Local} of the work-group's size): a barrier, each work-item
 * writes its value, a barrier, each reads what it needs, in the same order as the JVM. Either way
 * the results are exact and the same on every device; the cost of the fallback is two work-group
 * barriers per operation.
 */
final class SimdGroups {
  static final int WIDTH = 32;

  private SimdGroups() {}

  static boolean isSimd(String name) {
    return name.startsWith("simd");
  }

  private static Expr geometry(Intrinsic op, int d) {
    return new Call(op, Prim.INT, List.of(Const.of(d)));
  }

  private static Expr add(Expr a, Expr b) {
    return new Binary(Op.Binary.ADD, a, b);
  }

  private static Expr mul(Expr a, Expr b) {
    return new Binary(Op.Binary.MUL, a, b);
  }

  /** The work-item's linear id in its work-group. */
  static Expr linear() {
    return add(geometry(Intrinsic.LOCAL_ID, 0), mul(geometry(Intrinsic.LOCAL_SIZE, 0),
        add(geometry(Intrinsic.LOCAL_ID, 1), mul(geometry(Intrinsic.LOCAL_SIZE, 1), geometry(Intrinsic.LOCAL_ID, 2)))));
  }

  static Expr groupItems() {
    return mul(geometry(Intrinsic.LOCAL_SIZE, 0), mul(geometry(Intrinsic.LOCAL_SIZE, 1), geometry(Intrinsic.LOCAL_SIZE, 2)));
  }

  static Expr groupId() {
    return new Binary(Op.Binary.DIV, linear(), Const.of(WIDTH));
  }

  static Expr lane() {
    return new Binary(Op.Binary.REM, linear(), Const.of(WIDTH));
  }

  /** {@code min(32, items - groupId * 32)}. */
  static Expr size() {
    return new Call(Intrinsic.MIN, Prim.INT, List.of(Const.of(WIDTH), new Binary(Op.Binary.SUB, groupItems(), mul(groupId(), Const.of(WIDTH)))));
  }

  /** The lanes of the caller's group as a bit mask (all 32 bits for a full group). */
  static Expr members(Expr size) {
    return new Select(new Compare(Op.Compare.EQ, size, Const.of(WIDTH)), Const.of(-1),
        new Binary(Op.Binary.SUB, new Binary(Op.Binary.SHL, Const.of(1), size), Const.of(1)));
  }

  /** A {@code KernelContext.simd…} call with {@code args} (the receiver popped). */
  static void call(OperandStack ops, String name, String desc, Expr[] args) {
    switch (name) {
      case "simdGroupId" -> ops.push(groupId());
      case "simdLaneId" -> ops.push(lane());
      case "simdGroupSize" -> ops.push(size());
      case "simdShuffle", "simdBroadcast" -> shuffle(ops, args[0], args[1]);
      case "simdShuffleDown" -> shuffle(ops, args[0], add(lane(), args[1]));
      case "simdBroadcastFirst" -> shuffle(ops, args[0], Const.of(0));
      case "simdSum", "simdMax" -> {
        Prim t = args[0].prim();
        ops.spillLoads();
        ops.pushResult(new Call(name.equals("simdSum") ? Intrinsic.SIMD_SUM : Intrinsic.SIMD_MAX, t, List.of(args[0])), t);
      }
      default -> throw Refusal.unsupported(ops.src, "KernelContext." + name);
    }
  }

  /** {@code value} of lane {@code lane}, or the caller's own where the lane is outside its group. */
  private static void shuffle(OperandStack ops, Expr value, Expr lane) {
    Prim t = value.prim();
    ops.spillLoads();
    Var l = ops.temp(Prim.INT);
    ops.out.add(new Assign(l, lane, ops.src));
    Expr size = size();
    Expr inside = new Logic(Op.Logic.AND, new Compare(Op.Compare.GE, new Read(l), Const.of(0)), new Compare(Op.Compare.LT, new Read(l), size));
    Expr source = new Select(inside, new Read(l), lane());
    ops.pushResult(new Call(Intrinsic.SIMD_SHUFFLE, t, List.of(value, source, members(size()))), t);
  }

  // ---- lowering -------------------------------------------------------------------------------

  /**
   * The pass ({@code simd}) that lowers SIMD-group operations for the target, before {@code legalise}
   * (the folds and lane arithmetic it writes use / % and max, which that pass makes Java's).
   */
  static final class Lower implements Pass {
    @Override
    public String name() {
      return "simd";
    }

    @Override
    public KernelIR run(KernelIR ir, Context cx) {
      return lower(ir, cx);
    }
  }

  /** Whether {@code ir} uses SIMD-group operations. */
  static boolean uses(KernelIR ir) {
    return IrWalk.anyExpr(ir.body(), e -> e instanceof Call c && (c.op() == Intrinsic.SIMD_SHUFFLE || c.op() == Intrinsic.SIMD_SUM
        || c.op() == Intrinsic.SIMD_MAX));
  }

  /** The SIMD operations of {@code ir} in the form {@code target} runs (see the class comment). */
  static KernelIR lower(KernelIR ir, Pass.Context cx) {
    if (!uses(ir)) return ir;
    boolean nativeShuffle = cx.target.natives() != null && cx.target.natives().contains(Intrinsic.SIMD_SHUFFLE);
    Map<Prim, Var> scratch = new EnumMap<>(Prim.class);
    Stmt.Block body = new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt s) {
        if (!(s instanceof Assign a) || !(a.value() instanceof Call c)) {
          if (s instanceof Eval e && e.call() instanceof Call c && (c.op() == Intrinsic.SIMD_SHUFFLE || c.op() == Intrinsic.SIMD_SUM
              || c.op() == Intrinsic.SIMD_MAX)) {
            Var unused = cx.names.temp("simd", c.type());
            return rewrite(new Assign(unused, c, s.src()));
          }
          return List.of(s);
        }
        return switch (c.op()) {
          case SIMD_SHUFFLE -> nativeShuffle ? List.of(s) : exchange(a.var(), c, a.src(), scratch, cx);
          case SIMD_SUM, SIMD_MAX -> nativeShuffle ? shuffleFold(a.var(), c, a.src(), cx) : exchangeFold(a.var(), c, a.src(), scratch, cx);
          default -> List.of(s);
        };
      }
    }.rewrite(ir.body());
    if (scratch.isEmpty()) return ir.withBody(body);
    List<Stmt> out = new ArrayList<>();
    for (Var v : scratch.values()) out.add(new Assign(v, new Alloc((ArrayType) v.type(), groupItems()), body.src()));
    out.addAll(body.stmts());
    return ir.withBody(new Block(out, body.src()));
  }

  private static Var scratch(Prim t, Map<Prim, Var> scratch, Pass.Context cx) {
    return scratch.computeIfAbsent(t, p -> cx.names.fresh("simd_" + p.javaName(), new ArrayType(p, ArrayType.Space.LOCAL, ArrayType.RUNTIME)));
  }

  private static Stmt barrier(Src at) {
    return new Eval(new Call(Intrinsic.BARRIER_LOCAL, null, List.of()), at);
  }

  /** Every work-item publishes {@code value} in the scratch array: a barrier (earlier reads done), the write, a barrier. */
  private static void publish(List<Stmt> out, Var array, Expr value, Src at) {
    out.add(barrier(at));
    out.add(new Store(new Read(array), linear(), value, at));
    out.add(barrier(at));
  }

  private static List<Stmt> exchange(Var result, Call c, Src at, Map<Prim, Var> scratch, Pass.Context cx) {
    Var array = scratch((Prim) result.type(), scratch, cx);
    List<Stmt> out = new ArrayList<>();
    Var source = cx.names.temp("simd_lane", Prim.INT);
    out.add(new Assign(source, c.args().get(1), at));   // the lane, computed before the exchange as the call would
    publish(out, array, c.args().get(0), at);
    Expr base = new Binary(Op.Binary.SUB, linear(), lane());
    out.add(new Assign(result, new Load(new Read(array), add(base, new Read(source))), at));
    return out;
  }

  /** {@code result = v0 OP v1 OP …} in lane order, each value read from the scratch array. */
  private static List<Stmt> exchangeFold(Var result, Call c, Src at, Map<Prim, Var> scratch, Pass.Context cx) {
    Var array = scratch((Prim) result.type(), scratch, cx);
    List<Stmt> out = new ArrayList<>();
    publish(out, array, c.args().get(0), at);
    Var base = cx.names.temp("simd_base", Prim.INT), size = cx.names.temp("simd_size", Prim.INT);
    out.add(new Assign(base, new Binary(Op.Binary.SUB, linear(), lane()), at));
    out.add(new Assign(size, size(), at));
    out.add(new Assign(result, new Load(new Read(array), new Read(base)), at));
    return fold(out, result, c.op(), k -> new Load(new Read(array), add(new Read(base), k)), new Read(size), at, cx);
  }

  /** {@code result = shuffle(v, 0) OP shuffle(v, 1) OP …}, a loop of native shuffles. */
  private static List<Stmt> shuffleFold(Var result, Call c, Src at, Pass.Context cx) {
    List<Stmt> out = new ArrayList<>();
    Prim t = (Prim) result.type();
    Var value = cx.names.temp("simd_value", t), size = cx.names.temp("simd_size", Prim.INT), mask = cx.names.temp("simd_members", Prim.INT);
    out.add(new Assign(value, c.args().get(0), at));
    out.add(new Assign(size, size(), at));
    out.add(new Assign(mask, members(new Read(size)), at));
    out.add(new Assign(result, new Call(Intrinsic.SIMD_SHUFFLE, t, List.of(new Read(value), Const.of(0), new Read(mask))), at));
    List<Stmt> extra = new ArrayList<>();
    Var lane = cx.names.temp("simd_x", t);
    return fold(out, result, c.op(), k -> {
      extra.add(new Assign(lane, new Call(Intrinsic.SIMD_SHUFFLE, t, List.of(new Read(value), k, new Read(mask))), at));
      return new Read(lane);
    }, new Read(size), at, cx, extra);
  }

  private static List<Stmt> fold(List<Stmt> out, Var result, Intrinsic op, java.util.function.Function<Expr, Expr> element, Expr size, Src at,
      Pass.Context cx) {
    return fold(out, result, op, element, size, at, cx, new ArrayList<>());
  }

  /** Appends {@code for (k = 1; k < size; k++) { before; result = result OP element(k); }}. */
  private static List<Stmt> fold(List<Stmt> out, Var result, Intrinsic op, java.util.function.Function<Expr, Expr> element, Expr size, Src at,
      Pass.Context cx, List<Stmt> before) {
    Var k = cx.names.temp("simd_k", Prim.INT);
    Label loop = cx.names.label();
    out.add(new Assign(k, Const.of(1), at));
    Expr x = element.apply(new Read(k));   // may add statements to before
    Expr combined = op == Intrinsic.SIMD_SUM ? new Binary(Op.Binary.ADD, new Read(result), x)
        : new Call(Intrinsic.MAX, (Prim) result.type(), List.of(new Read(result), x));
    List<Stmt> body = new ArrayList<>();
    body.add(new If(new Compare(Op.Compare.GE, new Read(k), size), new Block(List.of(new Break(loop, at))), Block.EMPTY, at));
    body.addAll(before);
    body.add(new Assign(result, combined, at));
    out.add(new Loop(loop, new Block(body), new Block(List.of(new Assign(k, add(new Read(k), Const.of(1)), at))), at));
    return out;
  }
}
