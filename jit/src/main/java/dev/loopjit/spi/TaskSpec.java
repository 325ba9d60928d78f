// One task as TaskGraph.task captured it: the static method behind the reference and its checked arguments.
package dev.loopjit.spi;

import dev.loopjit.api.Engine;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.PrebuiltKernel;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.compiler.ReceiverFields;
import dev.loopjit.ir.Prim;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * One task: its method and its arguments, checked against the method's parameters when the task
 * was added. Primitive arguments are stored as the parameter's exact wrapper (an {@code Integer}
 * given to a {@code float} parameter becomes a {@code Float}), as Java's method invocation
 * conversion would do. A prebuilt task has hand-written device code instead of a method.
 *
 * An instance-method task ({@code this::compute}) has its object as {@code receiver}; its
 * {@code args} are the Java arguments followed by the fields of the object the kernel reads and the
 * static fields that are not final ({@link ReceiverFields}, the compiler's extra parameters): each
 * primitive field read at each launch, each array field the array it held when the task was added
 * ({@link #checkReceiver}). A static method's task that reads such static fields has them too.
 *
 * @param method   the kernel method, or null for a prebuilt task
 * @param prebuilt the hand-written kernel of a prebuilt task, or null
 * @param receiver the object of an instance-method kernel, or null
 */
public record TaskSpec(String graph, String id, MethodRef method, List<Object> args, PrebuiltKernel prebuilt, Object receiver)
    implements Engine.Task {
  /** A task of a static Java method. */
  public TaskSpec(String graph, String id, MethodRef method, List<Object> args) {
    this(graph, id, method, args, null, null);
  }

  /** A task of a static Java method, or a prebuilt task. */
  public TaskSpec(String graph, String id, MethodRef method, List<Object> args, PrebuiltKernel prebuilt) {
    this(graph, id, method, args, prebuilt, null);
  }

  /** {@code Kernels.saxpy}, or {@code prebuilt opencl kernel "scale"}, for messages. */
  public String display() {
    return method != null ? method.display() : "prebuilt " + prebuilt.language() + " kernel \"" + prebuilt.entryPoint() + "\"";
  }

  /** Checks a prebuilt task's arguments: one per access, each an array or a primitive value. */
  public static TaskSpec prebuilt(String graph, String id, PrebuiltKernel kernel, Object[] args) {
    String task = graph + "." + id;
    if (args.length != kernel.accesses().size())
      throw new IllegalArgumentException("task \"" + task + "\": " + args.length + " argument(s) for " + kernel.accesses().size()
          + " access(es) of prebuilt kernel \"" + kernel.entryPoint() + "\"; give one Access per argument");
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      boolean array = HostArray.of(a) != null;
      if (!array && !(a instanceof Number || a instanceof Boolean || a instanceof Character))
        throw new IllegalArgumentException("task \"" + task + "\": argument " + i + " of prebuilt kernel \"" + kernel.entryPoint() + "\" is "
            + (a == null ? "null" : "a " + a.getClass().getName()) + "; prebuilt kernels take arrays and primitive values");
      if (!array && kernel.accesses().get(i) != dev.loopjit.api.Access.NONE)
        throw new IllegalArgumentException("task \"" + task + "\": argument " + i + " is a value, so its access must be NONE, not "
            + kernel.accesses().get(i));
    }
    return new TaskSpec(graph, id, null, Arrays.asList(args.clone()), kernel);
  }

  /** {@code "graph.task"}. */
  public String qualifiedName() {
    return graph + "." + id;
  }

  /** Resolves {@code code} and checks {@code args}; throws IllegalArgumentException naming the task and parameter. */
  public static TaskSpec of(String graph, String id, Serializable code, Object[] args) {
    String task = graph + "." + id;
    MethodRef m = MethodRef.ofLambda(code, task);
    MethodRef kernel = m.isInstance() ? collectionKernel(m) : null;
    if (kernel != null) {   // image::fill: the collection's kernel of that name, the collection its first argument
      Object[] withCollection = new Object[args.length + 1];
      withCollection[0] = MethodRef.receiverOf(code, task);
      System.arraycopy(args, 0, withCollection, 1, args.length);
      m = kernel;
      args = withCollection;
    }
    Class<?>[] params = m.method().getParameterTypes();
    if (params.length != args.length)
      throw new IllegalArgumentException("task \"" + task + "\": " + m.display() + " takes " + params.length
          + " argument(s), " + args.length + " given");
    Object[] checked = new Object[args.length];
    for (int i = 0; i < args.length; i++) checked[i] = convert(task, m, i, params[i], args[i]);
    Object receiver = m.isInstance() ? MethodRef.receiverOf(code, task) : null;
    ReceiverArgs withFields = ReceiverArgs.of(task, m, receiver, Arrays.asList(checked));
    List<Object> list = withFields != null ? withFields : Arrays.asList(checked);
    ValueArgs withValues = ValueArgs.of(list, Arrays.asList(checked));
    if (withValues != null) list = withValues;
    List<java.util.function.Supplier<Object>> extra = new java.util.ArrayList<>();
    boolean read = false;
    for (dev.loopjit.compiler.ObjectFields.Read f : dev.loopjit.compiler.ObjectFields.of(m)) {
      Object root = checked[f.param()];
      String where = "task \"" + task + "\": field " + f.path() + " of parameter " + f.param() + " (" + m.parameterName(f.param()) + ")";
      List<java.lang.reflect.Field> chain = dev.loopjit.compiler.ObjectFields.chain(params[f.param()], f.path(), where);
      Object now = dev.loopjit.compiler.ObjectFields.value(root, chain, where);
      if (f.array()) {   // the array it holds now, which the plan copies; a primitive is read at each launch
        extra.add(() -> now);
      } else {
        extra.add(() -> dev.loopjit.compiler.ObjectFields.value(root, chain, where));
        read = true;
      }
    }
    for (int k = dev.loopjit.compiler.AtomicCells.made(m); k > 0; k--) {
      Object cell = new java.util.concurrent.atomic.AtomicInteger();
      extra.add(() -> cell);
    }
    return new TaskSpec(graph, id, m, extra.isEmpty() ? list : new Appended(list, extra, read), null, receiver);
  }

  /**
   * The arguments of a task whose kernel reads fields of objects it is given, or makes
   * AtomicIntegers before its loop: its other arguments, then each such field (an array as it was
   * when the task was added, a primitive read at each launch) and a cell for each AtomicInteger (one
   * of this task's own, which the kernel's prologue sets at each launch; the {@code jvm} runs the
   * Java method, which makes its own).
   */
  private static final class Appended extends java.util.AbstractList<Object> {
    final List<Object> base;
    private final List<java.util.function.Supplier<Object>> extra;
    /** Whether some value is read at each get (a primitive field). */
    final boolean read;

    Appended(List<Object> base, List<java.util.function.Supplier<Object>> extra, boolean read) {
      this.base = base;
      this.extra = List.copyOf(extra);
      this.read = read;
    }

    @Override
    public Object get(int i) {
      return i < base.size() ? base.get(i) : extra.get(i - base.size()).get();
    }

    @Override
    public int size() {
      return base.size() + extra.size();
    }
  }

  /** The arguments without the fields of object parameters and the cells of the AtomicIntegers the kernel makes. */
  private List<Object> given() {
    return args instanceof Appended a ? a.base : args;
  }

  /**
   * For a method of one of LoopJIT's collections given as a task ({@code image::fill}), the kernel
   * that computes it ({@code CollectionKernels.fill(ImageFloat, float)}: the collection first, then
   * the method's parameters), or null. The method itself is host code over the collection's fields;
   * the kernel names the collection, so that the plan knows the collection is what is written.
   */
  private static MethodRef collectionKernel(MethodRef m) {
    if (!dev.loopjit.types.NativeCollection.class.isAssignableFrom(m.owner())) return null;
    Class<?>[] params = m.method().getParameterTypes();
    Class<?>[] withCollection = new Class<?>[params.length + 1];
    withCollection[0] = m.owner();
    System.arraycopy(params, 0, withCollection, 1, params.length);
    try {
      java.lang.reflect.Method k = dev.loopjit.types.CollectionKernels.class.getMethod(m.name(), withCollection);
      return MethodRef.of(k.getDeclaringClass(), k.getName(), java.lang.invoke.MethodType.methodType(void.class, withCollection).toMethodDescriptorString());
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  /**
   * Whether the argument values never change after the task is added, so that what the host proves
   * from them at prepare time (no index out of bounds) holds for every execution: false for an
   * instance-method task and a kernel that reads a static field that is not final, whose primitive
   * fields are read at each launch, and for a task given vector or HalfFloat values, whose fields are.
   */
  public boolean fixedArguments() {
    return receiver == null && !(given() instanceof ReceiverArgs) && !(given() instanceof ValueArgs) && !(args instanceof Appended a && a.read);
  }

  /**
   * Before each execution of an instance-method task: the array fields the kernel reads still hold
   * the arrays the plan was built with (IllegalStateException naming the field otherwise).
   */
  public void checkReceiver() {
    if (given() instanceof ReceiverArgs r) r.check(qualifiedName());
  }

  private static Object convert(String task, MethodRef m, int i, Class<?> p, Object a) {
    String where = "task \"" + task + "\": parameter " + i + " (" + m.parameterName(i) + ": " + p.getSimpleName() + ") of " + m.display();
    if (p.isPrimitive()) {
      if (a == null) throw new IllegalArgumentException(where + " cannot take null");
      Object v = widen(Prim.of(p), a);
      if (v == null) throw new IllegalArgumentException(where + " cannot take a " + a.getClass().getSimpleName() + " (" + a + ")");
      return v;
    }
    if (p == Integer.class || p == Long.class || p == Float.class || p == Double.class) {   // a boxed number: its value, never null
      if (a == null) throw new IllegalArgumentException(where + " cannot take null");
      if (!p.isInstance(a)) throw new IllegalArgumentException(where + " cannot take a " + a.getClass().getSimpleName() + " (" + a + ")");
      return a;
    }
    if (p == KernelContext.class || HostArray.elementOf(p) != null || dev.loopjit.compiler.KernelValues.fieldsOf(p) > 0
        || dev.loopjit.compiler.ObjectFields.isProgramObject(p)) {
      if (a == null) throw new IllegalArgumentException(where + " cannot take null");
      if (!p.isInstance(a)) throw new IllegalArgumentException(where + " cannot take a " + a.getClass().getSimpleName());
      return a;
    }
    throw new IllegalArgumentException(where + ": " + p.getName() + " is not a kernel parameter type; kernels take "
        + "primitives (and Integer, Long, Float, Double), primitive arrays, FloatArray/DoubleArray/IntArray/LongArray/ShortArray/ByteArray/Int8Array/CharArray/HalfFloatArray, "
        + "the collections Matrix2DFloat/Matrix2DInt/Matrix2DDouble/VectorFloat/VectorInt/VectorDouble/VectorFloat2…16/VectorInt2…16/VectorDouble2…16, "
        + "the values Float2…16/Int2…16/Double2…16/HalfFloat, AtomicInteger, KernelContext, and objects of the program's own classes");
  }

  /** Unboxing then widening primitive conversion (JLS 5.3), or null when not allowed. */
  private static Object widen(Prim to, Object a) {
    Prim from = switch (a) {
      case Boolean b -> Prim.BOOLEAN;
      case Byte b -> Prim.BYTE;
      case Short s -> Prim.SHORT;
      case Character c -> Prim.CHAR;
      case Integer x -> Prim.INT;
      case Long x -> Prim.LONG;
      case Float x -> Prim.FLOAT;
      case Double x -> Prim.DOUBLE;
      default -> null;
    };
    if (from == null) return null;
    if (from == to) return a;
    if (from == Prim.BOOLEAN || to == Prim.BOOLEAN || to == Prim.CHAR) return null;
    long l = 0;
    double d = 0;
    if (a instanceof Character c) l = c;
    else if (a instanceof Number n) {
      l = n.longValue();
      d = n.doubleValue();
    }
    boolean fromIntegral = from != Prim.FLOAT && from != Prim.DOUBLE;
    return switch (to) {
      case SHORT -> from == Prim.BYTE ? (Object) (short) l : null;
      case INT -> from == Prim.BYTE || from == Prim.SHORT || from == Prim.CHAR ? (Object) (int) l : null;
      case LONG -> fromIntegral ? (Object) l : null;
      case FLOAT -> fromIntegral ? (Object) (float) l : from == Prim.FLOAT ? a : null;
      case DOUBLE -> fromIntegral ? (Object) (double) l : (Object) d;
      default -> null;
    };
  }
}
