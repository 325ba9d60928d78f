// Which Java types a kernel takes as values passed field by field (Float4, Int3, Double16, HalfFloat), for the host side of a task.
package dev.loopjit.compiler;

/**
 * The vector types of {@code dev.loopjit.types} and {@code HalfFloat}: a kernel takes one as its
 * fields, each a primitive the host passes after the task's arguments (in field order: x, y, z, w
 * or s0…s15; a HalfFloat's one field is its float value).
 */
public final class KernelValues {
  private KernelValues() {}

  /** How many primitive fields a kernel parameter of type {@code c} is passed as; 0 when {@code c} is not such a value type. */
  public static int fieldsOf(Class<?> c) {
    ValueObjects.Kind k = c == null ? null : ValueObjects.kind(c);
    return k == null ? 0 : k.fields;
  }
}
