// Parse, calls and fields: static calls (intrinsics or calls to inline), KernelContext, off-heap arrays, static constants.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The member accesses a kernel may make, for the {@link Translator}: {@code invokestatic} of an
 * intrinsic or of a method to inline; the KernelContext's ids, barriers, local arrays and atomics;
 * get, set and getSize of the off-heap arrays; static final constants and tables. Anything else
 * on an object is refused.
 */
final class Members {
  private static final String TYPES = "dev/loopjit/types/";
  private static final String CONTEXT = "dev/loopjit/api/KernelContext";

  private final MethodCode code;
  private final Names names;
  private final String prefix;
  /** The vector values in this method's locals, for their setters. */
  final ValueLocals valueLocals = new ValueLocals();
  /** The stack of the block being translated. */
  OperandStack ops;

  /**
   * The element type of an array class a kernel takes ({@code float[]}, {@code FloatArray}, …), or
   * null. The off-heap arrays are known by name: the compiler reads class files, not the classes.
   */
  static Prim arrayElement(Class<?> c) {
    if (c == java.util.concurrent.atomic.AtomicInteger.class) return Prim.INT;   // one int in the device's memory (AtomicCells)
    if (c.isArray()) return c.getComponentType().isPrimitive() ? Prim.of(c.getComponentType()) : null;
    if (!c.getName().startsWith(TYPES.replace('/', '.'))) return null;
    return switch (c.getSimpleName()) {
      case "FloatArray" -> Prim.FLOAT;
      case "DoubleArray" -> Prim.DOUBLE;
      case "IntArray" -> Prim.INT;
      case "LongArray" -> Prim.LONG;
      case "ShortArray" -> Prim.SHORT;
      case "ByteArray", "Int8Array", "FP8Array" -> Prim.BYTE;
      case "BFloat16Array" -> Prim.SHORT;
      case "HalfFloatArray" -> Prim.HALF;
      case "CharArray" -> Prim.CHAR;
      default -> OffHeapCollections.element(c.getSimpleName());
    };
  }

  Members(MethodCode code, Names names, String prefix) {
    this.code = code;
    this.names = names;
    this.prefix = prefix;
  }

  void invoke(InvokeInstruction inv) {
    String owner = inv.owner().asInternalName(), name = inv.name().stringValue(), desc = inv.type().stringValue();
    // Math.addExact and friends: the same arithmetic from ExactMath, whose throw the devices can report
    if (inv.opcode() == java.lang.classfile.Opcode.INVOKESTATIC && ExactMath.replaces(owner, name, desc)) owner = ExactMath.OWNER;
    var type = inv.typeSymbol();
    int n = type.parameterCount();
    Expr[] args = new Expr[n];
    Object[] raw = new Object[n];
    for (int i = n - 1; i >= 0; i--) {
      raw[i] = ops.materialize(ops.popAny());
      if (raw[i] instanceof Expr e) args[i] = e;
    }
    Prim result = type.returnType().isPrimitive() && !type.returnType().descriptorString().equals("V")
        ? Prim.ofDescriptor(type.returnType().descriptorString().charAt(0)) : null;
    String display = owner.substring(owner.lastIndexOf('/') + 1) + "." + name;
    // A method of the kernel's own object (this.helper(x)): inlined as a static call would be.
    boolean onThis = (inv.opcode() == java.lang.classfile.Opcode.INVOKEVIRTUAL || inv.opcode() == java.lang.classfile.Opcode.INVOKESPECIAL)
        && !name.equals("<init>") && !ops.values.isEmpty() && ops.values.get(ops.values.size() - 1) == OperandStack.ReceiverRef.INSTANCE;
    if (onThis) ops.popAny();
    if (inv.opcode() == java.lang.classfile.Opcode.INVOKESTATIC && (Printing.printf(ops, owner, name, desc, raw)
        || Printing.box(ops, owner, name, desc, raw) || ValueObjects.invokeStatic(ops, owner, name, desc, raw))) return;
    if (inv.opcode() == java.lang.classfile.Opcode.INVOKESPECIAL && name.equals("<init>") && !ops.values.isEmpty()
        && ops.values.get(ops.values.size() - 1) instanceof ValueObjects.Uninit u) {
      ops.popAny();
      ValueObjects.construct(ops, u, desc, raw);
      return;
    }
    if (inv.opcode() == java.lang.classfile.Opcode.INVOKESPECIAL && name.equals("<init>") && !ops.values.isEmpty()
        && ops.values.get(ops.values.size() - 1) instanceof AtomicCells.Made u) {
      ops.popAny();
      AtomicCells.construct(ops, u, desc, args, names);
      return;
    }
    if (inv.opcode() == java.lang.classfile.Opcode.INVOKESPECIAL && name.equals("<init>") && !ops.values.isEmpty()
        && ops.values.get(ops.values.size() - 1) instanceof OffHeapCollections.NewVector u) {
      ops.popAny();
      OffHeapCollections.construct(ops, u, desc, raw, names);
      return;
    }
    // javac's null check before a constant field of an object parameter (never null: the task refuses null)
    if (inv.opcode() == java.lang.classfile.Opcode.INVOKESTATIC && owner.equals("java/util/Objects") && name.equals("requireNonNull")
        && raw.length == 1 && raw[0] instanceof ObjectFields.Ref r && r.path().isEmpty()) {
      ops.push(r);
      return;
    }
    switch (onThis ? java.lang.classfile.Opcode.INVOKESTATIC : inv.opcode()) {
      case INVOKESTATIC -> {
        // The KernelContext is not a value: a method given it is inlined with its context calls
        // meaning the kernel's, so it is left out of the call's arguments (Inline skips it too).
        List<Expr> passed = new ArrayList<>();
        for (Object a : raw) {
          if (a instanceof Expr e) passed.add(e);
          // A HalfFloat or a vector value (Float4, Int3, …) goes to a helper as its fields, a boxed number as its value (Translator declares the parameters so).
          else if (a instanceof ValueObjects.Value v) passed.addAll(v.fields());
          else if (a instanceof Printing.Boxed b && Printing.passesBoxed(b.type())) passed.add(b.value());
          else if (a != OperandStack.ContextRef.INSTANCE) throw Refusal.unsupported(ops.src, "passing " + OperandStack.describe(a) + " to " + display);
        }
        if (CharacterCalls.replaces(owner, name, desc)) {   // Character.isDigit and friends: the JDK's answers, compiled
          CharacterCalls.call(ops, name, args);
          return;
        }
        if (owner.equals(ExactMath.OWNER) && name.equals("overflow")) {   // where Java throws ArithmeticException
          ops.out.add(new Stmt.Eval(new Call(Intrinsic.THROW, null, List.of(args[0])), ops.src));
          return;
        }
        Intrinsics.Mapping m = Intrinsics.lookup(owner, name, desc);
        if (Arrays.stream(raw).anyMatch(a -> a == OperandStack.ContextRef.INSTANCE) && (owner.startsWith("java/") || m != null))
          throw Refusal.unsupported(ops.src, "passing a KernelContext to " + display);
        if (owner.equals("java/lang/Math") && name.equals("clamp")) {
          ops.push(clamp(desc, args));
          return;
        }
        if (m != null) { // a built-in of constants is folded here, before any pass could hand it to a device
          ops.push(Fold.fold(new Call(m.op(), m.result(), List.of(args))));
          return;
        }
        if (ValueObjects.isHalf(type.returnType())) {
          // A helper returning a HalfFloat returns its float value.
          ops.spillLoads();
          ops.push(new ValueObjects.Value(ValueObjects.Kind.HALF, List.of(ops.result(new Invoke(owner, name, desc, Prim.FLOAT, passed), Prim.FLOAT))));
          return;
        }
        ValueObjects.Kind returned = ValueObjects.kind(type.returnType().descriptorString().replaceAll("^L|;$", ""));
        if (returned != null) {
          // A helper returning a vector (Float3, Int4, …): its return assigns these variables (Inline passes them after the arguments).
          ops.spillLoads();
          List<Var> results = new ArrayList<>();
          for (int f = 0; f < returned.fields; f++) results.add(names.fresh(prefix + name + "_" + returned.fieldName(f), returned.element.stackType()));
          // Assigned first, so that no pass sees a variable read before it is written (the call's returns assign them).
          for (Var r : results) ops.out.add(new Stmt.Assign(r, ValueObjects.zero(returned.element), ops.src));
          List<Expr> withResults = new ArrayList<>(passed);
          for (Var r : results) withResults.add(new Read(r));
          ops.out.add(new Stmt.Eval(new Invoke(owner, name, desc, null, withResults), ops.src));
          valueLocals.sharedReference(results);   // the helper may return an object the caller holds (its parameter)
          ops.push(new ValueObjects.Value(returned, results.stream().map(r -> (Expr) new Read(r)).toList()));
          return;
        }
        if (!type.returnType().isPrimitive() && !type.returnType().descriptorString().equals("V"))
          throw Refusal.unsupported(ops.src, "calling " + display + ", which returns an object");
        ops.spillLoads();
        ops.pushResult(new Invoke(owner, name, desc, result == null ? null : result.stackType(), passed), result);
      }
      case INVOKEVIRTUAL, INVOKEINTERFACE -> {
        Object receiver = ops.popAny();
        if (receiver == OperandStack.ContextRef.INSTANCE && owner.equals(CONTEXT)) context(name, desc, args);
        else if (ValueObjects.invokeVirtual(ops, valueLocals, receiver, name, raw) || Printing.unbox(ops, receiver, name, desc)) return;
        else if (receiver instanceof ArrayChoices.Choice c && owner.startsWith(TYPES)
            && OffHeapCollections.element(owner.substring(owner.lastIndexOf('/') + 1)) == null) {
          switch (name) {   // an off-heap array variable that may refer to one of several arrays
            case "get" -> ops.push(ArrayChoices.load(ops, c, args[0]));
            case "set" -> ArrayChoices.store(ops, c, args[0], args[1]);
            case "getSize" -> ops.push(ArrayChoices.length(c));
            default -> throw Refusal.unsupported(ops.src, "the array method " + name + "() on " + OperandStack.describe(c));
          }
        } else if (receiver instanceof Expr e && e.type() instanceof ArrayType && owner.equals(AtomicCells.OWNER)) {
          AtomicCells.invoke(ops, e, name, args);
        } else if (receiver instanceof Expr e && e.type() instanceof ArrayType && owner.startsWith(TYPES)) {
          if (!OffHeapCollections.invoke(ops, e, owner, name, desc, raw) && !lowPrecision(e, owner, name, args)) offHeap(e, name, desc, raw, args);
        } else throw Refusal.unsupported(ops.src, "the virtual call " + display);
      }
      default -> throw Refusal.unsupported(ops.src, "calling " + (name.equals("<init>") ? "a constructor of " + display.replace(".<init>", "") : display));
    }
  }

  /**
   * {@code Math.clamp(value, min, max)} as {@code min(max, max(value, min))}, which is its result
   * whenever Java returns one; where Java would throw (min > max, a NaN bound) a device gives that
   * expression's value instead.
   */
  private Expr clamp(String desc, Expr[] a) {
    Prim result = Prim.ofDescriptor(desc.charAt(desc.length() - 1));
    Prim work = desc.startsWith("(JII") ? Prim.LONG : result;
    Expr lo = a[1].prim() == work ? a[1] : new Convert(work, a[1]), hi = a[2].prim() == work ? a[2] : new Convert(work, a[2]);
    Expr v = new Call(Intrinsic.MIN, work, List.of(hi, new Call(Intrinsic.MAX, work, List.of(a[0], lo))));
    return work == result ? v : new Convert(result, v);
  }

  /**
   * {@code BFloat16Array.getFloat/setFloat} and {@code FP8Array.getE4M3/setE4M3/getE5M2/setE5M2}: the
   * element's bits converted by {@code BFloat16} and {@code FP8}'s own code, which the inline pass
   * compiles; false for any other method.
   */
  private boolean lowPrecision(Expr array, String owner, String name, Expr[] args) {
    String helper, get, put, bits;
    switch (owner.substring(owner.lastIndexOf('/') + 1) + "." + name) {
      case "BFloat16Array.getFloat", "BFloat16Array.setFloat" -> { helper = TYPES + "BFloat16"; get = "bf16ToFloat"; put = "bf16FromFloat"; bits = "S"; }
      case "FP8Array.getE4M3", "FP8Array.setE4M3" -> { helper = TYPES + "FP8"; get = "e4m3ToFloat"; put = "e4m3FromFloat"; bits = "B"; }
      case "FP8Array.getE5M2", "FP8Array.setE5M2" -> { helper = TYPES + "FP8"; get = "e5m2ToFloat"; put = "e5m2FromFloat"; bits = "B"; }
      default -> {
        return false;
      }
    }
    ops.spillLoads();
    if (name.startsWith("get")) {
      ops.pushResult(new Invoke(helper, get, "(" + bits + ")F", Prim.FLOAT, List.of(new Load(array, args[0]))), Prim.FLOAT);
    } else {
      Expr encoded = ops.result(new Invoke(helper, put, "(F)" + bits, Prim.INT, List.of(args[1])), bits.equals("S") ? Prim.SHORT : Prim.BYTE);
      ops.out.add(new Stmt.Store(array, args[0], encoded, ops.src));
    }
    return true;
  }

  /** {@code loaded}, when its type is what the Java method returns; a method whose element means something else is refused, never read as it. */
  private Expr returning(String desc, String name, Expr loaded) {
    String r = java.lang.constant.MethodTypeDesc.ofDescriptor(desc).returnType().descriptorString();
    if (r.length() != 1 || Prim.ofDescriptor(r.charAt(0)).stackType() != loaded.prim().stackType())
      throw Refusal.unsupported(ops.src, "the array method " + name + "() returning " + r + " over elements of " + loaded.prim());
    return loaded;
  }

  private void offHeap(Expr array, String name, String desc, Object[] raw, Expr[] args) {
    if (name.equals("set") && java.lang.constant.MethodTypeDesc.ofDescriptor(desc).parameterCount() == 2
        && ValueObjects.isHalf(java.lang.constant.MethodTypeDesc.ofDescriptor(desc).parameterType(1))) {
      ValueObjects.storeHalf(ops, array, args[0], raw[1], "HalfFloatArray.set");
      return;
    }
    switch (name) {
      case "getHalfFloat" -> {
        // HalfFloatArray's element; a ByteArray's half at a byte offset is a host call (its two bytes in the host's byte order)
        if (!ValueObjects.isHalfArray(array))
          throw Refusal.error(ops.src, name, "ByteArray.getHalfFloat runs on the host only; in a kernel read the two bytes (get(i), get(i + 1)) "
              + "and make the half with new HalfFloat((short) …), or keep halves in a HalfFloatArray");
        ops.push(ValueObjects.loadHalf(array, args[0]));
      }
      case "getSegment", "toHeapArray", "toArray", "init", "clear", "fromArray" ->
          throw Refusal.error(ops.src, name, "the array method " + name + "() runs on the host only; kernels use get, set and getSize");
      // HalfFloatArray.get is a HalfFloat (TornadoVM's), getFloat its float
      case "get" -> ops.push(ValueObjects.isHalfArray(array) ? ValueObjects.loadHalf(array, args[0]) : returning(desc, name, new Load(array, args[0])));
      case "getFloat" -> {   // HalfFloatArray's float (BFloat16Array's is lowPrecision's)
        if (!ValueObjects.isHalfArray(array)) throw Refusal.unsupported(ops.src, "the array method getFloat() of this array");
        ops.push(returning(desc, name, new Load(array, args[0])));
      }
      case "set" -> {
        ops.spillLoads();
        ops.out.add(new Stmt.Store(array, args[0], args[1], ops.src));
      }
      case "getSize" -> ops.push(new Length(array));
      default -> throw Refusal.unsupported(ops.src, "the array method " + name + "() (kernels use get, set and getSize)");
    }
  }

  private void context(String name, String desc, Expr[] args) {
    if (SimdGroups.isSimd(name)) {
      SimdGroups.call(ops, name, desc, args);
      return;
    }
    switch (name) {
      case "localBarrier" -> ops.out.add(new Stmt.Eval(new Call(Intrinsic.BARRIER_LOCAL, null, List.of()), ops.src));
      case "globalBarrier" -> ops.out.add(new Stmt.Eval(new Call(Intrinsic.BARRIER_GLOBAL, null, List.of()), ops.src));
      case "allocateIntLocalArray", "allocateLongLocalArray", "allocateFloatLocalArray", "allocateDoubleLocalArray",
          "allocateByteLocalArray", "allocateShortLocalArray", "allocateHalfFloatLocalArray" -> {
        Prim e = switch (name) {
          case "allocateIntLocalArray" -> Prim.INT; case "allocateLongLocalArray" -> Prim.LONG;
          case "allocateFloatLocalArray" -> Prim.FLOAT; case "allocateDoubleLocalArray" -> Prim.DOUBLE;
          case "allocateByteLocalArray" -> Prim.BYTE; case "allocateShortLocalArray" -> Prim.SHORT; default -> Prim.HALF;
        };
        // A constant size is part of the kernel; any other is computed by the host at each launch (RuntimeLocals).
        if (args[0] instanceof Const) ops.push(new Alloc(new ArrayType(e, ArrayType.Space.LOCAL, ops.constantSize(args[0], name + "(n)"))));
        else ops.push(new Alloc(new ArrayType(e, ArrayType.Space.LOCAL, ArrayType.RUNTIME), args[0]));
      }
      case "atomicAdd" -> {
        Prim t = ((ArrayType) args[0].type()).element().stackType();
        ops.spillLoads();
        ops.pushResult(new Call(Intrinsic.ATOMIC_ADD, t, List.of(args)), t);
      }
      default -> throw Refusal.unsupported(ops.src, "KernelContext." + name);
    }
  }

  void field(FieldInstruction f) {
    String name = f.name().stringValue();
    switch (f.opcode()) {
      case GETFIELD -> {
        Object receiver = ops.popAny();
        if (receiver == OperandStack.ReceiverRef.INSTANCE) {
          ops.push(receiverField(f));
          return;
        }
        if (receiver instanceof ObjectFields.Ref r) {
          ops.push(ObjectFields.get(ops, names, r, name));
          return;
        }
        Intrinsic op = receiver == OperandStack.ContextRef.INSTANCE ? contextField(name) : null;
        if (op == null) throw Refusal.unsupported(ops.src, "reading the field " + name + " of an object");
        ops.push(new Call(op, Prim.INT, List.of(Const.of("xyz".indexOf(Character.toLowerCase(name.charAt(name.length() - 1)))))));
      }
      case GETSTATIC -> ops.push(staticConstant(f));
      case PUTFIELD -> throw Refusal.unsupported(ops.src, "writing the field " + name + " of an object"
          + (ops.values.size() >= 2 && (ops.values.get(ops.values.size() - 2) == OperandStack.ReceiverRef.INSTANCE
              || ops.values.get(ops.values.size() - 2) instanceof ObjectFields.Ref)
              ? " (a kernel reads the fields of the objects it is given; write results to an array)" : ""));
      default -> throw Refusal.unsupported(ops.src, "writing the static field " + name);
    }
  }

  /**
   * A field of the kernel's object ({@code this.f}): a kernel argument the host reads at each launch
   * ({@link ReceiverFields}); a primitive is its value, an array or collection the array.
   */
  private Object receiverField(FieldInstruction f) {
    String name = f.name().stringValue();
    java.lang.reflect.Field field = ReceiverFields.field(code.method, f.owner().asInternalName(), name, code.method.owner());
    if (field == null) throw Refusal.unsupported(ops.src, "the field " + name);
    Var v = fieldVar(names, field);
    if (v == null)
      throw Refusal.unsupported(ops.src, "the field " + name + " of type " + field.getType().getSimpleName()
          + " (a kernel reads primitives, primitive arrays and dev.loopjit.types arrays from its object)");
    return read(v);
  }

  /** A field's kernel argument as the operand stack holds it (a byte, short, char or boolean widened to int). */
  private static Expr read(Var v) {
    return v.type() instanceof Prim p && p != p.stackType() ? new Convert(p.stackType(), new Read(v)) : new Read(v);
  }

  /** The kernel argument of a field of the kernel's object (one per field and kernel), or null for a type a kernel cannot take. */
  static Var fieldVar(Names names, java.lang.reflect.Field field) {
    Class<?> c = field.getType();
    Prim p = Prim.of(c);
    Prim element = arrayElement(c);
    if (p == null && element == null) return null;
    return names.fields.computeIfAbsent(field, k -> names.fresh(field.getName(), p != null ? p : ArrayType.global(element)));
  }

  private static Intrinsic contextField(String name) {
    return switch (name.substring(0, name.length() - 1)) {
      case "globalId" -> Intrinsic.GLOBAL_ID;
      case "localId" -> Intrinsic.LOCAL_ID;
      case "groupId" -> Intrinsic.GROUP_ID;
      case "globalGroupSize" -> Intrinsic.GLOBAL_SIZE;
      case "localGroupSize" -> Intrinsic.LOCAL_SIZE;
      default -> null;
    };
  }

  /** A static final primitive field is read once, at compile time, and becomes a constant; a table, a private array. */
  private Object staticConstant(FieldInstruction f) {
    String owner = f.owner().asInternalName(), name = f.name().stringValue();
    if (name.equals("$assertionsDisabled")) return Const.of(1); // assertions are off in kernels
    if (f.typeSymbol().isArray()) return table(owner, name);
    try {
      Class<?> c = Class.forName(owner.replace('/', '.'), true, code.method.owner().getClassLoader());
      java.lang.reflect.Field field = c.getDeclaredField(name);
      int mods = field.getModifiers();
      if (ReceiverFields.readAtLaunch(field) && names.fields.containsKey(field)) return read(names.fields.get(field));   // an argument, read at each launch
      if (!java.lang.reflect.Modifier.isFinal(mods) || !field.getType().isPrimitive())
        throw Refusal.unsupported(ops.src, "the static field " + c.getSimpleName() + "." + name
            + (field.getType().isPrimitive() ? " (a kernel reads static primitives that are final, or not final in the program's own "
            + "classes, read at each launch)" : ""));
      field.setAccessible(true);
      Object v = field.get(null);
      return switch (v) {
        case Boolean b -> Const.of(b ? 1 : 0);
        case Character ch -> Const.of((int) ch);
        case Byte b -> Const.of((int) b);
        case Short s -> Const.of((int) s);
        case Integer i -> Const.of(i);
        case Long l -> Const.of(l);
        case Float x -> Const.of(x);
        case Double d -> Const.of(d);
        default -> throw new IllegalStateException(String.valueOf(v));
      };
    } catch (ReflectiveOperationException | RuntimeException e) {
      if (e instanceof dev.loopjit.api.KernelCompilationException k) throw k;
      throw Refusal.unsupported(ops.src, "the static field " + owner.replace('/', '.') + "." + name);
    }
  }

  /**
   * A {@code static final} primitive array read in a kernel: a private array filled with its
   * values where it is read (one per field and kernel; no kernel may write it).
   */
  private Expr table(String owner, String name) {
    Object values;
    try {
      values = StaticArrays.read(Class.forName(owner.replace('/', '.'), true, code.method.owner().getClassLoader()), name);
    } catch (ClassNotFoundException | RuntimeException e) {
      values = null;
    }
    String what = "the static array " + owner.substring(owner.lastIndexOf('/') + 1).replace('$', '.') + "." + name;
    if (values == null) throw Refusal.unsupported(ops.src, what + " (only static final arrays of primitives can be read)");
    int n = java.lang.reflect.Array.getLength(values);
    Prim element = Prim.of(values.getClass().getComponentType());
    ArrayType type = new ArrayType(element, ArrayType.Space.PRIVATE, ops.constantSize(Const.of(n), what));
    Var table = names.tables.computeIfAbsent(owner + "." + name, k -> names.fresh(name, type));
    ops.out.add(new Stmt.Assign(table, new Alloc(type), ops.src));
    for (int i = 0; i < n; i++) {
      Object v = java.lang.reflect.Array.get(values, i);
      Expr c = switch (v) {
        case Integer x -> x == 0 ? null : Const.of(x);
        case Long x -> x == 0 ? null : Const.of(x);
        case Float x -> Float.floatToRawIntBits(x) == 0 ? null : Const.of(x);
        case Double x -> Double.doubleToRawLongBits(x) == 0 ? null : Const.of(x);
        case Short x -> x == 0 ? null : Const.of((int) x);
        case Byte x -> x == 0 ? null : Const.of((int) x);
        case Character x -> x == 0 ? null : Const.of((int) x);
        case Boolean x -> x ? Const.of(1) : null;
        default -> throw new IllegalStateException(String.valueOf(v));
      };
      if (c != null) ops.out.add(new Stmt.Store(new Read(table), Const.of(i), c, ops.src));
    }
    return new Read(table);
  }

}
