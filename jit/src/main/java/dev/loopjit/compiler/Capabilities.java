// Pass "capabilities": checks the kernel against what the target declares, before any driver sees it.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Uses;

/**
 * Refuses, with the Java line, a kernel that needs what the target lacks: doubles without fp64,
 * 64-bit atomics without the extension, more local memory than a work-group has. Also checks the
 * IR's own rules that earlier passes rely on (allocations only as a variable's value, no calls left).
 */
final class Capabilities implements Pass {
  @Override
  public String name() {
    return "capabilities";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    Target t = cx.target;
    Src kernel = new Src(cx.method.owner().getName(), cx.method.name(), -1, null);
    if (!t.fp64())
      for (KernelIR.Param p : ir.params())
        if (p.var() != null && Uses.isDouble(p.var().type())) throw Refusal.noFp64(kernel);
    IrWalk.walk(ir.body(), new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (!t.fp64() && s instanceof Assign a && Uses.isDouble(a.var().type())) throw Refusal.noFp64(a.src());
      }

      @Override
      public void expr(Expr e, Stmt in) {
        if (!t.fp64() && !(e instanceof Alloc) && Uses.isDouble(e.type())) throw Refusal.noFp64(in.src());
        switch (e) {
          case Alloc a when !(in instanceof Assign as && as.value() == e) ->
              throw Refusal.unsupported(in.src(), "an array allocation that is not assigned to a variable");
          case Invoke i -> throw new IllegalStateException("call left after inlining: " + i);
          case Call c when c.op() == Intrinsic.ATOMIC_ADD && (c.type() == Prim.LONG || c.type() == Prim.DOUBLE) && !t.int64Atomics() ->
              throw Refusal.error(in.src(), "64-bit atomicAdd", "atomicAdd on " + (c.type() == Prim.LONG ? "longs" : "doubles")
                  + " needs 64-bit atomics, which this device does not have");
          default -> {}
        }
      }
    });
    long localBytes = Uses.of(ir.body()).localBytes();
    if (localBytes > t.localMemoryBytes())
      throw Refusal.error(kernel, "local memory", "the kernel's local arrays need " + localBytes
          + " bytes; the device has " + t.localMemoryBytes() + " per work-group");
    return ir;
  }
}
