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
 * {@code Convert} to HALF); Float4 arithmetic is per element in float. Identity is kept where it
 * matters: a setter assigns a local variable's fields, refused where another variable may refer to
 * the same object ({@link ValueLocals}).
 */
final class ValueObjects {
  private ValueObjects() {}

  static final String HALF_FLOAT = "dev/loopjit/types/HalfFloat";
  static final String HALF_ARRAY = "dev/loopjit/types/HalfFloatArray";

  /** Whether {@code c} is HalfFloat (compared by internal name: the compiler knows the types by name only). */
  static boolean isHalf(java.lang.constant.ClassDesc c) {
    String d = c.descriptorString();
    return c.isClassOrInterface() && d.substring(1, d.length() - 1).equals(HALF_FLOAT);
  }

  /** A value class: its internal name, number of fields and their type. */
  enum Kind {
    HALF(HALF_FLOAT, 1, "HalfFloat", Prim.FLOAT),
    FLOAT2("Float2", 2, Prim.FLOAT), FLOAT3("Float3", 3, Prim.FLOAT), FLOAT4("Float4", 4, Prim.FLOAT), FLOAT8("Float8", 8, Prim.FLOAT),
    FLOAT16("Float16", 16, Prim.FLOAT),
    INT2("Int2", 2, Prim.INT), INT3("Int3", 3, Prim.INT), INT4("Int4", 4, Prim.INT), INT8("Int8", 8, Prim.INT), INT16("Int16", 16, Prim.INT),
    DOUBLE2("Double2", 2, Prim.DOUBLE), DOUBLE3("Double3", 3, Prim.DOUBLE), DOUBLE4("Double4", 4, Prim.DOUBLE), DOUBLE8("Double8", 8, Prim.DOUBLE),
    DOUBLE16("Double16", 16, Prim.DOUBLE),
    /** Bytes and shorts: each field an int in the type's range, every result narrowed as {@code (byte) (a + b)} narrows it. */
    BYTE3("Byte3", 3, Prim.BYTE), BYTE4("Byte4", 4, Prim.BYTE), SHORT2("Short2", 2, Prim.SHORT), SHORT3("Short3", 3, Prim.SHORT);

    final String owner;
    final int fields;
    final String simpleName;
    /** The fields' type (a HalfFloat's one field is its float value). */
    final Prim element;

    Kind(String owner, int fields, String simpleName, Prim element) {
      this.owner = owner;
      this.fields = fields;
      this.simpleName = simpleName;
      this.element = element;
    }

    /** A vector type of {@code dev.loopjit.types}: {@code Float4}, {@code Int8}, {@code Double16}, … */
    Kind(String simpleName, int fields, Prim element) {
      this("dev/loopjit/types/" + simpleName, fields, simpleName, element);
    }

    /** A name for field {@code i} of a variable: x, y, z, w up to four fields, else s0, s1, … */
    String fieldName(int i) {
      return fields <= 4 ? String.valueOf("xyzw".charAt(i)) : "s" + i;
    }

    /** The vector of {@code element}s of width {@code n}, or null. */
    static Kind vector(Prim element, int n) {
      for (Kind k : values()) if (k != HALF && k.element == element && k.fields == n) return k;
      return null;
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
      default -> {
        java.lang.constant.MethodTypeDesc type = java.lang.constant.MethodTypeDesc.ofDescriptor(desc);
        if (type.parameterCount() == 0) {
          List<Expr> zeros = new ArrayList<>();
          for (int i = 0; i < u.kind.fields; i++) zeros.add(zero(u.kind.element));
          yield new Value(u.kind, zeros);
        }
        if (type.parameterCount() != u.kind.fields) throw Refusal.unsupported(ops.src, "the " + u.kind.simpleName + " constructor " + desc);
        List<Expr> f = new ArrayList<>();
        for (Object r : raw) f.add((Expr) r);
        yield new Value(u.kind, f);
      }
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
    int n = k.fields;
    Prim e = k.element.stackType();
    boolean floating = e == Prim.FLOAT || e == Prim.DOUBLE;
    if ((k.element == Prim.BYTE || k.element == Prim.SHORT) && !java.util.Set.of("add", "sub", "mult", "div", "inc", "dec", "scale", "min", "max", "clamp").contains(name))
      throw Refusal.error(ops.src, display, display + " is not supported in a kernel (kernels may use " + k.simpleName
          + "'s constructors, getters, get(k), add, sub, mult, div, inc, dec, scale, min, max and clamp)");
    switch (name) {
      case "add", "sub", "mult", "div", "inc", "dec", "scale", "scaleByInverse" -> {
        Op.Binary op = switch (name) {
          case "add", "inc" -> Op.Binary.ADD;
          case "sub", "dec" -> Op.Binary.SUB;
          case "mult", "scale", "scaleByInverse" -> Op.Binary.MUL;
          default -> Op.Binary.DIV;
        };
        Value a = value(ops, raw[0], k, display);
        boolean scalar = java.lang.constant.MethodTypeDesc.ofDescriptor(desc).parameterType(1).isPrimitive();
        if (name.equals("scaleByInverse") && !floating) throw Refusal.unsupported(ops.src, display);
        // scaleByInverse(a, b) is mult(a, 1 / b): the reciprocal once, as Java computes it
        Expr s = !scalar ? null : name.equals("scaleByInverse") ? ops.once(new Binary(Op.Binary.DIV, one(e), (Expr) raw[1])) : ops.once((Expr) raw[1]);
        IntFunction<Expr> b = scalar ? i -> s : operand(ops, raw[1], k, display);
        List<Expr> f = new ArrayList<>();
        for (int i = 0; i < n; i++) f.add(narrow(k, new Binary(op, a.fields().get(i), b.apply(i))));
        ops.push(new Value(k, f));
      }
      case "min", "max" -> {
        Intrinsic op = name.equals("min") ? Intrinsic.MIN : Intrinsic.MAX;
        Value a = value(ops, raw[0], k, display);
        if (raw.length == 1) {   // min(v) / max(v): Math.min(s0, Math.min(s1, …))
          List<Expr> f = a.fields();
          Expr r = f.get(n - 1);
          for (int i = n - 2; i >= 0; i--) r = call(op, e, f.get(i), r);
          ops.push(narrow(k, r));
        } else {
          Value b = value(ops, raw[1], k, display);
          List<Expr> f = new ArrayList<>();
          for (int i = 0; i < n; i++) f.add(narrow(k, call(op, e, a.fields().get(i), b.fields().get(i))));
          ops.push(new Value(k, f));
        }
      }
      case "clamp" -> {
        Value a = value(ops, raw[0], k, display);
        Expr lo = ops.once((Expr) raw[1]), hi = ops.once((Expr) raw[2]);
        List<Expr> f = new ArrayList<>();
        for (int i = 0; i < n; i++) f.add(narrow(k, call(Intrinsic.MIN, e, call(Intrinsic.MAX, e, a.fields().get(i), lo), hi)));
        ops.push(new Value(k, f));
      }
      case "sum" -> ops.push(sum(value(ops, raw[0], k, display).fields()));
      case "dot" -> ops.push(dot(value(ops, raw[0], k, display), value(ops, raw[1], k, display)));
      case "cross" -> {
        if (n != 3) throw Refusal.unsupported(ops.src, display);
        List<Expr> a = value(ops, raw[0], k, display).fields(), b = value(ops, raw[1], k, display).fields();
        ops.push(new Value(k, List.of(crossTerm(a, b, 1, 2), crossTerm(a, b, 2, 0), crossTerm(a, b, 0, 1))));
      }
      case "sqrt", "floor", "fract" -> {
        if (!floating) throw Refusal.unsupported(ops.src, display);
        Value a = value(ops, raw[0], k, display);
        List<Expr> f = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          Expr x = a.fields().get(i);
          f.add(switch (name) {
            case "sqrt" -> math(Intrinsic.SQRT, e, x);
            case "floor" -> math(Intrinsic.FLOOR, e, x);
            default -> new Binary(Op.Binary.SUB, x, math(Intrinsic.FLOOR, e, x));
          });
        }
        ops.push(new Value(k, f));
      }
      case "length", "normalise" -> {
        if (!floating) throw Refusal.unsupported(ops.src, display);
        Value a = value(ops, raw[0], k, display);
        Expr length = math(Intrinsic.SQRT, e, dot(a, a));
        if (name.equals("length")) ops.push(length);
        else {
          Expr r = ops.once(new Binary(Op.Binary.DIV, one(e), length));
          List<Expr> f = new ArrayList<>();
          for (int i = 0; i < n; i++) f.add(new Binary(Op.Binary.MUL, a.fields().get(i), r));
          ops.push(new Value(k, f));
        }
      }
      default -> throw Refusal.error(ops.src, display, display + " is not supported in a kernel (kernels may use " + k.simpleName
          + "'s constructors, getters, get(k), add, sub, mult, div, inc, dec, scale, min, max, clamp, sum, dot"
          + (n == 3 ? ", cross" : "") + (floating ? ", scaleByInverse, sqrt, floor, fract, length and normalise)" : ")"));
    }
    return true;
  }

  /**
   * The second vector of an element-wise operation: of {@code k} itself, or of ints beside floats or
   * doubles ({@code Float4.mult(Float4, Int4)}), each element converted as Java promotes it.
   */
  private static IntFunction<Expr> operand(OperandStack ops, Object raw, Kind k, String display) {
    if (raw instanceof Value v && v.kind() != k && v.kind() != Kind.HALF && v.kind().fields == k.fields && v.kind().element == Prim.INT
        && k.element != Prim.INT)
      return i -> new Convert(k.element, v.fields().get(i));
    return field(value(ops, raw, k, display));
  }

  /** {@code a[i] * b[j] - a[j] * b[i]}: one element of a cross product. */
  private static Expr crossTerm(List<Expr> a, List<Expr> b, int i, int j) {
    return new Binary(Op.Binary.SUB, new Binary(Op.Binary.MUL, a.get(i), b.get(j)), new Binary(Op.Binary.MUL, a.get(j), b.get(i)));
  }

  /** {@code sum(mult(a, b))}, as the types compute it. */
  private static Expr dot(Value a, Value b) {
    List<Expr> products = new ArrayList<>();
    for (int i = 0; i < a.fields().size(); i++) products.add(new Binary(Op.Binary.MUL, a.fields().get(i), b.fields().get(i)));
    return sum(products);
  }

  /** {@code Math.sqrt(x)} or {@code Math.floor(x)} of a double, or the same of a float computed in double and rounded, as {@code (float) Math.sqrt(x)}. */
  private static Expr math(Intrinsic op, Prim e, Expr x) {
    if (e == Prim.DOUBLE) return new Call(op, Prim.DOUBLE, List.of(x));
    return new Convert(Prim.FLOAT, new Call(op, Prim.DOUBLE, List.of(new Convert(Prim.DOUBLE, x))));
  }

  static Expr zero(Prim e) {
    return e.stackType() == Prim.INT ? Const.of(0) : e == Prim.DOUBLE ? Const.of(0d) : Const.of(0f);
  }

  private static Expr one(Prim e) {
    return e.stackType() == Prim.INT ? Const.of(1) : e == Prim.DOUBLE ? Const.of(1d) : Const.of(1f);
  }

  /** A result of {@code k}'s arithmetic as Java stores it: narrowed to a byte or short for {@code Byte3}, {@code Short2}, …, else as is. */
  private static Expr narrow(Kind k, Expr x) {
    return k.element == Prim.BYTE || k.element == Prim.SHORT ? new Convert(k.element, x) : x;
  }

  /** A method called on a value; returns false when {@code receiver} is not a value. */
  static boolean invokeVirtual(OperandStack ops, ValueLocals locals, Object receiver, String name, Object[] raw) {
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
      default -> {
        int n = v.kind().fields;
        int xyzw = name.length() == 4 && name.startsWith("get") && n <= 4 ? "XYZW".indexOf(name.charAt(3)) : -1;
        int sk = name.matches("getS\\d{1,2}") ? Integer.parseInt(name.substring(4)) : -1;
        if (xyzw >= 0 && xyzw < n) ops.push(v.fields().get(xyzw));
        else if (sk >= 0 && sk < n) ops.push(v.fields().get(sk));
        else switch (name) {
          case "get" -> {
            if (!(raw[0] instanceof Const c) || c.longValue() < 0 || c.longValue() >= n)
              throw Refusal.error(ops.src, display, v.kind().simpleName + ".get(k) needs a constant k from 0 to " + (n - 1) + " in a kernel (use the getters)");
            ops.push(v.fields().get((int) c.longValue()));
          }
          case "size" -> ops.push(Const.of(n));
          // a new vector of the first elements (asFloat3 of a Float4) or of either half (getLow, getHigh)
          case "asFloat2", "asFloat3", "asInt2", "asInt3", "asDouble2", "asDouble3", "getLow", "getHigh" -> {
            int k = name.startsWith("as") ? name.charAt(name.length() - 1) - '0' : n / 2, from = name.equals("getHigh") ? n / 2 : 0;
            Kind part = Kind.vector(v.kind().element, k);
            if (part == null || k >= n || name.startsWith("get") && n % 2 != 0) throw Refusal.unsupported(ops.src, display);
            List<Expr> copy = new ArrayList<>();   // a new object, as duplicate(): its fields copied now
            for (Expr f : v.fields().subList(from, from + k)) {
              Var t = ops.temp(part.element.stackType());
              ops.out.add(new Stmt.Assign(t, f, ops.src));
              copy.add(new Read(t));
            }
            ops.push(new Value(part, copy));
          }
          case "duplicate" -> {   // a new object: its fields copied now, so that a setter on either changes only it
            List<Expr> copy = new ArrayList<>();
            for (Expr f : v.fields()) {
              Var t = ops.temp(v.kind().element.stackType());
              ops.out.add(new Stmt.Assign(t, f, ops.src));
              copy.add(new Read(t));
            }
            ops.push(new Value(v.kind(), copy));
          }
          default -> {
            if (name.startsWith("set")) set(ops, locals, v, name, raw);
            else throw Refusal.unsupported(ops.src, display);
          }
        }
      }
    }
    return true;
  }

  /**
   * A setter ({@code setX(e)}, {@code setS3(e)}, {@code set(k, e)} with a constant {@code k},
   * {@code set(other)}) on a local variable's vector: assigns its fields, in place
   * as Java changes the object. {@link ValueLocals} refuses it, once the method is translated, where
   * another variable may refer to the same object.
   */
  private static void set(OperandStack ops, ValueLocals locals, Value v, String name, Object[] raw) {
    String display = v.kind().simpleName + "." + name;
    int n = v.kind().fields;
    int sk = name.matches("setS\\d{1,2}") ? Integer.parseInt(name.substring(4)) : -1;
    List<Expr> values = new ArrayList<>(v.fields());
    int xyzw = name.length() == 4 && name.startsWith("set") && n <= 4 ? "XYZW".indexOf(name.charAt(3)) : -1;
    if (xyzw >= 0 && xyzw < n) values.set(xyzw, (Expr) raw[0]);
    else if (sk >= 0 && sk < n) values.set(sk, (Expr) raw[0]);
    else if (name.equals("set") && raw.length == 2) {
      if (!(raw[0] instanceof Const c) || c.longValue() < 0 || c.longValue() >= n)
        throw Refusal.error(ops.src, display, v.kind().simpleName + ".set(k, v) needs a constant k from 0 to " + (n - 1) + " in a kernel (use the setters)");
      values.set((int) c.longValue(), (Expr) raw[1]);
    } else if (name.equals("set") && raw.length == 1) values = value(ops, raw[0], v.kind(), display).fields();
    else throw Refusal.unsupported(ops.src, display);
    List<Var> target = locals.setterTarget(v, ops.src, display);
    if (target == null)
      throw Refusal.error(ops.src, display, "a " + v.kind().simpleName + " is changed in place only in a local variable of this method: this one is "
          + "a helper's parameter or a value not stored in a variable; copy it into a local (Float4 t = new Float4(…)) and change that");
    store(ops, new Value(v.kind(), values), target);
  }

  /** {@code raw} as a value of {@code kind}, or a refusal. */
  static Value value(OperandStack ops, Object raw, Kind kind, String where) {
    if (raw instanceof Value v && v.kind() == kind) return v;
    throw Refusal.unsupported(ops.src, "passing " + OperandStack.describe(raw) + " to " + where);
  }

  private static IntFunction<Expr> field(Value v) {
    return i -> v.fields().get(i);
  }

  private static Expr call(Intrinsic op, Prim type, Expr a, Expr b) {
    return new Call(op, type, List.of(a, b));
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
        Var t = ops.temp(v.kind().element.stackType());
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

  /** {@code VectorFloat4.get(i)} and its kin: {@code kind.fields} loads from {@code n·i}, the index computed once. */
  static Value loadVector(OperandStack ops, Kind kind, Expr array, Expr index) {
    Expr base = ops.once(new Binary(Op.Binary.MUL, index, Const.of(kind.fields)));
    List<Expr> f = new ArrayList<>();
    for (int i = 0; i < kind.fields; i++) f.add(ops.once(new Load(array, i == 0 ? base : new Binary(Op.Binary.ADD, base, Const.of(i)))));
    return new Value(kind, f);
  }

  /** {@code VectorFloat4.set(i, v)} and its kin: {@code kind.fields} stores at {@code n·i}. */
  static void storeVector(OperandStack ops, Kind kind, Expr array, Expr index, Object v, String where) {
    Value f = value(ops, v, kind, where);
    ops.spillLoads();
    Expr base = ops.once(new Binary(Op.Binary.MUL, index, Const.of(kind.fields)));
    for (int i = 0; i < kind.fields; i++)
      ops.out.add(new Stmt.Store(array, i == 0 ? base : new Binary(Op.Binary.ADD, base, Const.of(i)), f.fields().get(i), ops.src));
  }

  /** Whether {@code t} is the IR type of a HalfFloat array (a {@code HalfFloat[]} local array, a HalfFloatArray). */
  static boolean isHalfArray(Object o) {
    return o instanceof Expr e && e.type() instanceof ArrayType t && t.element() == Prim.HALF;
  }
}
