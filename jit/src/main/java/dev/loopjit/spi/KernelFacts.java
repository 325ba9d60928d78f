// Facts the runtime needs about a compiled kernel: how it uses each array, and its grid for given arguments.
package dev.loopjit.spi;

import dev.loopjit.compiler.HostEval;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
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

  /** How the kernel uses parameter {@code param}. */
  public static Access access(KernelIR k, int param) {
    Var v = k.params().get(param).var();
    boolean[] rw = new boolean[2];
    new Object() {
      void stmt(Stmt s) {
        switch (s) {
          case Stmt.Block b -> b.stmts().forEach(this::stmt);
          case Stmt.Assign a -> expr(a.value());
          case Stmt.Store st -> {
            if (st.array() instanceof Read r && r.var().equals(v)) rw[1] = true;
            expr(st.array());
            expr(st.index());
            expr(st.value());
          }
          case Stmt.Eval e -> expr(e.call());
          case Stmt.If i -> { expr(i.cond()); stmt(i.then()); stmt(i.otherwise()); }
          case Stmt.Loop l -> { stmt(l.body()); stmt(l.update()); }
          case Stmt.Switch sw -> { expr(sw.selector()); sw.cases().forEach(c -> stmt(c.body())); }
          case Stmt.Labeled l -> stmt(l.body());
          case Stmt.Return r -> { if (r.value() != null) expr(r.value()); }
          case Stmt.Break b -> {}
          case Stmt.Continue c -> {}
        }
      }

      void expr(Expr e) {
        switch (e) {
          case Load l -> { if (l.array() instanceof Read r && r.var().equals(v)) rw[0] = true; expr(l.array()); expr(l.index()); }
          case Call c -> {
            if (c.op() == dev.loopjit.ir.Intrinsic.ATOMIC_ADD && c.args().get(0) instanceof Read r && r.var().equals(v)) {
              rw[0] = true;
              rw[1] = true;
            }
            c.args().forEach(this::expr);
          }
          case Invoke i -> { rw[0] = true; rw[1] = true; }
          case Unary u -> expr(u.x());
          case Binary b -> { expr(b.a()); expr(b.b()); }
          case Compare c -> { expr(c.a()); expr(c.b()); }
          case Logic l -> { expr(l.a()); expr(l.b()); }
          case Convert c -> expr(c.x());
          case Select s -> { expr(s.cond()); expr(s.a()); expr(s.b()); }
          case Length l -> expr(l.array());
          case Const c -> {}
          case Read r -> {}
          case Alloc a -> {}
        }
      }
    }.stmt(k.body());
    return rw[0] && rw[1] ? Access.READ_WRITE : rw[1] ? Access.WRITE : rw[0] ? Access.READ : Access.NONE;
  }

  /** The trip counts of the kernel's parallel loops for these task arguments ({@code {1}} for a single work-item). */
  public static long[] loopCounts(KernelIR k, Object[] args) {
    if (!(k.launch() instanceof Launch.Loops loops)) return new long[] {1};
    Map<Var, Object> env = new HashMap<>();
    for (KernelIR.Param p : k.params()) {
      Object a = args[p.index()];
      HostArray h = p.kind() == KernelIR.Param.Kind.ARRAY ? HostArray.of(a) : null;
      env.put(p.var(), h != null ? (Object) h.length() : a);   // the host knows an array by its length
    }
    long[] counts = new long[loops.counts().size()];
    for (int d = 0; d < counts.length; d++) counts[d] = Math.max(0, ((Number) HostEval.eval(loops.counts().get(d), env)).longValue());
    return counts;
  }
}
