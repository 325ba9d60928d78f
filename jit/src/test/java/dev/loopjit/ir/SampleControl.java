// Hand-lowered kernels with non-trivial control flow, local memory and private arrays, for emitter tests.
package dev.loopjit.ir;

import static dev.loopjit.ir.IrBuilder.*;
import static dev.loopjit.ir.Prim.*;

import dev.loopjit.ir.Stmt.Block;
import java.util.List;

/** The control-flow samples of {@link SampleKernels}; each comment is the Java the IR stands for. */
final class SampleControl {
  private SampleControl() {}

  static final Var I = SampleKernels.I, N = SampleKernels.N;

  /**
   * <pre>{@code
   * int v = a[i];
   * if (v == 12345) return;
   * int acc = 0;
   * outer: for (int j = 0; j < 12; j++) {
   *   if (j == v % 5) continue;
   *   inner: for (int k = 0; k < j; k++) {
   *     sw: switch ((v + j * k) & 3) {
   *       case 0: acc += 1;                              // falls through
   *       case 1: acc += 10; break;
   *       case 2: continue outer;
   *       default: if (acc > 200 + v) break outer; acc += 100;
   *     }
   *     if (k == 3) break;
   *   }
   *   block: { if ((acc & 1) == 0) break block; acc += 1000; }
   * }
   * out[2 * i] = acc;
   * int t = 0;
   * for (int m = 0; m < 6; out[2 * i + 1] = t, m++) { if (m % 2 == 0) continue; t += m; }
   * switch (v) { case 1: case 2: t += 1; case Integer.MIN_VALUE: t -= 1; case 7: }
   * out[2 * i + 1] = t;
   * }</pre>
   */
  static KernelIR control() {
    Var a = global("a", INT), out = global("out", INT);
    Var v = var("v", INT), acc = var("acc", INT), j = var("j", INT), k = var("k", INT), t = var("t", INT), m = var("m", INT);
    Label outer = label("outer"), inner = label("inner"), sw = label("sw"), blk = label("block"), l3 = label("L3"), s2 = label("s2");
    Expr V = read(v), ACC = read(acc), J = read(j), K = read(k), T = read(t), M = read(m);
    Expr two = mul(read(I), c(2));
    Stmt innerLoop = loop(inner, block(
        when(ge(K, J), brk(inner)),
        switchOf(sw, and(add(V, mul(J, K)), c(3)),
            caseOf(List.of(0), set(acc, add(ACC, c(1)))),
            caseOf(List.of(1), set(acc, add(ACC, c(10))), brk(sw)),
            caseOf(List.of(2), cont(outer)),
            caseOf(List.of(), when(gt(ACC, add(c(200), V)), brk(outer)), set(acc, add(ACC, c(100))))),
        when(eq(K, c(3)), brk(inner))), block(set(k, add(K, c(1)))));
    Stmt outerLoop = loop(outer, block(
        when(ge(J, c(12)), brk(outer)),
        when(eq(J, rem(V, c(5))), cont(outer)),
        set(k, c(0)),
        innerLoop,
        labeled(blk, when(eq(and(ACC, c(1)), c(0)), brk(blk)), set(acc, add(ACC, c(1000))))), block(set(j, add(J, c(1)))));
    Stmt updateStores = loop(l3, block(
        when(ge(M, c(6)), brk(l3)),
        when(eq(rem(M, c(2)), c(0)), cont(l3)),
        set(t, add(T, M))), block(store(out, add(two, c(1)), T), set(m, add(M, c(1)))));
    Stmt cases = switchOf(s2, V,
        caseOf(List.of(1, 2), set(t, add(T, c(1)))), caseOf(List.of(Integer.MIN_VALUE), set(t, sub(T, c(1)))), caseOf(List.of(7)));
    return kernel("control", List.of(a, out, N), N, perItem(I, N,
        set(v, load(a, read(I))), when(eq(V, c(12345)), ret()),
        set(acc, c(0)), set(j, c(0)), outerLoop, store(out, two, ACC),
        set(t, c(0)), set(m, c(0)), updateStores, cases, store(out, add(two, c(1)), T)));
  }

  /**
   * A KernelContext kernel over work-groups of 64:
   * <pre>{@code
   * float[] tmp = ctx.allocateFloatLocalArray(64), acc = ctx.allocateFloatLocalArray(1);
   * int lid = ctx.localIdx, gid = ctx.globalIdx;
   * tmp[lid] = in[gid];
   * if (lid == 0) acc[0] = 0;
   * ctx.localBarrier();
   * ctx.atomicAdd(acc, 0, in[gid]);
   * for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) { if (lid < s) tmp[lid] += tmp[lid + s]; ctx.localBarrier(); }
   * if (lid == 0) { out[ctx.groupIdx] = tmp[0]; out2[ctx.groupIdx] = acc[0]; }
   * ctx.globalBarrier();
   * }</pre>
   */
  static KernelIR localReduce() {
    Var in = global("in", FLOAT), out = global("out", FLOAT), out2 = global("out2", FLOAT);
    Var tmp = local("tmp", FLOAT, 64), acc = local("acc", FLOAT, 1), lid = var("lid", INT), gid = var("gid", INT), s = var("s", INT);
    Label l = label("halve");
    Expr LID = read(lid), S = read(s);
    KernelIR k = kernel("localReduce", List.of(in, out, out2), null,
        alloc(tmp), alloc(acc),
        set(lid, call(Intrinsic.LOCAL_ID, INT, c(0))), set(gid, gid(0)),
        store(tmp, LID, load(in, read(gid))),
        when(eq(LID, c(0)), store(acc, c(0), c(0f))),
        eval(call(Intrinsic.BARRIER_LOCAL, null)),
        eval(call(Intrinsic.ATOMIC_ADD, FLOAT, read(acc), c(0), load(in, read(gid)))),
        set(s, div(call(Intrinsic.LOCAL_SIZE, INT, c(0)), c(2))),
        loop(l, block(when(le(S, c(0)), brk(l)),
            when(lt(LID, S), store(tmp, LID, add(load(tmp, LID), load(tmp, add(LID, S))))),
            eval(call(Intrinsic.BARRIER_LOCAL, null))), block(set(s, shr(S, c(1))))),
        when(eq(LID, c(0)),
            store(out, call(Intrinsic.GROUP_ID, INT, c(0)), load(tmp, c(0))),
            store(out2, call(Intrinsic.GROUP_ID, INT, c(0)), load(acc, c(0)))),
        eval(call(Intrinsic.BARRIER_GLOBAL, null)));
    return new KernelIR(k.name(), k.source(), k.params(), k.body(), new Launch.Explicit(), k.args());
  }

  /**
   * <pre>{@code
   * float sum = 0;
   * for (int r = 0; r < 3; r++) { float[] p = new float[4]; p[r] += in[i]; sum += p[0] + p[1] + p[2] + p[3] + p.length; }
   * out[i] = sum + get_global_size(0) - n;
   * }</pre>
   */
  static KernelIR privateArrays() {
    Var in = global("in", FLOAT), out = global("out", FLOAT), p = priv("p", FLOAT, 4), sum = var("sum", FLOAT), r = var("r", INT);
    Expr SUM = read(sum);
    Expr total = add(add(add(load(p, c(0)), load(p, c(1))), add(load(p, c(2)), load(p, c(3)))), conv(FLOAT, length(p)));
    Block body = block(forRange(label("rows"), r, c(0), c(3),
        alloc(p), store(p, read(r), add(load(p, read(r)), load(in, read(I)))), set(sum, add(SUM, total))));
    return kernel("privateArrays", List.of(in, out, N), N, perItem(I, N, set(sum, c(0f)), body,
        store(out, read(I), add(SUM, conv(FLOAT, sub(call(Intrinsic.GLOBAL_SIZE, INT, c(0)), read(N)))))));
  }
}
