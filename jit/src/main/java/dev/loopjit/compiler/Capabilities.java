// Pass "capabilities": checks the kernel against what the target declares, before any driver sees it.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Type;
import dev.loopjit.ir.Var;
import java.util.HashSet;
import java.util.Set;

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
        if (p.var() != null && usesDouble(p.var().type())) throw noFp64(kernel);
    Set<Var> locals = new HashSet<>();
    long[] localBytes = {0};
    new Object() {
      void stmt(Stmt s) {
        switch (s) {
          case Block b -> b.stmts().forEach(this::stmt);
          case Assign a -> {
            if (a.value() instanceof Alloc al) {
              if (al.type().space() == ArrayType.Space.LOCAL && locals.add(a.var()))
                localBytes[0] += (long) al.type().length() * al.type().element().bytes();
            } else expr(a.value(), a.src());
            if (!t.fp64() && usesDouble(a.var().type())) throw noFp64(a.src());
          }
          case Store st -> { expr(st.array(), st.src()); expr(st.index(), st.src()); expr(st.value(), st.src()); }
          case Eval e -> expr(e.call(), e.src());
          case If i -> { expr(i.cond(), i.src()); stmt(i.then()); stmt(i.otherwise()); }
          case Loop l -> { stmt(l.body()); stmt(l.update()); }
          case Switch sw -> { expr(sw.selector(), sw.src()); sw.cases().forEach(c -> stmt(c.body())); }
          case Labeled l -> stmt(l.body());
          case Return r -> { if (r.value() != null) expr(r.value(), r.src()); }
          case Break b -> {}
          case Continue c -> {}
        }
      }

      void expr(Expr e, Src at) {
        if (!t.fp64() && !(e instanceof Alloc) && usesDouble(e.type())) throw noFp64(at);
        switch (e) {
          case Alloc a -> throw Refusal.unsupported(at, "an array allocation that is not assigned to a variable");
          case Invoke i -> throw new IllegalStateException("call left after inlining: " + i);
          case Call c -> {
            if (c.op() == Intrinsic.ATOMIC_ADD && c.type() == Prim.LONG && !t.int64Atomics())
              throw Refusal.error(at, "64-bit atomicAdd", "atomicAdd on longs needs 64-bit atomics, which this device does not have");
            c.args().forEach(x -> expr(x, at));
          }
          case Unary u -> expr(u.x(), at);
          case Binary b -> { expr(b.a(), at); expr(b.b(), at); }
          case Compare c -> { expr(c.a(), at); expr(c.b(), at); }
          case Logic l -> { expr(l.a(), at); expr(l.b(), at); }
          case Convert c -> expr(c.x(), at);
          case Select s -> { expr(s.cond(), at); expr(s.a(), at); expr(s.b(), at); }
          case Load l -> { expr(l.array(), at); expr(l.index(), at); }
          case Length l -> expr(l.array(), at);
          case Const c -> {}
          case Read r -> {}
        }
      }
    }.stmt(ir.body());
    if (localBytes[0] > t.localMemoryBytes())
      throw Refusal.error(kernel, "local memory", "the kernel's local arrays need " + localBytes[0]
          + " bytes; the device has " + t.localMemoryBytes() + " per work-group");
    return ir;
  }

  private static boolean usesDouble(Type type) {
    return type == Prim.DOUBLE || type instanceof ArrayType a && a.element() == Prim.DOUBLE;
  }

  private static RuntimeException noFp64(Src at) {
    return Refusal.error(at, "double", "'double' is used, but this device has no double precision (fp64)");
  }
}
