// Hand-built lowered kernels covering every IR node, intrinsic, type and conversion, for the PTX tests.
package dev.loopjit.backend.cuda;

import static dev.loopjit.backend.cuda.Ir.*;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op.Binary;
import dev.loopjit.ir.Op.Compare;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Each kernel is elementwise unless it says otherwise: {@code i = globalId(0); if (i < n) body(i)},
 * with the array arguments first and {@code n}, the length of the first array, last.
 */
final class TestKernels {
  private TestKernels() {}

  static final Var I = var("i", Prim.INT), N = var("n", Prim.INT);

  static KernelIR elementwise(String name, List<Var> arrays, Function<Expr, List<Stmt>> body) {
    List<KernelArg> args = new ArrayList<>();
    for (int p = 0; p < arrays.size(); p++) args.add(arrays.get(p).type() instanceof ArrayType
        ? new KernelArg.Array(p, arrays.get(p)) : new KernelArg.Scalar(p, arrays.get(p)));
    args.add(new KernelArg.Length(0, N));
    return kernel(name, args,
        set(I, call(Intrinsic.GLOBAL_ID, Prim.INT, c(0))),
        when(cmp(Compare.LT, read(I), read(N)), new Stmt.Block(body.apply(read(I)))));
  }

  /** The array element type that holds values of {@code t} (int for the narrow types and boolean results). */
  static Prim holder(Prim t) {
    return t == Prim.HALF ? Prim.FLOAT : t.stackType();
  }

  /** out[i] = a[i] op b[i]; shift distances come from an int array. */
  static KernelIR binary(Prim t, Binary op) {
    Var a = global("a", t), b = global("b", op.isShift() ? Prim.INT : t), out = global("out", t);
    return elementwise("binary_" + t + "_" + op, List.of(a, b, out), i -> List.of(store(out, i, bin(op, load(a, i), load(b, i)))));
  }

  /** out[i] = a[i] op divisor, with a constant divisor (DIV or REM, INT or LONG). */
  static KernelIR divideByConstant(Prim t, Binary op, long divisor) {
    Var a = global("a", t), out = global("out", t);
    Expr d = t == Prim.INT ? c((int) divisor) : c(divisor);
    return elementwise("divide_" + t + "_" + op + "_" + (divisor < 0 ? "m" + -divisor : divisor), List.of(a, out),
        i -> List.of(store(out, i, bin(op, load(a, i), d))));
  }

  /** out[i] = a[i] op b[i] on booleans held in boolean arrays (the non-short-circuit &, |, ^). */
  static KernelIR booleanBinary(Binary op) {
    Var a = global("a", Prim.BOOLEAN), b = global("b", Prim.BOOLEAN), out = global("out", Prim.BOOLEAN);
    Expr x = cmp(Compare.NE, load(a, read(I)), c(0)), y = cmp(Compare.NE, load(b, read(I)), c(0));
    return elementwise("bool_" + op, List.of(a, b, out), i -> List.of(store(out, i, bin(op, x, y))));
  }

  /** out[i] = a[i] cmp b[i] into a boolean array. */
  static KernelIR compare(Prim t, Compare op) {
    Var a = global("a", t), b = global("b", t), out = global("out", Prim.BOOLEAN);
    return elementwise("compare_" + t + "_" + op, List.of(a, b, out), i -> List.of(store(out, i, cmp(op, load(a, i), load(b, i)))));
  }

  /** out[i] = -a[i]. */
  static KernelIR negate(Prim t) {
    Var a = global("a", t), out = global("out", t);
    return elementwise("neg_" + t, List.of(a, out), i -> List.of(store(out, i, neg(load(a, i)))));
  }

  /** out[i] = (to) a[i], the result held in an array of the result's stack type (float for half). */
  static KernelIR convert(Prim from, Prim to) {
    Var a = global("a", from), out = global("out", holder(to));
    return elementwise("convert_" + from + "_" + to, List.of(a, out), i -> List.of(store(out, i, Ir.convert(to, load(a, i)))));
  }

  /** out[i] = (int) (a[i] != 0) ... a BOOLEAN value converted to each type. */
  static KernelIR convertBoolean(Prim to) {
    Var a = global("a", Prim.INT), out = global("out", holder(to));
    return elementwise("convert_boolean_" + to, List.of(a, out),
        i -> List.of(store(out, i, Ir.convert(to, cmp(Compare.NE, load(a, i), c(0))))));
  }

  /** out[i] = op(a[i], b[i], c[i]) for the first {@code arity} arguments; the result has type {@code result}. */
  static KernelIR math(Intrinsic op, Prim t, Prim result, int arity) {
    Var a = global("a", t), b = global("b", t), cc = global("c", t), out = global("out", result);
    return elementwise("math_" + op + "_" + t, List.of(a, b, cc, out), i -> {
      List<Expr> operands = List.of(load(a, i), load(b, i), load(cc, i)).subList(0, arity);
      return List.of(store(out, i, call(op, result, operands.toArray(Expr[]::new))));
    });
  }

  /** Reads arrays of every element type and writes them back, one element per work-item, widened through int/float. */
  static KernelIR memory(Prim element) {
    Var a = global("a", element), out = global("out", element), wide = global("wide", holder(element));
    return elementwise("memory_" + element, List.of(a, out, wide), i -> List.of(
        store(wide, i, load(a, i)),
        store(out, i, load(a, i))));
  }

  /** Every scalar argument type, each written out. */
  static KernelIR scalars() {
    Var z = var("z", Prim.BOOLEAN), b = var("b", Prim.BYTE), s = var("s", Prim.SHORT), ch = var("ch", Prim.CHAR), in = var("in", Prim.INT),
        l = var("l", Prim.LONG), f = var("f", Prim.FLOAT), d = var("d", Prim.DOUBLE);
    Var ints = global("ints", Prim.INT), longs = global("longs", Prim.LONG), floats = global("floats", Prim.FLOAT), doubles = global("doubles", Prim.DOUBLE);
    return kernel("scalars", args(ints, longs, floats, doubles, z, b, s, ch, in, l, f, d),
        store(ints, c(0), Ir.convert(Prim.INT, read(z))),
        store(ints, c(1), read(b)),
        store(ints, c(2), read(s)),
        store(ints, c(3), read(ch)),
        store(ints, c(4), read(in)),
        store(longs, c(0), read(l)),
        store(floats, c(0), read(f)),
        store(doubles, c(0), read(d)),
        store(ints, c(5), select(read(z), c(7), c(9))));
  }

  /** Work-item geometry in up to three dimensions: out[k * 5 + j] for linear work-item k. */
  static KernelIR geometry() {
    Var out = global("out", Prim.INT), k = var("k", Prim.INT);
    Intrinsic[] ops = {Intrinsic.GLOBAL_ID, Intrinsic.LOCAL_ID, Intrinsic.GROUP_ID, Intrinsic.LOCAL_SIZE, Intrinsic.GLOBAL_SIZE};
    Expr gx = call(Intrinsic.GLOBAL_ID, Prim.INT, c(0)), gy = call(Intrinsic.GLOBAL_ID, Prim.INT, c(1)), gz = call(Intrinsic.GLOBAL_ID, Prim.INT, c(2));
    Expr sx = call(Intrinsic.GLOBAL_SIZE, Prim.INT, c(0)), sy = call(Intrinsic.GLOBAL_SIZE, Prim.INT, c(1));
    List<Stmt> body = new ArrayList<>();
    body.add(set(k, bin(Binary.ADD, gx, bin(Binary.MUL, sx, bin(Binary.ADD, gy, bin(Binary.MUL, sy, gz))))));
    for (int d = 0; d < 3; d++)
      for (int j = 0; j < ops.length; j++)
        body.add(store(out, bin(Binary.ADD, bin(Binary.MUL, read(k), c(15)), c(d * 5 + j)), call(ops[j], Prim.INT, c(d))));
    return kernel("geometry", args(out), body.toArray(Stmt[]::new));
  }

  /**
   * Nested loops with labelled break and continue: for each i, {@code out[i] = f(a[i])} where the
   * Java reference is {@link #nestedLoopsJava}.
   */
  static KernelIR nestedLoops() {
    Var a = global("a", Prim.INT), out = global("out", Prim.INT), x = var("x", Prim.INT), j = var("j", Prim.INT), k = var("k", Prim.INT),
        acc = var("acc", Prim.INT);
    Label outer = new Label("outer"), inner = new Label("inner");
    return elementwise("nested_loops", List.of(a, out), i -> List.of(
        set(x, load(a, i)), set(acc, c(0)),
        forRange(outer, j, c(0), c(10),
            when(cmp(Compare.EQ, bin(Binary.REM, read(j), c(3)), c(2)), block(cont(outer))),
            forRange(inner, k, c(0), c(10),
                when(cmp(Compare.GT, read(k), read(j)), block(cont(outer))),
                when(cmp(Compare.EQ, bin(Binary.ADD, read(j), read(k)), read(x)), block(brk(outer))),
                when(cmp(Compare.EQ, read(k), c(7)), block(brk(inner))),
                set(acc, bin(Binary.ADD, bin(Binary.MUL, read(acc), c(3)), bin(Binary.XOR, read(j), read(k))))),
            set(acc, bin(Binary.ADD, read(acc), c(1000)))),
        store(out, i, read(acc))));
  }

  static int nestedLoopsJava(int x) {
    int acc = 0;
    outer:
    for (int j = 0; j < 10; j++) {
      if (j % 3 == 2) continue;
      for (int k = 0; k < 10; k++) {
        if (k > j) continue outer;
        if (j + k == x) break outer;
        if (k == 7) break;
        acc = acc * 3 + (j ^ k);
      }
      acc += 1000;
    }
    return acc;
  }

  /** A switch with fall-through, a default in the middle, a labelled block and an early return; see {@link #switchesJava}. */
  static KernelIR switches() {
    Var a = global("a", Prim.INT), out = global("out", Prim.INT), r = var("r", Prim.INT);
    Label sw = new Label("sw"), blockLabel = new Label("blk");
    return elementwise("switches", List.of(a, out), i -> List.of(
        set(r, c(1)),
        Ir.sw(sw, load(a, i),
            on(block(set(r, bin(Binary.ADD, read(r), c(10)))), 1, 2),
            on(block(set(r, bin(Binary.MUL, read(r), c(3))), brk(sw)), 3),
            on(block(set(r, bin(Binary.SUB, read(r), c(100)))), new Integer[0]),
            on(block(set(r, bin(Binary.ADD, read(r), c(7))), brk(sw)), -5),
            on(block(store(out, i, c(-1)), ret()), 99)),
        labeled(blockLabel, block(
            when(cmp(Compare.GT, read(r), c(0)), block(brk(blockLabel))),
            set(r, neg(read(r))))),
        store(out, i, read(r))));
  }

  @SuppressWarnings("fallthrough") // the fall-through is what the kernel must reproduce
  static int switchesJava(int a) {
    int r = 1;
    switch (a) {
      case 1, 2:
        r += 10;
      case 3:
        r *= 3;
        break;
      default:
        r -= 100;
      case -5:
        r += 7;
        break;
      case 99:
        return -1;
    }
    blk:
    {
      if (r > 0) break blk;
      r = -r;
    }
    return r;
  }

  /**
   * Short-circuit and selection that Java would not evaluate out of bounds: {@code out[i] = (i + 1 < n
   * && a[i + 1] > a[i]) || (i > 0 && a[i - 1] == 0) ? a[i + 1 < n ? i + 1 : i] : (i == 0 ? -1 : a[i - 1])}.
   */
  static KernelIR guarded() {
    Var a = global("a", Prim.INT), out = global("out", Prim.INT);
    return elementwise("guarded", List.of(a, out), i -> {
      Expr next = bin(Binary.ADD, i, c(1)), prev = bin(Binary.SUB, i, c(1));
      Expr cond = or(and(cmp(Compare.LT, next, read(N)), cmp(Compare.GT, load(a, next), load(a, i))),
          and(cmp(Compare.GT, i, c(0)), cmp(Compare.EQ, load(a, prev), c(0))));
      return List.of(store(out, i, select(cond, load(a, select(cmp(Compare.LT, next, read(N)), next, i)),
          select(cmp(Compare.EQ, i, c(0)), c(-1), load(a, prev)))));
    });
  }

  /** A private array, re-zeroed on each allocation inside a loop; see {@link #privateArraysJava}. */
  static KernelIR privateArrays() {
    Var a = global("a", Prim.INT), out = global("out", Prim.INT), p = new Var("p", new ArrayType(Prim.INT, ArrayType.Space.PRIVATE, 5)),
        j = var("j", Prim.INT), sum = var("sum", Prim.INT);
    Label l = new Label("fill");
    return elementwise("private_arrays", List.of(a, out), i -> List.of(
        set(sum, length(p)),
        forRange(l, j, c(0), c(3),
            alloc(p),
            store(p, bin(Binary.REM, bin(Binary.ADD, load(a, i), read(j)), c(5)), read(j)),
            set(sum, bin(Binary.ADD, read(sum), bin(Binary.ADD, bin(Binary.MUL, load(p, c(0)), c(100)), load(p, c(4))))),
            eval(call(Intrinsic.ATOMIC_ADD, Prim.INT, read(p), c(1), c(5)))),
        set(sum, bin(Binary.ADD, read(sum), load(p, c(1)))),
        store(out, i, read(sum))));
  }

  /** For a >= 0. */
  static int privateArraysJava(int a) {
    int[] p = null;
    int sum = 5;
    for (int j = 0; j < 3; j++) {
      p = new int[5];
      p[(a + j) % 5] = j;
      sum += p[0] * 100 + p[4];
      p[1] += 5;
    }
    return sum + p[1];
  }

  /**
   * A work-group reverses its slice of a through a local array with a barrier, and counts its
   * work-items with a shared atomic: out[i] = a[group * size + size - 1 - lid] * 1000 + count.
   */
  static KernelIR localArrays(int groupSize) {
    Var a = global("a", Prim.INT), out = global("out", Prim.INT), tile = new Var("tile", new ArrayType(Prim.INT, ArrayType.Space.LOCAL, groupSize)),
        count = new Var("count", new ArrayType(Prim.INT, ArrayType.Space.LOCAL, 1)), lid = var("lid", Prim.INT),
        size = var("size", Prim.INT);
    return kernel("local_arrays", args(a, out),
        alloc(tile), alloc(count),
        set(lid, call(Intrinsic.LOCAL_ID, Prim.INT, c(0))),
        set(size, length(tile)),
        when(cmp(Compare.EQ, read(lid), c(0)), block(store(count, c(0), c(0)))),
        eval(call(Intrinsic.BARRIER_LOCAL, null)),
        store(tile, read(lid), load(a, call(Intrinsic.GLOBAL_ID, Prim.INT, c(0)))),
        eval(call(Intrinsic.ATOMIC_ADD, Prim.INT, read(count), c(0), c(1))),
        eval(call(Intrinsic.BARRIER_GLOBAL, null)),
        store(out, call(Intrinsic.GLOBAL_ID, Prim.INT, c(0)), bin(Binary.ADD,
            bin(Binary.MUL, load(tile, bin(Binary.SUB, bin(Binary.SUB, read(size), c(1)), read(lid))), c(1000)), load(count, c(0)))));
  }

  /** Work-item i adds i + 1 to ints[0] (its old value goes to olds[i]), i to longs[0], 0.5 to floats[0] and 0.25 to doubles[0]. */
  static KernelIR atomics() {
    Var ints = global("ints", Prim.INT), longs = global("longs", Prim.LONG), floats = global("floats", Prim.FLOAT),
        doubles = global("doubles", Prim.DOUBLE), olds = global("olds", Prim.INT);
    return elementwise("atomics", List.of(olds, ints, longs, floats, doubles), i -> List.of(
        store(olds, i, call(Intrinsic.ATOMIC_ADD, Prim.INT, read(ints), c(0), bin(Binary.ADD, i, c(1)))),
        eval(call(Intrinsic.ATOMIC_ADD, Prim.LONG, read(longs), c(0), Ir.convert(Prim.LONG, i))),
        eval(call(Intrinsic.ATOMIC_ADD, Prim.FLOAT, read(floats), c(0), c(0.5f))),
        eval(call(Intrinsic.ATOMIC_ADD, Prim.DOUBLE, read(doubles), c(0), c(0.25)))));
  }

  /** exp, log, log10, sin, cos, tanh of a[i] with fast math. */
  static KernelIR fastMath() {
    Var a = global("a", Prim.FLOAT), out = global("out", Prim.FLOAT);
    Intrinsic[] ops = {Intrinsic.EXP, Intrinsic.LOG, Intrinsic.LOG10, Intrinsic.SIN, Intrinsic.COS, Intrinsic.TANH};
    return elementwise("fast_math", List.of(a, out), i -> {
      Expr sum = c(0f);
      for (Intrinsic op : ops) sum = bin(Binary.ADD, sum, call(op, Prim.FLOAT, load(a, i)));
      return List.of(store(out, i, sum));
    });
  }

  /** Every kernel above, over every type and operator it takes (fast math excluded: it needs a fast-math target). */
  static List<KernelIR> all() {
    List<KernelIR> all = new ArrayList<>();
    for (Prim t : List.of(Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE)) {
      for (Binary op : Binary.values())
        if (!t.isFloating() || List.of(Binary.ADD, Binary.SUB, Binary.MUL, Binary.DIV, Binary.REM).contains(op)) all.add(binary(t, op));
      for (Compare op : Compare.values()) all.add(compare(t, op));
      all.add(negate(t));
      for (Prim to : List.of(Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE, Prim.BYTE, Prim.SHORT, Prim.CHAR, Prim.HALF, Prim.BOOLEAN))
        all.add(convert(t, to));
      all.add(math(Intrinsic.ABS, t, t, 1));
      all.add(math(Intrinsic.MIN, t, t, 2));
      all.add(math(Intrinsic.MAX, t, t, 2));
      if (t.isFloating()) {
        for (Intrinsic op : List.of(Intrinsic.SQRT, Intrinsic.FLOOR, Intrinsic.CEIL, Intrinsic.RINT)) all.add(math(op, t, t, 1));
        all.add(math(Intrinsic.FMA, t, t, 3));
      } else {
        for (Intrinsic op : List.of(Intrinsic.POPCOUNT, Intrinsic.CLZ, Intrinsic.CTZ)) all.add(math(op, t, Prim.INT, 1));
      }
    }
    for (Binary op : List.of(Binary.AND, Binary.OR, Binary.XOR)) all.add(booleanBinary(op));
    for (Binary op : List.of(Binary.DIV, Binary.REM))
      for (long d : new long[] {0, -1, 3, -7}) {
        all.add(divideByConstant(Prim.INT, op, d));
        all.add(divideByConstant(Prim.LONG, op, d));
      }
    for (Prim to : List.of(Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE, Prim.BYTE, Prim.SHORT, Prim.CHAR, Prim.HALF, Prim.BOOLEAN))
      all.add(convertBoolean(to));
    all.add(math(Intrinsic.FLOAT_BITS, Prim.FLOAT, Prim.INT, 1));
    all.add(math(Intrinsic.BITS_FLOAT, Prim.INT, Prim.FLOAT, 1));
    all.add(math(Intrinsic.DOUBLE_BITS, Prim.DOUBLE, Prim.LONG, 1));
    all.add(math(Intrinsic.BITS_DOUBLE, Prim.LONG, Prim.DOUBLE, 1));
    for (Prim p : Prim.values()) all.add(memory(p));
    all.add(scalars());
    all.add(geometry());
    all.add(nestedLoops());
    all.add(switches());
    all.add(guarded());
    all.add(privateArrays());
    all.add(localArrays(64));
    all.add(atomics());
    return all;
  }
}
