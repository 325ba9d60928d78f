// Pass "launchSized": an array made in a kernel with a size known at launch, new float[n], declared at the target's capacity, its length n.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.BoundsSite;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A device declares a work-item's private arrays with a constant size, but Java's {@code new float[n]}
 * may take n from the task's arguments ({@code new float[headSize]}, {@code new float[a.length / 2]}).
 * Where n is an expression of the kernel's scalar parameters and array lengths (followed through
 * variables assigned once: {@link RuntimeLocals}; anything else is refused at the allocation's line),
 * the array is declared with {@link dev.loopjit.ir.Target#privateCapacity()} elements and zeroed
 * there, while Java's {@code .length} is n itself — the bound every check of the array compares with
 * (the {@code bounds} pass ran before, on the length n), so an index from n up fails as in Java. The
 * kernel lists each n as the host computes it ({@link KernelIR#launchSizes()}); the runtime evaluates
 * them before a launch, refuses a negative one (Java's NegativeArraySizeException) and asks for a
 * target whose capacity holds the largest ({@code spi.Variants}), so a size that does not fit is
 * never run. JVM bytecode ({@code jvm-mt}) makes each array at its length n instead, so that the
 * JVM's own index checks are Java's.
 */
final class LaunchSized implements Pass {
  @Override
  public String name() {
    return "launchSized";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    Map<Var, RuntimeLocals.Found> found = RuntimeLocals.find(ir, true);
    if (found.isEmpty()) return ir;
    List<Expr> hostSizes = found.values().stream().map(RuntimeLocals.Found::length).toList();
    // the bounds pass's sites on these arrays: their length as the host computes it, for the report
    List<BoundsSite> sites = ir.boundsSites().stream().map(s -> s.size() instanceof Length l && l.array() instanceof Read r
        && found.containsKey(r.var()) ? s.withSize(found.get(r.var()).length()) : s).toList();
    if (cx.target.chunked()) {
      // JVM bytecode makes each array at its own length (newarray n) and checks indices against it itself
      Stmt.Block body = new Rewriter() {
        @Override
        protected Expr expr(Expr e) {
          return e instanceof Length l && l.array() instanceof Read r && found.containsKey(r.var()) ? found.get(r.var()).length() : e;
        }
      }.rewrite(ir.body());
      return ir.withLaunchSizes(hostSizes, sites, body);
    }
    Map<Var, Var> declared = new HashMap<>();
    Map<Var, Expr> lengths = new HashMap<>();   // by the declared variable: the Rewriter renames a Length's array first
    for (RuntimeLocals.Found f : found.values()) {
      ArrayType t = (ArrayType) f.var().type();
      Var v = cx.names.fresh(f.var().name(), new ArrayType(t.element(), ArrayType.Space.PRIVATE, cx.target.privateCapacity()));
      declared.put(f.var(), v);
      lengths.put(v, f.length());
    }
    Stmt.Block body = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Length l && l.array() instanceof Read r && lengths.containsKey(r.var())) return lengths.get(r.var());
        if (e instanceof Read r && declared.containsKey(r.var())) return new Read(declared.get(r.var()));
        return e;
      }

      @Override
      protected List<Stmt> stmts(Stmt s) {
        if (s instanceof Assign a && declared.containsKey(a.var()))
          return List.of(new Assign(declared.get(a.var()), new Alloc((ArrayType) declared.get(a.var()).type()), a.src()));
        return List.of(s);
      }
    }.rewrite(ir.body());
    return ir.withLaunchSizes(hostSizes, sites, body);
  }
}
