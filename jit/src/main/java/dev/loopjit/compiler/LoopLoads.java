// Whether the loops of a work-item's iteration read global memory along x only: what Lanes and Uniform weigh.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Load;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.Assign;
import dev.loopjit.ir.Stmt.If;
import dev.loopjit.ir.Stmt.Loop;
import dev.loopjit.ir.Stmt.Store;
import java.util.function.Function;

/** How a global load's index moves with the work-item's x, and whether an iteration's loops read along x only. */
final class LoopLoads {
  private LoopLoads() {}

  /** An index's stride in x: not at all, one element per x, or any other way. */
  enum Stride { NONE, UNIT, OTHER }

  /**
   * Whether the loops of {@code iteration} read global memory along x ({@code stride} gives some load
   * {@link Stride#UNIT}) and never across it (no load {@link Stride#OTHER}). The loads counted are those
   * of a conditional, an assignment's value and a store's value inside a loop, and with
   * {@code storeIndices} a store's index too; switch selectors and evaluated calls are not counted.
   */
  static boolean alongXOnly(Stmt iteration, boolean storeIndices, Function<Expr, Stride> stride) {
    int[] unit = {0}, other = {0};
    IrWalk.Visitor load = new IrWalk.Visitor() {
      @Override
      public void expr(Expr y, Stmt in) {
        if (y instanceof Load l && ((ArrayType) l.array().type()).space() == ArrayType.Space.GLOBAL) {
          Stride st = stride.apply(l.index());
          if (st == Stride.UNIT) unit[0]++;
          if (st == Stride.OTHER) other[0]++;
        }
      }
    };
    IrWalk.walk(iteration, new IrWalk.Visitor() {
      private int loops;

      @Override
      public void stmt(Stmt s) {
        if (s instanceof Loop) loops++;
        if (loops == 0) return;
        switch (s) {
          case If i -> IrWalk.walk(i.cond(), s, load);
          case Assign a -> IrWalk.walk(a.value(), s, load);
          case Store st -> {
            if (storeIndices) IrWalk.walk(st.index(), s, load);
            IrWalk.walk(st.value(), s, load);
          }
          default -> {}
        }
      }

      @Override
      public void leave(Stmt s) {
        if (s instanceof Loop) loops--;
      }
    });
    return unit[0] > 0 && other[0] == 0;
  }
}
