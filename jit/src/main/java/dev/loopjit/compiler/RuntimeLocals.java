// Part of pass "arguments": local arrays sized at run time become KernelArg.Local, their lengths expressions the host evaluates.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ctx.allocateFloatLocalArray(n)} with a size that is not a constant: the work-group shares
 * one array, so every work-item must ask for the same size, and the host must know it before the
 * launch to reserve the memory. The size is therefore written as an expression of what the host
 * knows — the kernel's scalar parameters (never assigned in the kernel), array lengths, collection
 * shapes, {@code localGroupSizeX/Y/Z} and constants — following variables assigned exactly once
 * (as {@code int n = rows * 4;}, or a helper's parameter after inlining). Anything else (a value
 * read from memory, a work-item id, a variable that changes) is refused at the allocation's line.
 * Each such array becomes a {@link KernelArg.Local}; its allocation statement goes, and its
 * {@code .length} becomes the length expression itself (every work-item can compute it).
 */
final class RuntimeLocals {
  private RuntimeLocals() {}

  /** A run-time local array: its variable, length for the host, and where it was allocated. */
  record Found(Var var, Expr length, Src src) {}

  /** The run-time local arrays of {@code ir}, in order of allocation, with host lengths; refuses what the host cannot know. */
  static Map<Var, Found> find(KernelIR ir) {
    return find(ir, false);
  }

  /**
   * The arrays sized at launch of {@code ir} — local ones ({@code ctx.allocateFloatLocalArray(n)}), or
   * with {@code privates} private ones ({@code new float[n]}, pass {@code launchSized}) — in order of
   * allocation, with host lengths; refuses what the host cannot know.
   */
  static Map<Var, Found> find(KernelIR ir, boolean privates) {
    Map<Var, Found> found = new LinkedHashMap<>();
    Map<Var, Integer> assignments = new HashMap<>();
    Map<Var, Expr> single = new HashMap<>();
    IrWalk.walk(ir.body(), new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (!(s instanceof Assign a)) return;
        assignments.merge(a.var(), 1, Integer::sum);
        single.put(a.var(), a.value());
      }
    });
    Set<Var> params = new HashSet<>();
    for (KernelIR.Param p : ir.params()) if (p.var() != null && !assignments.containsKey(p.var())) params.add(p.var());
    IrWalk.walk(ir.body(), new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Assign a && a.value() instanceof Alloc al && (privates ? al.type().launchSized() : al.type().runtimeLength())) {
          String what = privates ? "private array" : "local array";
          if (assignments.get(a.var()) != 1)
            throw Refusal.error(a.src(), what, "a variable holding a " + what + " sized at run time must be assigned once");
          found.put(a.var(), new Found(a.var(), host(al.length(), params, assignments, single, a.src(), 0, privates), a.src()));
        }
      }
    });
    return found;
  }

  /** {@code e} in terms the host knows, or a refusal naming what it reads. */
  private static Expr host(Expr e, Set<Var> params, Map<Var, Integer> assignments, Map<Var, Expr> single, Src at, int depth, boolean privates) {
    if (depth > 64) throw refusal(at, "it is computed through too many variables", privates);
    return new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        switch (x) {
          case Read r when params.contains(r.var()) -> { return x; }
          case Read r when r.var().type() instanceof ArrayType -> { return x; }
          case Read r when assignments.getOrDefault(r.var(), 0) == 1 && !(single.get(r.var()) instanceof Alloc) ->
              { return host(single.get(r.var()), params, assignments, single, at, depth + 1, privates); }
          case Read r -> throw refusal(at, "it reads " + r.var().name() + ", which " + (assignments.containsKey(r.var())
              ? "is assigned more than once in the kernel" : "the host does not know"), privates);
          case Load l -> throw refusal(at, "it reads an array element", privates);
          case Call c when c.op() == Intrinsic.LOCAL_SIZE && !privates || c.op() == Intrinsic.SHAPE || c.op() == Intrinsic.MIN
              || c.op() == Intrinsic.MAX || c.op() == Intrinsic.ABS || c.op() == Intrinsic.DIV_UNCHECKED
              || c.op() == Intrinsic.REM_UNCHECKED -> { return x; }
          case Call c -> throw refusal(at, "it uses " + c.op().name().toLowerCase()
              + (c.op() == Intrinsic.LOCAL_ID || c.op() == Intrinsic.GLOBAL_ID || c.op() == Intrinsic.GROUP_ID ? ", which differs between work-items" : ""),
              privates);
          case Invoke i -> throw refusal(at, "it calls " + i.name(), privates);
          default -> { return x; }
        }
      }
    }.rewrite(e);
  }

  private static RuntimeException refusal(Src at, String why, boolean privates) {
    if (privates)
      return Refusal.error(at, "private array size", "the size of an array made in a kernel must be known before the launch (the device "
          + "reserves it for every work-item): a constant, or an expression of the kernel's scalar parameters and array lengths; " + why);
    return Refusal.error(at, "local array size", "the size of a local array must be the same for every work-item and known before the "
        + "launch: a constant, or an expression of the kernel's scalar parameters, array lengths and localGroupSizeX/Y/Z; " + why);
  }

  /** {@code body} without the allocations of {@code found} (they are arguments now). */
  static Stmt.Block withoutAllocations(Stmt.Block body, Map<Var, Found> found) {
    return new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt s) {
        return s instanceof Assign a && found.containsKey(a.var()) ? List.of() : List.of(s);
      }
    }.rewrite(body);
  }

  /** The arguments of {@code found}, in order. */
  static List<KernelArg> arguments(Map<Var, Found> found) {
    return found.values().stream().map(f -> (KernelArg) new KernelArg.Local(f.var(), f.length())).toList();
  }
}
