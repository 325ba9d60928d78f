// Facts the runtime needs about a compiled kernel: how it uses each array, and its grid for given arguments.
package dev.loopjit.spi;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import dev.loopjit.spi.DeviceKernel.Access;

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
    for (dev.loopjit.ir.BoundsSite s : k.boundsSites()) {
      if (s.within() == null || s.param() < 0 || s.param() >= args.length) return true;
      HostArray h = HostArray.of(args[s.param()]);
      if (h == null || Math.max(0, ((Number) LaunchValues.eval(k, s.within(), args, null, k.name())).longValue()) > h.length()) return true;
    }
    return false;
  }

  /** The trip counts of the kernel's parallel loops for these task arguments ({@code {1}} for a single work-item). */
  public static long[] loopCounts(KernelIR k, Object[] args) {
    if (!(k.launch() instanceof Launch.Loops loops)) return new long[] {1};
    long[] counts = new long[loops.counts().size()];
    // The host knows an array by its length, a collection also by its shape (LaunchValues).
    for (int d = 0; d < counts.length; d++)
      counts[d] = Math.max(0, ((Number) LaunchValues.eval(k, loops.counts().get(d), args, null, k.name())).longValue());
    return counts;
  }
}
