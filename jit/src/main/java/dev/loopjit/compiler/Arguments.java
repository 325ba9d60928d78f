// Pass "arguments": fixes the device kernel's argument list; array lengths become arguments or constants.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The argument list every emitter declares and every runtime binds, in Java parameter order:
 * an array gives its buffer then its length, a primitive its value, a KernelContext nothing (a
 * vector value nothing: its fields are primitives after the Java parameters);
 * the parallel trip counts come last. {@code a.length} / {@code a.getSize()} on a parameter
 * becomes its length argument (never a constant: a new size must not recompile); on a private
 * or local array, its constant size. After them: the shapes of collection parameters the kernel
 * reads ({@link KernelArg.Computed}), and the local arrays sized at run time ({@link KernelArg.Local},
 * {@link RuntimeLocals}), among them the work-group arrays the {@code simd} pass made for SIMD-group
 * operations a target has no instructions for ({@link SimdGroups}).
 */
final class Arguments implements Pass {
  @Override
  public String name() {
    return "arguments";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    Map<Var, RuntimeLocals.Found> runtimeLocals = RuntimeLocals.find(ir);
    if (!runtimeLocals.isEmpty()) ir = ir.withBody(RuntimeLocals.withoutAllocations(ir.body(), runtimeLocals));
    List<KernelArg> args = new ArrayList<>();
    Map<Var, Var> lengths = new HashMap<>();
    for (KernelIR.Param p : ir.params()) {
      switch (p.kind()) {
        case SCALAR -> args.add(new KernelArg.Scalar(p.index(), p.var()));
        case ARRAY -> {
          Var len = cx.names.fresh(p.var().name() + "_length", Prim.INT);
          lengths.put(p.var(), len);
          args.add(new KernelArg.Array(p.index(), p.var()));
          args.add(new KernelArg.Length(p.index(), len));
        }
        case CONTEXT, VALUE -> {}
      }
    }
    if (ir.launch() instanceof Launch.Loops loops)
      for (int d = 0; d < loops.countVars().size(); d++) args.add(new KernelArg.Count(d, loops.countVars().get(d)));
    Map<List<Object>, Var> shapes = new java.util.LinkedHashMap<>();
    List<KernelArg> computed = new ArrayList<>();
    var body = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Length l && l.array() instanceof Read r) {
          if (lengths.containsKey(r.var())) return new Read(lengths.get(r.var()));
          if (r.var().type() instanceof ArrayType t && t.length() >= 0) return Const.of(t.length());
          if (runtimeLocals.containsKey(r.var())) return rewrite(runtimeLocals.get(r.var()).length());
        }
        // A collection's shape: an int argument the host computes from the collection at launch.
        if (e instanceof Call c && c.op() == dev.loopjit.ir.Intrinsic.SHAPE && c.args().get(0) instanceof Read r && lengths.containsKey(r.var())) {
          return new Read(shapes.computeIfAbsent(List.of(r.var(), c.args().get(1)), k -> {
            Var v = cx.names.fresh(r.var().name() + (((Const) c.args().get(1)).longValue() == 0 ? "_rows" : "_columns"), Prim.INT);
            computed.add(new KernelArg.Computed(v, c));
            return v;
          }));
        }
        return e;
      }
    }.rewrite(ir.body());
    args.addAll(computed);
    args.addAll(RuntimeLocals.arguments(runtimeLocals));
    return ir.withArgs(args, body);
  }
}
