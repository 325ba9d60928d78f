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
    return accesses(k)[param];
  }

  /** How the kernel uses each of its parameters, by index (one walk of the body; {@link CompiledKernel} keeps them). */
  public static Access[] accesses(KernelIR k) {
    java.util.Map<Var, Integer> index = new java.util.HashMap<>();
    for (int i = 0; i < k.params().size(); i++) if (k.params().get(i).var() != null) index.put(k.params().get(i).var(), i);
    boolean[][] rw = new boolean[k.params().size()][2];
    IrWalk.walk(k.body(), new IrWalk.Visitor() {
      private boolean[] of(Expr array) {
        Integer i = array instanceof Read r ? index.get(r.var()) : null;
        return i == null ? null : rw[i];
      }

      @Override
      public void stmt(Stmt s) {
        if (s instanceof Stmt.Store st && of(st.array()) instanceof boolean[] p) p[1] = true;
      }

      @Override
      public void expr(Expr e, Stmt in) {
        switch (e) {
          case Load l when of(l.array()) instanceof boolean[] p -> p[0] = true;
          case Call c when c.op() == Intrinsic.ATOMIC_ADD || c.op() == Intrinsic.ATOMIC_CAS -> {
            if (of(c.args().get(0)) instanceof boolean[] p) p[0] = p[1] = true;
          }
          case Invoke i -> {
            for (boolean[] p : rw) p[0] = p[1] = true;
          }
          default -> {}
        }
      }
    });
    Access[] out = new Access[rw.length];
    for (int i = 0; i < rw.length; i++)
      out[i] = rw[i][0] && rw[i][1] ? Access.READ_WRITE : rw[i][1] ? Access.WRITE : rw[i][0] ? Access.READ : Access.NONE;
    return out;
  }

  /**
   * Whether the kernel may index out of bounds with these task arguments: it checks some access
   * ({@link KernelIR#boundsSites()}) that the host cannot rule out. A site is ruled out when its
   * {@link dev.loopjit.ir.BoundsSite#upper upper bound}, evaluated for these arguments, is below the
   * array's length — every leaf non-negative and every sum and product within int, so that Java's
   * own arithmetic cannot have wrapped — or shows the access unreachable.
   */
  public static boolean mayFail(KernelIR k, Object[] args) {
    return mayFail(k, k.boundsSites(), args);
  }

  /** As {@link #mayFail(KernelIR, Object[])} for {@code sites} of {@code k} (its {@link KernelIR#assumedSites()}, say). */
  public static boolean mayFail(KernelIR k, java.util.List<dev.loopjit.ir.BoundsSite> sites, Object[] args) {
    for (dev.loopjit.ir.BoundsSite s : sites) {
      if (s.upper() == null) return true;
      long length;
      if (s.param() >= 0) {
        HostArray h = s.param() < args.length ? HostArray.of(args[s.param()]) : null;
        if (h == null) return true;
        length = h.length();
      } else if (s.length() >= 0) {
        length = s.length();
      } else {
        return true;
      }
      long upper = bound(k, s.upper(), args);
      if (upper != UNREACHABLE && (upper == UNPROVEN || upper >= length)) return true;
    }
    return false;
  }

  private static final long UNPROVEN = -1, UNREACHABLE = -2;

  /** The value of a site's upper bound for {@code args}, in 0..Integer.MAX_VALUE; or UNPROVEN, or UNREACHABLE. */
  private static long bound(KernelIR k, Expr e, Object[] args) {
    switch (e) {
      case Binary b when b.op() == dev.loopjit.ir.Op.Binary.SUB -> {   // a non-negative value below the bound b.a()
        long x = leaf(k, b.a(), args);
        return x == UNPROVEN ? UNPROVEN : x <= 0 ? UNREACHABLE : x - 1;
      }
      case Binary b when b.op() == dev.loopjit.ir.Op.Binary.DIV || b.op() == dev.loopjit.ir.Op.Binary.REM -> {   // x / d, x % d: d's value
        long x = bound(k, b.a(), args);
        if (x < 0) return x;
        long d = leaf(k, b.b(), args);
        if (d == 0) return 0;   // LoopJIT's x / 0 and x % 0
        if (d < 0) return UNPROVEN;   // x / d <= 0: not a bound of the form's (nor is a leaf that is not an int)
        return b.op() == dev.loopjit.ir.Op.Binary.DIV ? x / d : Math.min(x, d - 1);
      }
      case Call c when c.op() == dev.loopjit.ir.Intrinsic.MIN -> {   // each operand >= 0 here, or nothing is proven
        long x = bound(k, c.args().get(0), args), y = bound(k, c.args().get(1), args);
        return x < 0 || y < 0 ? UNPROVEN : Math.min(x, y);
      }
      case Binary b -> {
        long x = bound(k, b.a(), args);
        if (x < 0) return x;
        long y = bound(k, b.b(), args);
        if (y < 0) return y;
        long v = b.op() == dev.loopjit.ir.Op.Binary.ADD ? x + y : x * y;   // both at most Integer.MAX_VALUE: no long overflow
        return v > Integer.MAX_VALUE ? UNPROVEN : v;
      }
      default -> {
        long x = leaf(k, e, args);
        return x < 0 ? UNPROVEN : x;
      }
    }
  }

  /** A leaf's value (a constant, length, trip count or int parameter), or UNPROVEN when it is not an int. */
  private static long leaf(KernelIR k, Expr e, Object[] args) {
    Object v;
    try {
      v = e instanceof Const c ? c.value() : LaunchValues.eval(k, e, args, null, k.name());
    } catch (RuntimeException notOnTheHost) {   // a value only the device knows: no proof, the checks stay
      return UNPROVEN;
    }
    if (!(v instanceof Number n) || v instanceof Float || v instanceof Double) return UNPROVEN;
    long x = n.longValue();
    return x > Integer.MAX_VALUE || x < Integer.MIN_VALUE ? UNPROVEN : x;
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
