// Facts the runtime needs about a compiled kernel: how it uses each array, and its grid for given arguments.
package dev.loopjit.spi;

import dev.loopjit.compiler.HostEval;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import dev.loopjit.spi.DeviceKernel.Access;
import java.util.HashMap;
import java.util.Map;

/** Reads a lowered kernel for the runtime. */
public final class KernelFacts {
  private KernelFacts() {}

  /** How the kernel uses parameter {@code param}: read, written, both (atomics, calls left), or not at all. */
  public static Access access(KernelIR k, int param) {
    Var v = k.params().get(param).var();
    boolean[] rw = new boolean[2];
    IrWalk.walk(k.body(), new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Stmt.Store st && st.array() instanceof Read r && r.var().equals(v)) rw[1] = true;
      }

      @Override
      public void expr(Expr e, Stmt in) {
        switch (e) {
          case Load l when l.array() instanceof Read r && r.var().equals(v) -> rw[0] = true;
          case Call c when c.op() == Intrinsic.ATOMIC_ADD || c.op() == Intrinsic.ATOMIC_CAS -> {
            if (c.args().get(0) instanceof Read r && r.var().equals(v)) rw[0] = rw[1] = true;
          }
          case Invoke i -> rw[0] = rw[1] = true;
          default -> {}
        }
      }
    });
    return rw[0] && rw[1] ? Access.READ_WRITE : rw[1] ? Access.WRITE : rw[0] ? Access.READ : Access.NONE;
  }

  /**
   * Whether the kernel may index out of bounds with these task arguments: it checks some access
   * ({@link KernelIR#boundsSites()}) that the host cannot rule out — a site is ruled out when its
   * index is below a trip count that, for these arguments, is at most the array's length.
   */
  public static boolean mayFail(KernelIR k, Object[] args) {
    if (k.boundsSites().isEmpty()) return false;
    Map<Var, Object> env = hostValues(k, args);
    for (dev.loopjit.ir.BoundsSite s : k.boundsSites()) {
      if (s.within() == null || s.param() < 0 || s.param() >= args.length) return true;
      HostArray h = HostArray.of(args[s.param()]);
      if (h == null || Math.max(0, ((Number) HostEval.eval(s.within(), env)).longValue()) > h.length()) return true;
    }
    return false;
  }

  private static Map<Var, Object> hostValues(KernelIR k, Object[] args) {
    Map<Var, Object> env = new HashMap<>();
    for (KernelIR.Param p : k.params()) {
      if (p.index() >= args.length) continue;   // the bounds report, which no count reads
      Object a = args[p.index()];
      HostArray h = p.kind() == KernelIR.Param.Kind.ARRAY ? HostArray.of(a) : null;
      env.put(p.var(), h != null ? (Object) h.length() : a);   // the host knows an array by its length
    }
    return env;
  }

  /** The trip counts of the kernel's parallel loops for these task arguments ({@code {1}} for a single work-item). */
  public static long[] loopCounts(KernelIR k, Object[] args) {
    if (!(k.launch() instanceof Launch.Loops loops)) return new long[] {1};
    Map<Var, Object> env = hostValues(k, args);
    long[] counts = new long[loops.counts().size()];
    for (int d = 0; d < counts.length; d++) counts[d] = Math.max(0, ((Number) HostEval.eval(loops.counts().get(d), env)).longValue());
    return counts;
  }
}
