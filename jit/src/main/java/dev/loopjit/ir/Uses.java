// What a kernel uses, found in one walk: the types, memory and operations that capability checks and emitters ask about.
package dev.loopjit.ir;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Stmt.*;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The facts about a kernel that the capability check, the emitters and the runtime each need:
 * whether it touches {@code double} (a value, a variable or an array), which variables it
 * assigns or reads (in order of first appearance), the local arrays it allocates, and which
 * synchronising operations it calls.
 *
 * @param doubles      some value, variable, parameter or array is {@code double}
 * @param vars         every variable assigned or read in the body, in order of first appearance
 * @param localArrays  the variables holding work-group (local) arrays
 * @param localBytes   bytes of local memory those arrays take
 * @param atomics      the kernel calls an atomic operation
 * @param longAtomics  the kernel adds to a {@code long} or {@code double} array atomically
 * @param barriers     the kernel calls a barrier
 */
public record Uses(boolean doubles, Set<Var> vars, Set<Var> localArrays, long localBytes, boolean atomics, boolean longAtomics,
    boolean barriers) {

  /** The uses of {@code k}'s body and arguments. */
  public static Uses of(KernelIR k) {
    Uses u = of(k.body());
    boolean doubles = u.doubles;
    for (KernelIR.Param p : k.params()) doubles |= p.var() != null && isDouble(p.var().type());
    for (KernelArg a : k.args()) doubles |= isDouble(a.var().type());
    return new Uses(doubles, u.vars, u.localArrays, u.localBytes, u.atomics, u.longAtomics, u.barriers);
  }

  /** The uses of a statement. */
  public static Uses of(Stmt body) {
    Set<Var> vars = new LinkedHashSet<>(), locals = new LinkedHashSet<>();
    boolean[] f = new boolean[4];   // doubles, atomics, longAtomics, barriers
    long[] localBytes = {0};
    IrWalk.walk(body, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (!(s instanceof Assign a)) return;
        vars.add(a.var());
        f[0] |= isDouble(a.var().type());
        // Local arrays sized at launch (a KernelArg.Local after the arguments pass) are counted by the host, not here.
        if (a.value() instanceof Alloc al && al.type().space() == ArrayType.Space.LOCAL && locals.add(a.var()) && !al.type().runtimeLength())
          localBytes[0] += (long) al.type().length() * al.type().element().bytes();
      }

      @Override
      public void expr(Expr e, Stmt in) {
        if (e instanceof Read r) vars.add(r.var());
        f[0] |= e instanceof Call c ? c.type() == Prim.DOUBLE || c.args().stream().anyMatch(x -> isDouble(x.type()))
            : !(e instanceof Alloc) && isDouble(e.type());
        if (e instanceof Call c) {
          boolean atomic = c.op() == Intrinsic.ATOMIC_ADD || c.op() == Intrinsic.ATOMIC_CAS;
          f[1] |= atomic;
          f[2] |= c.op() == Intrinsic.ATOMIC_ADD && (c.type() == Prim.LONG || c.type() == Prim.DOUBLE);
          f[3] |= c.op().isBarrier();
        }
      }
    });
    return new Uses(f[0], Collections.unmodifiableSet(vars), Collections.unmodifiableSet(locals), localBytes[0], f[1], f[2], f[3]);
  }

  /** Whether {@code t} is {@code double} or an array of it. */
  public static boolean isDouble(Type t) {
    return t == Prim.DOUBLE || t instanceof ArrayType a && a.element() == Prim.DOUBLE;
  }
}
