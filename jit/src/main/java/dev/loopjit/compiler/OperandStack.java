// The operand stack of one block, run symbolically: values are expressions; effects become statements.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.lang.classfile.Opcode;
import java.util.ArrayList;
import java.util.List;

/**
 * What the JVM's operand stack holds while a block runs, as IR: expressions (evaluated where they
 * are used), a pending three-way compare, or a reference (an array expression, the KernelContext).
 * Pending values are spilled into temporaries before anything could change what they read.
 * Statements the block makes go to {@link #out}, each at the current {@link #src}.
 */
final class OperandStack {
  /** The KernelContext on the stack or in a local. */
  enum ContextRef { INSTANCE }

  /** The object of an instance-method kernel ({@code this}): only its fields are read and its methods inlined. */
  enum ReceiverRef { INSTANCE }

  /** A pending three-way compare (lcmp, fcmpl, fcmpg, dcmpl, dcmpg): consumed by the following if. */
  record Cmp3(Expr a, Expr b, int nanResult) {}

  final List<Object> values;
  final List<Stmt> out = new ArrayList<>();
  Src src;
  private final Names names;
  private final String prefix;

  OperandStack(List<Object> entry, Names names, String prefix) {
    this.values = new ArrayList<>(entry);
    this.names = names;
    this.prefix = prefix;
  }

  Var temp(Prim type) {
    return names.temp(prefix + "t", type);
  }

  void push(Object v) {
    values.add(v);
  }

  /** The value {@code depth} below the top (0: the top), without popping it; null when the stack is not that deep. */
  Object below(int depth) {
    return values.size() > depth ? values.get(values.size() - 1 - depth) : null;
  }

  Object peek() {
    return below(0);
  }

  Object popAny() {
    if (values.isEmpty()) throw new IllegalStateException("operand stack underflow at " + src);
    return values.remove(values.size() - 1);
  }

  Expr pop() {
    Object v = materialize(popAny());
    if (v instanceof Expr e) return e;
    throw Refusal.unsupported(src, "using " + describe(v) + " as a primitive value");
  }

  /** What a stack value is, in Java words, for messages. */
  static String describe(Object v) {
    return switch (v) {
      case Expr e -> "a" + (e.type() instanceof ArrayType ? "n array" : (e.type() == Prim.INT ? "n " : " ") + e.type());
      case ValueObjects.Value x -> "a " + x.kind().simpleName;
      case ValueObjects.Uninit x -> "a new " + x.kind.simpleName;
      case OffHeapCollections.NewVector x -> "a new " + x.simpleName;
      case Printing.Text x -> "a String";
      case Printing.Boxes x -> "an Object[]";
      case Printing.Boxed x -> "a boxed " + x.type().javaName();
      case ContextRef x -> "the KernelContext";
      case ReceiverRef x -> "the kernel's object (this)";
      case ArrayChoices.Choice x -> "an array variable that may refer to one of several arrays";
      case null -> "null";
      default -> "an object";
    };
  }

  /** {@code e} computed once into a temporary (unless it is a variable or constant already). */
  Expr once(Expr e) {
    return (Expr) single(e);
  }

  /** {@code call} (an Invoke, say) assigned to a fresh temporary of {@code type}'s stack type, at statement level; its value. */
  Expr result(Expr call, Prim type) {
    Var t = temp(type.stackType());
    out.add(new Stmt.Assign(t, call, src));
    return new Read(t);
  }

  Object materialize(Object v) {
    if (v instanceof Cmp3 c) {
      Expr lt = new Compare(Op.Compare.LT, c.a(), c.b()), gt = new Compare(Op.Compare.GT, c.a(), c.b());
      Expr eq = new Compare(Op.Compare.EQ, c.a(), c.b());
      return new Select(lt, Const.of(-1), new Select(gt, Const.of(1), new Select(eq, Const.of(0), Const.of(c.nanResult()))));
    }
    return v;
  }

  Expr popArray() {
    Object v = popAny();
    if (v instanceof Expr e && e.type() instanceof ArrayType) return e;
    throw Refusal.unsupported(src, "an object that is not an array here");
  }

  static int category(Object v) {
    return v instanceof Expr e && e.type() instanceof Prim p && p.isWide() ? 2 : 1;
  }

  /** Spills pending stack values that read {@code v}, before {@code v} changes. */
  void spillReads(Var v) {
    spill(e -> Effects.reads(e, v));
  }

  /** Spills pending stack values that read memory, before memory may change. */
  void spillLoads() {
    spill(Effects::readsMemory);
  }

  void spill(java.util.function.Predicate<Expr> affected) {
    for (int k = 0; k < values.size(); k++) {
      if (values.get(k) instanceof Cmp3) values.set(k, materialize(values.get(k)));
      if (values.get(k) instanceof Expr e && e.type() instanceof Prim p && affected.test(e)) {
        Var t = temp(p);
        out.add(new Stmt.Assign(t, e, src));
        values.set(k, new Read(t));
      }
      if (values.get(k) instanceof ValueObjects.Value v && v.fields().stream().anyMatch(affected)) {
        java.util.List<Expr> fields = new java.util.ArrayList<>();
        for (Expr f : v.fields()) {
          Var t = temp(f.prim());
          out.add(new Stmt.Assign(t, f, src));
          fields.add(new Read(t));
        }
        values.set(k, new ValueObjects.Value(v.kind(), fields));
      }
    }
  }

  /** Puts a computed value on the stack; one with an effect becomes a statement first. */
  void pushResult(Expr call, Prim type) {
    if (type == null) {
      out.add(new Stmt.Eval(call, src));
      return;
    }
    Var t = temp(type.stackType());
    out.add(new Stmt.Assign(t, call, src));
    push(new Read(t));
  }

  void stackOp(Opcode op) {
    switch (op) {
      case POP -> popAny();
      case POP2 -> {
        if (category(popAny()) == 1) popAny();
      }
      case SWAP -> {
        Object a = popAny(), b = popAny();
        push(a);
        push(b);
      }
      case DUP -> {
        Object a = single(popAny());
        push(a);
        push(a);
      }
      case DUP_X1 -> {
        Object a = single(popAny()), b = popAny();
        push(a); push(b); push(a);
      }
      case DUP_X2 -> {
        Object a = single(popAny()), b = popAny();
        if (category(b) == 2) { push(a); push(b); push(a); }
        else { Object c = popAny(); push(a); push(c); push(b); push(a); }
      }
      case DUP2 -> {
        Object a = single(popAny());
        if (category(a) == 2) { push(a); push(a); }
        else { Object b = single(popAny()); push(b); push(a); push(b); push(a); }
      }
      case DUP2_X1 -> {
        Object a = single(popAny());
        if (category(a) == 2) { Object b = popAny(); push(a); push(b); push(a); }
        else { Object b = single(popAny()), c = popAny(); push(b); push(a); push(c); push(b); push(a); }
      }
      case DUP2_X2 -> {
        Object a = single(popAny());
        if (category(a) == 2) {
          Object b = popAny();
          if (category(b) == 2) { push(a); push(b); push(a); }
          else { Object c = popAny(); push(a); push(c); push(b); push(a); }
        } else {
          Object b = single(popAny()), c = popAny();
          if (category(c) == 2) { push(b); push(a); push(c); push(b); push(a); }
          else { Object d = popAny(); push(b); push(a); push(d); push(c); push(b); push(a); }
        }
      }
      default -> throw Refusal.unsupported(src, "the bytecode " + op.name().toLowerCase());
    }
  }

  /** A value about to be duplicated: anything but a variable, constant or reference is computed once into a temporary. */
  Object single(Object v) {
    v = materialize(v);
    if (v instanceof Expr e && e.type() instanceof Prim p && !(e instanceof Read) && !(e instanceof Const)) {
      Var t = temp(p);
      out.add(new Stmt.Assign(t, e, src));
      return new Read(t);
    }
    return v;
  }


  int constantSize(Expr count, String what) {
    if (!(count instanceof Const c)) throw Refusal.unsupported(src, what + " with a size that is not a constant");
    int n = (int) c.longValue();
    if (n < 0 || n > 16384) throw Refusal.error(src, what, "array size " + n + " is out of range (0 to 16384) for a kernel array");
    return n;
  }

  /** Tables are copies of static arrays: a write would not reach the real one, so it is refused. */
  void refuseTableWrite(Expr array) {
    if (array instanceof Read r && names.tables.containsValue(r.var()))
      throw Refusal.unsupported(src, "writing the static array " + r.var().name());
  }
}
