// Parse: HalfFloat and Float4 inside kernels are values (registers), not objects: construction, methods, locals, arrays of them.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The value classes a kernel may use, known by name as the off-heap arrays are: {@code HalfFloat}
 * (one float holding a value exactly representable in half precision) and {@code Float4} (four
 * floats). On the operand stack and in locals such an object is a {@link Value}: its fields'
 * expressions. {@code new} pushes an {@link Uninit} marker that the constructor call replaces.
 * Java's meaning is kept exactly: HalfFloat arithmetic computes in float and rounds to half (a
 * {@code Convert} to HALF); Float4 arithmetic is per element in float. Identity is not: the
 * setters of Float4 are refused (a write through one reference would not reach another).
 */
final class ValueObjects {
  private ValueObjects() {}

  static final String HALF_FLOAT = "dev/loopjit/types/HalfFloat", FLOAT4 = "dev/loopjit/types/Float4";
  static final String HALF_ARRAY = "dev/loopjit/types/HalfFloatArray", VECTOR_FLOAT4 = "dev/loopjit/types/VectorFloat4";

  /** Whether {@code c} is HalfFloat (compared by internal name: the compiler knows the types by name only). */
  static boolean isHalf(java.lang.constant.ClassDesc c) {
    String d = c.descriptorString();
    return c.isClassOrInterface() && d.substring(1, d.length() - 1).equals(HALF_FLOAT);
  }

  /** A value class: its internal name and number of float fields. */
  enum Kind {
    HALF(HALF_FLOAT, 1, "HalfFloat"), FLOAT4(ValueObjects.FLOAT4, 4, "Float4");

    final String owner;
    final int fields;
    final String simpleName;

    Kind(String owner, int fields, String simpleName) {
      this.owner = owner;
      this.fields = fields;
      this.simpleName = simpleName;
    }
  }

  /** A value object: its class and its fields' values (FLOAT expressions). */
  record Value(Kind kind, List<Expr> fields) {
    Value {
      fields = List.copyOf(fields);
    }
  }

  /** What {@code new} pushed, before the constructor ran; replaced (by identity) with the constructed {@link Value}. */
  static final class Uninit {
    final Kind kind;

    Uninit(Kind kind) {
      this.kind = kind;
    }
  }

  /** The value class named {@code internalName}, or null. */
  static Kind kind(String internalName) {
    for (Kind k : Kind.values()) if (k.owner.equals(internalName)) return k;
    return null;
  }

  /** The value class of a Java class, or null. */
  static Kind kind(Class<?> c) {
    return kind(c.getName().replace('.', '/'));
  }

  /** A HalfFloat of {@code f}, rounded to half as {@code new HalfFloat(float)} rounds. */
  static Value half(Expr f) {
    return new Value(Kind.HALF, List.of(new Convert(Prim.HALF, f)));
  }

  /** {@code <init>} of {@code u} with {@code args} (raw stack values): replaces every copy of {@code u} on the stack. */
  static void construct(OperandStack ops, Uninit u, String desc, Object[] raw) {
    Value v = switch (u.kind) {
      case HALF -> switch (desc) {
        case "(F)V" -> half((Expr) raw[0]);
        // new HalfFloat(short bits): Float.float16ToFloat, which inlines from the JDK's own code.
        case "(S)V" -> new Value(Kind.HALF, List.of(ops.result(new Invoke("java/lang/Float", "float16ToFloat", "(S)F", Prim.FLOAT,
            List.of((Expr) raw[0])), Prim.FLOAT)));
        default -> throw Refusal.unsupported(ops.src, "the HalfFloat constructor " + desc);
      };
      case FLOAT4 -> switch (desc) {
        case "()V" -> new Value(Kind.FLOAT4, List.of(Const.of(0f), Const.of(0f), Const.of(0f), Const.of(0f)));
        case "(FFFF)V" -> new Value(Kind.FLOAT4, List.of((Expr) raw[0], (Expr) raw[1], (Expr) raw[2], (Expr) raw[3]));
        default -> throw Refusal.unsupported(ops.src, "the Float4 constructor " + desc);
      };
    };
    // Fields that read memory are computed now, in Java's order, so that later stores cannot change them.
    List<Expr> fields = new ArrayList<>();
    for (Expr f : v.fields()) fields.add(Effects.readsMemory(f) ? ops.once(f) : f);
    Value built = new Value(v.kind(), fields);
    for (int k = 0; k < ops.values.size(); k++) if (ops.values.get(k) == u) ops.values.set(k, built);
  }

  /** A static method of a value class; returns false when {@code owner} is not one. */
  static boolean invokeStatic(OperandStack ops, String owner, String name, String desc, Object[] raw) {
    Kind k = kind(owner);
    if (k == null) return false;
    String display = k.simpleName + "." + name;
    if (k == Kind.HALF) {
      Op.Binary op = switch (name) {
        case "add" -> Op.Binary.ADD;
        case "sub" -> Op.Binary.SUB;
        case "mult" -> Op.Binary.MUL;
        case "div" -> Op.Binary.DIV;
        default -> throw Refusal.unsupported(ops.src, display);
      };
      Value a = value(ops, raw[0], Kind.HALF, display), b = value(ops, raw[1], Kind.HALF, display);
      ops.push(half(new Binary(op, a.fields().get(0), b.fields().get(0))));
      return true;
    }
    switch (name) {
      case "add", "sub", "mult", "div" -> {
        Op.Binary op = switch (name) { case "add" -> Op.Binary.ADD; case "sub" -> Op.Binary.SUB; case "mult" -> Op.Binary.MUL; default -> Op.Binary.DIV; };
        Value a = value(ops, raw[0], Kind.FLOAT4, display);
        IntFunction<Expr> b = java.lang.constant.MethodTypeDesc.ofDescriptor(desc).parameterType(1).descriptorString().equals("F") ? i -> (Expr) raw[1] : field(value(ops, raw[1], Kind.FLOAT4, display));
        List<Expr> f = new ArrayList<>();
        for (int i = 0; i < 4; i++) f.add(new Binary(op, a.fields().get(i), b.apply(i)));
        ops.push(new Value(Kind.FLOAT4, f));
      }
      case "min", "max" -> {
        Intrinsic op = name.equals("min") ? Intrinsic.MIN : Intrinsic.MAX;
        Value a = value(ops, raw[0], Kind.FLOAT4, display);
        if (raw.length == 1) {   // min(Float4) / max(Float4): Math.min(x, Math.min(y, Math.min(z, w)))
          List<Expr> f = a.fields();
          ops.push(call(op, f.get(0), call(op, f.get(1), call(op, f.get(2), f.get(3)))));
        } else {
          Value b = value(ops, raw[1], Kind.FLOAT4, display);
          List<Expr> f = new ArrayList<>();
          for (int i = 0; i < 4; i++) f.add(call(op, a.fields().get(i), b.fields().get(i)));
          ops.push(new Value(Kind.FLOAT4, f));
        }
      }
      case "sum" -> ops.push(sum(value(ops, raw[0], Kind.FLOAT4, display).fields()));
      case "dot" -> {
        Value a = value(ops, raw[0], Kind.FLOAT4, display), b = value(ops, raw[1], Kind.FLOAT4, display);
        List<Expr> products = new ArrayList<>();
        for (int i = 0; i < 4; i++) products.add(new Binary(Op.Binary.MUL, a.fields().get(i), b.fields().get(i)));
        ops.push(sum(products));
      }
      default -> throw Refusal.error(ops.src, display, display + " is not supported in a kernel (kernels may use Float4's constructors, "
          + "getters, get(k), add, sub, mult, div, min, max, sum and dot)");
    }
    return true;
  }

  /** A method called on a value; returns false when {@code receiver} is not a value. */
  static boolean invokeVirtual(OperandStack ops, Object receiver, String name, Object[] raw) {
    if (!(receiver instanceof Value v)) return false;
    String display = v.kind().simpleName + "." + name;
    switch (v.kind()) {
      case HALF -> {
        switch (name) {
          case "getFloat32" -> ops.push(v.fields().get(0));
          // The bits: Float.floatToFloat16 of the (exact) value, from the JDK's own code.
          case "getHalfFloatValue" -> ops.push(ops.result(new Invoke("java/lang/Float", "floatToFloat16", "(F)S", Prim.INT,
              List.of(v.fields().get(0))), Prim.SHORT));
          default -> throw Refusal.unsupported(ops.src, display);
        }
      }
      case FLOAT4 -> {
        switch (name) {
          case "getX" -> ops.push(v.fields().get(0));
          case "getY" -> ops.push(v.fields().get(1));
          case "getZ" -> ops.push(v.fields().get(2));
          case "getW" -> ops.push(v.fields().get(3));
          case "get" -> {
            if (!(raw[0] instanceof Const c) || c.longValue() < 0 || c.longValue() > 3)
              throw Refusal.error(ops.src, display, "Float4.get(k) needs a constant k from 0 to 3 in a kernel (use getX()…getW())");
            ops.push(v.fields().get((int) c.longValue()));
          }
          case "setX", "setY", "setZ", "setW", "set", "fill" -> throw Refusal.error(ops.src, display,
              "a Float4 is a value inside a kernel, so it cannot be changed in place: write v = new Float4(…) instead of " + name + "(…)");
          case "duplicate" -> ops.push(v);
          default -> throw Refusal.unsupported(ops.src, display);
        }
      }
    }
    return true;
  }

  /** {@code raw} as a value of {@code kind}, or a refusal. */
  static Value value(OperandStack ops, Object raw, Kind kind, String where) {
    if (raw instanceof Value v && v.kind() == kind) return v;
    throw Refusal.unsupported(ops.src, "passing " + OperandStack.describe(raw) + " to " + where);
  }

  private static IntFunction<Expr> field(Value v) {
    return i -> v.fields().get(i);
  }

  private static Expr call(Intrinsic op, Expr a, Expr b) {
    return new Call(op, Prim.FLOAT, List.of(a, b));
  }

  /** {@code ((a + b) + c) + d}, as Java adds left to right. */
  private static Expr sum(List<Expr> f) {
    Expr s = f.get(0);
    for (int i = 1; i < f.size(); i++) s = new Binary(Op.Binary.ADD, s, f.get(i));
    return s;
  }

  /**
   * Stores {@code v} into the variables {@code vars} (one per field): through temporaries when a
   * field reads one of them (a swizzle), so that every field sees the old values, as in Java.
   */
  static Value store(OperandStack ops, Value v, List<Var> vars) {
    boolean overlap = false;
    for (Expr f : v.fields()) for (Var x : vars) overlap |= Effects.reads(f, x);
    for (Var x : vars) ops.spillReads(x);
    List<Expr> values = new ArrayList<>(v.fields());
    if (overlap)
      for (int i = 0; i < values.size(); i++) {
        Var t = ops.temp(Prim.FLOAT);
        ops.out.add(new Stmt.Assign(t, values.get(i), ops.src));
        values.set(i, new Read(t));
      }
    List<Expr> reads = new ArrayList<>();
    for (int i = 0; i < vars.size(); i++) {
      ops.out.add(new Stmt.Assign(vars.get(i), values.get(i), ops.src));
      reads.add(new Read(vars.get(i)));
    }
    return new Value(v.kind(), reads);
  }

  /** {@code array[index]} of a HalfFloat array ({@code HalfFloatArray.getHalfFloat}, a {@code HalfFloat[]} local array). */
  static Value loadHalf(Expr array, Expr index) {
    return new Value(Kind.HALF, List.of(new Load(array, index)));
  }

  /** {@code array[index] = v} of a HalfFloat array: the value is a half already, so the store keeps it exactly. */
  static void storeHalf(OperandStack ops, Expr array, Expr index, Object v, String where) {
    Value h = value(ops, v, Kind.HALF, where);
    ops.spillLoads();
    ops.out.add(new Stmt.Store(array, index, h.fields().get(0), ops.src));
  }

  /** {@code VectorFloat4.get(i)}: four loads from {@code 4i}, the index computed once. */
  static Value loadFloat4(OperandStack ops, Expr array, Expr index) {
    Expr base = ops.once(new Binary(Op.Binary.MUL, index, Const.of(4)));
    List<Expr> f = new ArrayList<>();
    for (int i = 0; i < 4; i++) f.add(ops.once(new Load(array, i == 0 ? base : new Binary(Op.Binary.ADD, base, Const.of(i)))));
    return new Value(Kind.FLOAT4, f);
  }

  /** {@code VectorFloat4.set(i, v)}: four stores at {@code 4i}. */
  static void storeFloat4(OperandStack ops, Expr array, Expr index, Object v) {
    Value f = value(ops, v, Kind.FLOAT4, "VectorFloat4.set");
    ops.spillLoads();
    Expr base = ops.once(new Binary(Op.Binary.MUL, index, Const.of(4)));
    for (int i = 0; i < 4; i++)
      ops.out.add(new Stmt.Store(array, i == 0 ? base : new Binary(Op.Binary.ADD, base, Const.of(i)), f.fields().get(i), ops.src));
  }

  /** Whether {@code t} is the IR type of a HalfFloat array (a {@code HalfFloat[]} local array, a HalfFloatArray). */
  static boolean isHalfArray(Object o) {
    return o instanceof Expr e && e.type() instanceof ArrayType t && t.element() == Prim.HALF;
  }
}
