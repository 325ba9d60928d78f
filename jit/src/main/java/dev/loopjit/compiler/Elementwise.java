// Whether a kernel works element by element (a[i] at its loop index only), so that a graph over long arrays can run in slices.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What running a graph in slices ({@code withBatch}) needs of a task's kernel, proven from its IR
 * after the {@code parallel} pass rather than assumed: one {@code @Parallel} loop from 0 by 1 whose
 * trip count is made of array lengths only, nothing before or after it that writes memory, no
 * {@code @Reduce}; the loop index used only as an array index (a slice counts from 0 again); every array parameter either <em>sliced</em> — touched only at the loop index
 * ({@code a[i]}, {@code a.get(i)}, {@code a.set(i, v)}) or giving the trip count, its length read
 * nowhere in the body — or <em>whole</em>: read at other indices and never written. Then iteration
 * i touches element i of each sliced array and nothing another iteration writes, so running the
 * loop over elements [s, e) of every sliced array, slice after slice, gives what one run gives.
 * Anything else (an index {@code i + 1}, an atomic, an array passed on, a local alias) is a reason
 * not to, and the reason is what {@link #of} throws.
 */
public final class Elementwise {
  private Elementwise() {}

  /** A kernel's array parameters by how slices treat them, and those it writes (parameter indices). */
  public record Use(Set<Integer> sliced, Set<Integer> whole, Set<Integer> written) {}

  /**
   * How {@code method}'s array parameters are used, for running it in slices; an
   * IllegalArgumentException saying why not (without the task's name) when it cannot.
   */
  public static Use of(MethodRef method) {
    KernelIR ir = Compiler.lower(method, Target.offline("opencl", ""), "parallel", Set.of(), false);
    if (!(ir.launch() instanceof Launch.Loops loops) || loops.counts().size() != 1 || loops.countVars().isEmpty())
      throw new IllegalArgumentException("it is not one @Parallel loop" + (ir.launch() instanceof Launch.Loops ? " (it has nested ones)" : " (a KernelContext kernel)"));
    if (loops.prologue() || loops.epilogue())
      throw new IllegalArgumentException("it writes memory before or after its @Parallel loop");
    Map<Var, KernelIR.Param> arrays = new HashMap<>();
    for (KernelIR.Param p : ir.params()) {
      if (p.reduce()) throw new IllegalArgumentException("it reduces into @Reduce " + method.parameterName(p.index()));
      if (p.kind() == KernelIR.Param.Kind.ARRAY) arrays.put(p.var(), p);
    }
    Set<Integer> sliced = new TreeSet<>(), whole = new TreeSet<>(), written = new TreeSet<>(), lengthInBody = new TreeSet<>();

    // the trip count: one array's length, exactly (a slice then gives its own count; a.length - 1 would lose one per slice)
    Expr count = loops.counts().getFirst();
    while (count instanceof Select(Expr c, Expr a, Const zero) && zero.value() instanceof Number z && z.longValue() == 0 || count instanceof Convert)
      count = count instanceof Convert(var t, Expr x) ? x : ((Select) count).a();
    if (!(count instanceof Length(Read(Var v)) && arrays.containsKey(v)))
      throw new IllegalArgumentException("its @Parallel loop does not run to an array's length (a slice could not give it its own count)");
    sliced.add(arrays.get(v).index());

    // the loop index: the one variable set to global_id(0) (a loop from 0 by 1), set nowhere else in the iteration
    Expr globalId = new Call(Intrinsic.GLOBAL_ID, Prim.INT, List.of(Const.of(0)));
    Var[] index = {null};
    int[] sets = {0};
    Stmt frame = null;
    for (Stmt s : ir.body().stmts()) if (s instanceof Stmt.Labeled l && l.label().equals(loops.frame())) frame = l;
    if (frame == null) throw new IllegalArgumentException("its @Parallel loop has a shape slices do not take");
    IrWalk.walk(frame, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Stmt.Assign a && a.value().equals(globalId)) index[0] = a.var();
      }
    });
    if (index[0] == null) throw new IllegalArgumentException("its @Parallel loop does not start at 0 and step by 1");
    IrWalk.walk(frame, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Stmt.Assign a && a.var().equals(index[0])) sets[0]++;
      }
    });
    if (sets[0] != 1) throw new IllegalArgumentException("its loop index changes inside the iteration");

    // every use of an array parameter: at the index, elsewhere, its length; nothing else
    Expr at = new Read(index[0]);
    Map<Var, int[]> uses = new HashMap<>();   // [all reads, reads as an array operand]
    int[] indexReads = {0, 0};   // [all reads of the loop index, reads as an index of a parameter array]
    IrWalk.walk(ir.body(), new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Stmt.Store st && st.array() instanceof Read(Var v) && arrays.containsKey(v)) {
          use(v, st.index());
          written.add(arrays.get(v).index());
        }
      }

      @Override
      public void expr(Expr e, Stmt in) {
        if (e instanceof Read(Var v) && arrays.containsKey(v)) uses.computeIfAbsent(v, k -> new int[2])[0]++;
        if (e.equals(at)) indexReads[0]++;
        if (e instanceof Load(Read(Var v), Expr i) && arrays.containsKey(v)) use(v, i);
        if (e instanceof Length(Read(Var v)) && arrays.containsKey(v)) {
          lengthInBody.add(arrays.get(v).index());
          uses.computeIfAbsent(v, k -> new int[2])[1]++;
        }
      }

      private void use(Var v, Expr i) {
        uses.computeIfAbsent(v, k -> new int[2])[1]++;
        if (i.equals(at)) indexReads[1]++;
        (i.equals(at) ? sliced : whole).add(arrays.get(v).index());
      }
    });
    for (var e : uses.entrySet())
      if (e.getValue()[0] != e.getValue()[1])
        throw new IllegalArgumentException("it passes array " + name(method, arrays, e.getKey()) + " on (to an atomic, a helper or a local variable)");
    if (indexReads[0] != indexReads[1])
      throw new IllegalArgumentException("it uses its loop index as a value, not only as an array index (a slice's indices start at 0 again)");
    for (int p : whole) {
      if (sliced.contains(p)) throw new IllegalArgumentException("it reads " + method.parameterName(p) + " both at its loop index and elsewhere");
      if (written.contains(p)) throw new IllegalArgumentException("it writes " + method.parameterName(p) + " at an index other than its loop index");
    }
    for (int p : lengthInBody)
      if (sliced.contains(p)) throw new IllegalArgumentException("it reads the length of " + method.parameterName(p) + " inside its loop (a slice's differs)");
    return new Use(Set.copyOf(sliced), Set.copyOf(whole), Set.copyOf(written));
  }

  private static String name(MethodRef m, Map<Var, KernelIR.Param> arrays, Var v) {
    return m.parameterName(arrays.get(v).index());
  }
}
