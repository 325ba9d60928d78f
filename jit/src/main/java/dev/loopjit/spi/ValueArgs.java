// A task's arguments when it takes vector or HalfFloat values: its arguments, then each value's fields, read at each launch.
package dev.loopjit.spi;

import dev.loopjit.compiler.KernelValues;
import dev.loopjit.types.HalfFloat;
import java.lang.reflect.Method;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

/**
 * The argument list of a task with a {@code Float4}, {@code Int3}, … or {@code HalfFloat}
 * argument, in the order of the compiled kernel's parameters: the arguments (the value objects
 * themselves, which the {@code jvm} device passes to the Java method), then every value's fields as
 * primitives, read each time the list is — at each launch, so a host change to the object between
 * executions is seen by the next, as TornadoVM reads a vector it transfers every execution.
 */
final class ValueArgs extends AbstractList<Object> {
  private final List<Object> args;
  /** The value objects among the Java arguments, in order. */
  private final List<Object> values;
  private final int fields;

  private ValueArgs(List<Object> args, List<Object> values, int fields) {
    this.args = args;
    this.values = values;
    this.fields = fields;
  }

  /** {@code args} followed by the fields of the values among {@code javaArgs}, or null when there is none. */
  static ValueArgs of(List<Object> args, List<Object> javaArgs) {
    List<Object> values = new ArrayList<>();
    int fields = 0;
    for (Object a : javaArgs) {
      int n = a == null ? 0 : KernelValues.fieldsOf(a.getClass());
      if (n > 0) {
        values.add(a);
        fields += n;
      }
    }
    return values.isEmpty() ? null : new ValueArgs(args, values, fields);
  }

  @Override
  public Object get(int i) {
    if (i < args.size()) return args.get(i);
    int k = i - args.size();
    for (Object v : values) {
      int n = KernelValues.fieldsOf(v.getClass());
      if (k < n) return field(v, k);
      k -= n;
    }
    throw new IndexOutOfBoundsException(i);
  }

  @Override
  public int size() {
    return args.size() + fields;
  }

  /** Each vector type's {@code get(int)}, found once. */
  private static final ClassValue<Method> GET = new ClassValue<>() {
    @Override
    protected Method computeValue(Class<?> type) {
      try {
        return type.getMethod("get", int.class);
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException(type.getSimpleName() + " has no get(int)", e);
      }
    }
  };

  /** Field {@code k} of a value as the kernel takes it: a HalfFloat's float value, a vector's element {@code k}. */
  private static Object field(Object value, int k) {
    if (value instanceof HalfFloat h) return h.getFloat32();
    try {
      return GET.get(value.getClass()).invoke(value, k);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read the elements of a " + value.getClass().getSimpleName(), e);
    }
  }
}
