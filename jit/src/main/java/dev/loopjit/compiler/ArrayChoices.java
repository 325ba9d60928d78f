// An array variable that may refer to one of several arrays (if (c) p = a; else p = b;): a selector and the arrays.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Java lets a reference variable hold different arrays on different paths: {@code FloatArray p =
 * flag ? a : b}, or {@code if (c) p = a; else p = b;}. Where such paths meet, the {@link Translator}
 * keeps an int selector instead (each path assigns the index of its array at its end) and every use
 * of the variable becomes a choice among the arrays: an element read or write is an {@code if} per
 * array, so only the chosen array is touched (and bounds-checked); a length is a select. Only arrays
 * of one type (element and memory space) are merged; anything else stays refused.
 */
final class ArrayChoices {
  /** The variable's value: {@code arrays.get(selector)}. */
  record Choice(Expr selector, List<Expr> arrays) {
    ArrayType type() {
      return (ArrayType) arrays.get(0).type();
    }
  }

  private ArrayChoices() {}

  /**
   * What a variable (or stack slot) is where paths meet, given its value at the end of each
   * predecessor: that value when all agree, else a {@link Choice} (each predecessor assigning the
   * selector at its end), or null when the values are not all arrays of one type.
   */
  static Object merge(Map<Cfg.Node, Object> atEnds, Names names, String prefix, Src src) {
    List<Object> values = new ArrayList<>(atEnds.values());
    if (values.stream().allMatch(v -> v != null && v.equals(values.get(0)))) return values.get(0);
    ArrayType type = null;
    List<Expr> arrays = new ArrayList<>();
    for (Object v : values) {
      List<Expr> these = v instanceof Choice c ? c.arrays() : v instanceof Expr e && e.type() instanceof ArrayType ? List.of(e) : null;
      if (these == null) return null;
      for (Expr a : these) {
        ArrayType t = (ArrayType) a.type();
        if (type == null) type = t;
        if (!t.equals(type) || t.element() == Prim.HALF) return null;
        if (!arrays.contains(a)) arrays.add(a);
      }
    }
    Var selector = names.fresh(prefix + "which", Prim.INT);
    for (var end : atEnds.entrySet()) {
      Expr index = end.getValue() instanceof Choice c ? remap(c, arrays) : Const.of(arrays.indexOf((Expr) end.getValue()));
      end.getKey().stmts.add(new Stmt.Assign(selector, index, src));
    }
    return new Choice(new Read(selector), List.copyOf(arrays));
  }

  /** The index into {@code arrays} of the array {@code c} chooses. */
  private static Expr remap(Choice c, List<Expr> arrays) {
    int last = c.arrays().size() - 1;
    Expr e = Const.of(arrays.indexOf(c.arrays().get(last)));
    for (int k = last - 1; k >= 0; k--) e = new Select(is(c, k), Const.of(arrays.indexOf(c.arrays().get(k))), e);
    return e;
  }

  private static Expr is(Choice c, int k) {
    return new Compare(Op.Compare.EQ, c.selector(), Const.of(k));
  }

  /** {@code c[index]}: read from the chosen array only, into a temporary. */
  static Expr load(OperandStack ops, Choice c, Expr index) {
    Expr i = ops.once(index);
    Var t = ops.temp(c.type().element().stackType());
    ops.out.add(chain(c, k -> new Stmt.Assign(t, new Load(c.arrays().get(k), i), ops.src), ops.src));
    return new Read(t);
  }

  /** {@code c[index] = value}: written to the chosen array only. */
  static void store(OperandStack ops, Choice c, Expr index, Expr value) {
    Expr i = ops.once(index), v = ops.once(value);
    ops.spillLoads();
    ops.out.add(chain(c, k -> new Stmt.Store(c.arrays().get(k), i, v, ops.src), ops.src));
  }

  /** {@code c.length}. */
  static Expr length(Choice c) {
    int last = c.arrays().size() - 1;
    Expr e = new Length(c.arrays().get(last));
    for (int k = last - 1; k >= 0; k--) e = new Select(is(c, k), new Length(c.arrays().get(k)), e);
    return e;
  }

  /** {@code if (selector == 0) s0 else if (selector == 1) s1 … else sLast}. */
  private static Stmt chain(Choice c, java.util.function.IntFunction<Stmt> each, Src src) {
    int last = c.arrays().size() - 1;
    Stmt s = each.apply(last);
    for (int k = last - 1; k >= 0; k--)
      s = new Stmt.If(is(c, k), new Stmt.Block(List.of(each.apply(k)), src), new Stmt.Block(List.of(s), src), src);
    return s;
  }
}
