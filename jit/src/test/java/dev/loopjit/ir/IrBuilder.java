// Terse factories for writing lowered KernelIR by hand in tests (emitter tests have no front end to parse Java).
package dev.loopjit.ir;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Stmt.*;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Static factories; {@code import static dev.loopjit.ir.IrBuilder.*}. */
public final class IrBuilder {
  private IrBuilder() {}

  public static final Src SRC = new Src("dev.loopjit.Samples", "kernel", 7, null);

  // ---- variables and kernels -----------------------------------------------------------------

  public static Var var(String name, Type t) {
    return new Var(name, t);
  }

  public static Var global(String name, Prim element) {
    return new Var(name, ArrayType.global(element));
  }

  public static Var local(String name, Prim element, int length) {
    return new Var(name, new ArrayType(element, ArrayType.Space.LOCAL, length));
  }

  public static Var priv(String name, Prim element, int length) {
    return new Var(name, new ArrayType(element, ArrayType.Space.PRIVATE, length));
  }

  /**
   * A lowered kernel: arguments from {@code vars} (arrays become {@link KernelArg.Array}, primitives
   * {@link KernelArg.Scalar}, in order), launched over a grid of {@code count} (null: one work-item).
   */
  public static KernelIR kernel(String name, List<Var> vars, Var count, Stmt... body) {
    List<KernelArg> args = new ArrayList<>();
    List<KernelIR.Param> params = new ArrayList<>();
    for (int i = 0; i < vars.size(); i++) {
      Var v = vars.get(i);
      boolean array = v.type() instanceof ArrayType;
      args.add(array ? new KernelArg.Array(i, v) : new KernelArg.Scalar(i, v));
      params.add(new KernelIR.Param(i, v, array ? KernelIR.Param.Kind.ARRAY : KernelIR.Param.Kind.SCALAR));
    }
    Launch launch = count == null ? new Launch.Single() : new Launch.Loops(List.of(read(count)));
    return new KernelIR(name, new Src("dev.loopjit.Samples", name, 7, null), params, block(body), launch, args);
  }

  /** {@code k} with its argument list replaced. */
  public static KernelIR withArgs(KernelIR k, KernelArg... args) {
    return k.withArgs(List.of(args), k.body());
  }

  // ---- expressions ---------------------------------------------------------------------------

  public static Read read(Var v) { return new Read(v); }
  public static Const c(int v) { return Const.of(v); }
  public static Const c(long v) { return Const.of(v); }
  public static Const c(float v) { return Const.of(v); }
  public static Const c(double v) { return Const.of(v); }
  public static Const c(boolean v) { return Const.of(v); }

  public static Expr add(Expr a, Expr b) { return new Binary(Op.Binary.ADD, a, b); }
  public static Expr sub(Expr a, Expr b) { return new Binary(Op.Binary.SUB, a, b); }
  public static Expr mul(Expr a, Expr b) { return new Binary(Op.Binary.MUL, a, b); }
  public static Expr div(Expr a, Expr b) { return new Binary(Op.Binary.DIV, a, b); }
  public static Expr rem(Expr a, Expr b) { return new Binary(Op.Binary.REM, a, b); }
  public static Expr and(Expr a, Expr b) { return new Binary(Op.Binary.AND, a, b); }
  public static Expr or(Expr a, Expr b) { return new Binary(Op.Binary.OR, a, b); }
  public static Expr xor(Expr a, Expr b) { return new Binary(Op.Binary.XOR, a, b); }
  public static Expr shl(Expr a, Expr b) { return new Binary(Op.Binary.SHL, a, b); }
  public static Expr shr(Expr a, Expr b) { return new Binary(Op.Binary.SHR, a, b); }
  public static Expr ushr(Expr a, Expr b) { return new Binary(Op.Binary.USHR, a, b); }
  public static Expr neg(Expr x) { return new Unary(Op.Unary.NEG, x); }
  public static Expr not(Expr x) { return new Unary(Op.Unary.NOT, x); }

  public static Expr eq(Expr a, Expr b) { return new Compare(Op.Compare.EQ, a, b); }
  public static Expr ne(Expr a, Expr b) { return new Compare(Op.Compare.NE, a, b); }
  public static Expr lt(Expr a, Expr b) { return new Compare(Op.Compare.LT, a, b); }
  public static Expr le(Expr a, Expr b) { return new Compare(Op.Compare.LE, a, b); }
  public static Expr gt(Expr a, Expr b) { return new Compare(Op.Compare.GT, a, b); }
  public static Expr ge(Expr a, Expr b) { return new Compare(Op.Compare.GE, a, b); }
  public static Expr andAnd(Expr a, Expr b) { return new Logic(Op.Logic.AND, a, b); }
  public static Expr orOr(Expr a, Expr b) { return new Logic(Op.Logic.OR, a, b); }

  public static Expr conv(Prim to, Expr x) { return new Convert(to, x); }
  public static Expr select(Expr cond, Expr a, Expr b) { return new Select(cond, a, b); }
  public static Expr load(Var array, Expr index) { return new Load(read(array), index); }
  public static Expr length(Var array) { return new Length(read(array)); }

  public static Call call(Intrinsic op, Prim type, Expr... args) { return new Call(op, type, Arrays.asList(args)); }
  public static Call gid(int dim) { return call(Intrinsic.GLOBAL_ID, Prim.INT, c(dim)); }

  // ---- statements ----------------------------------------------------------------------------

  public static Block block(Stmt... s) { return new Block(List.of(s), SRC); }
  public static Assign set(Var v, Expr value) { return new Assign(v, value, SRC); }
  public static Assign alloc(Var v) { return new Assign(v, new Alloc((ArrayType) v.type()), SRC); }
  public static Store store(Var array, Expr index, Expr value) { return new Store(read(array), index, value, SRC); }
  public static Eval eval(Call call) { return new Eval(call, SRC); }
  public static If when(Expr cond, Stmt... then) { return new If(cond, block(then), Block.EMPTY, SRC); }
  public static If ifElse(Expr cond, Block then, Block otherwise) { return new If(cond, then, otherwise, SRC); }
  public static Loop loop(Label l, Block body, Block update) { return new Loop(l, body, update, SRC); }
  public static Labeled labeled(Label l, Stmt... body) { return new Labeled(l, block(body), SRC); }
  public static Break brk(Label l) { return new Break(l, SRC); }
  public static Continue cont(Label l) { return new Continue(l, SRC); }
  public static Return ret() { return new Return(null, SRC); }
  public static Label label(String name) { return new Label(name); }

  public static Switch switchOf(Label l, Expr selector, Case... cases) { return new Switch(l, selector, List.of(cases), SRC); }
  public static Case caseOf(List<Integer> values, Stmt... body) { return new Case(values, block(body)); }

  /** {@code for (v = from; v < to; v++) body} as the structurer produces it: a Loop whose body starts with the exit test. */
  public static Stmt forRange(Label l, Var v, Expr from, Expr to, Stmt... body) {
    List<Stmt> b = new ArrayList<>();
    b.add(when(ge(read(v), to), brk(l)));
    b.addAll(List.of(body));
    return block(set(v, from), loop(l, new Block(b, SRC), block(set(v, add(read(v), c(1))))));
  }

  /** {@code i = globalId(0); if (i < n) body} over the kernel's Count argument {@code n}. */
  public static Stmt[] perItem(Var i, Var n, Stmt... body) {
    return new Stmt[] {set(i, gid(0)), new If(lt(read(i), read(n)), block(body), Block.EMPTY, SRC)};
  }
}
