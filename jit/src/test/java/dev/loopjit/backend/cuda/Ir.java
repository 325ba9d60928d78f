// Short constructors for hand-built lowered IR in tests, while there is no front end to produce it.
package dev.loopjit.backend.cuda;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Type;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;

/** Static factories for IR nodes, named after the Java they stand for. */
final class Ir {
  private Ir() {}

  static Var var(String name, Type t) {
    return new Var(name, t);
  }

  static Var global(String name, Prim element) {
    return new Var(name, ArrayType.global(element));
  }

  static Expr.Const c(int v) { return Expr.Const.of(v); }
  static Expr.Const c(long v) { return Expr.Const.of(v); }
  static Expr.Const c(float v) { return Expr.Const.of(v); }
  static Expr.Const c(double v) { return Expr.Const.of(v); }
  static Expr.Const c(boolean v) { return Expr.Const.of(v); }

  static Expr read(Var v) { return new Expr.Read(v); }
  static Expr bin(Op.Binary op, Expr a, Expr b) { return new Expr.Binary(op, a, b); }
  static Expr cmp(Op.Compare op, Expr a, Expr b) { return new Expr.Compare(op, a, b); }
  static Expr and(Expr a, Expr b) { return new Expr.Logic(Op.Logic.AND, a, b); }
  static Expr or(Expr a, Expr b) { return new Expr.Logic(Op.Logic.OR, a, b); }
  static Expr not(Expr a) { return new Expr.Unary(Op.Unary.NOT, a); }
  static Expr neg(Expr a) { return new Expr.Unary(Op.Unary.NEG, a); }
  static Expr convert(Prim to, Expr x) { return new Expr.Convert(to, x); }
  static Expr select(Expr c, Expr a, Expr b) { return new Expr.Select(c, a, b); }
  static Expr load(Var array, Expr index) { return new Expr.Load(read(array), index); }
  static Expr length(Var array) { return new Expr.Length(read(array)); }
  static Expr call(Intrinsic op, Prim type, Expr... args) { return new Expr.Call(op, type, List.of(args)); }

  static Stmt set(Var v, Expr e) { return new Stmt.Assign(v, e, Src.NONE); }
  static Stmt alloc(Var v) { return new Stmt.Assign(v, new Expr.Alloc((ArrayType) v.type()), Src.NONE); }
  static Stmt store(Var array, Expr index, Expr value) { return new Stmt.Store(read(array), index, value, Src.NONE); }
  static Stmt eval(Expr call) { return new Stmt.Eval(call, Src.NONE); }
  static Stmt.Block block(Stmt... s) { return new Stmt.Block(List.of(s)); }
  static Stmt when(Expr cond, Stmt.Block then) { return new Stmt.If(cond, then, Stmt.Block.EMPTY, Src.NONE); }
  static Stmt when(Expr cond, Stmt.Block then, Stmt.Block otherwise) { return new Stmt.If(cond, then, otherwise, Src.NONE); }
  static Stmt loop(Label l, Stmt.Block body, Stmt.Block update) { return new Stmt.Loop(l, body, update, Src.NONE); }
  static Stmt brk(Label l) { return new Stmt.Break(l, Src.NONE); }
  static Stmt cont(Label l) { return new Stmt.Continue(l, Src.NONE); }
  static Stmt labeled(Label l, Stmt.Block body) { return new Stmt.Labeled(l, body, Src.NONE); }
  static Stmt ret() { return new Stmt.Return(null, Src.NONE); }
  static Stmt.Case on(Stmt.Block body, Integer... values) { return new Stmt.Case(List.of(values), body); }
  static Stmt sw(Label l, Expr selector, Stmt.Case... cases) { return new Stmt.Switch(l, selector, List.of(cases), Src.NONE); }

  /** {@code for (v = from; v < to; v++) body} as a Loop with a Break guard and an update. */
  static Stmt forRange(Label l, Var v, Expr from, Expr to, Stmt... body) {
    List<Stmt> b = new ArrayList<>();
    b.add(when(cmp(Op.Compare.GE, read(v), to), block(brk(l))));
    b.addAll(List.of(body));
    return block(set(v, from), loop(l, new Stmt.Block(b), block(set(v, bin(Op.Binary.ADD, read(v), c(1))))));
  }

  /** A lowered kernel whose device arguments are {@code args} (array arguments first-class, scalars by value). */
  static KernelIR kernel(String name, List<KernelArg> args, Stmt... body) {
    List<KernelIR.Param> params = new ArrayList<>();
    for (KernelArg a : args) {
      switch (a) {
        case KernelArg.Array x -> params.add(new KernelIR.Param(x.param(), x.var(), KernelIR.Param.Kind.ARRAY));
        case KernelArg.Scalar x -> params.add(new KernelIR.Param(x.param(), x.var(), KernelIR.Param.Kind.SCALAR));
        case KernelArg.Length x -> {}
        case KernelArg.Count x -> {}
        case KernelArg.Local x -> {}
        case KernelArg.Computed x -> {}
      }
    }
    return new KernelIR(name, new Src("test.Kernels", name, 1, null), params, new Stmt.Block(List.of(body)), new Launch.Explicit(), args);
  }

  /** Arguments numbered in order: arrays and scalars become Array and Scalar args of parameter i. */
  static List<KernelArg> args(Var... vars) {
    List<KernelArg> out = new ArrayList<>();
    for (int i = 0; i < vars.length; i++)
      out.add(vars[i].type() instanceof ArrayType ? new KernelArg.Array(i, vars[i]) : new KernelArg.Scalar(i, vars[i]));
    return out;
  }
}
