// Java's primitive types plus IEEE half, as the IR types values and memory elements.
package dev.loopjit.ir;

/**
 * The primitive types. Values in the IR are {@code BOOLEAN} (conditions), {@code INT},
 * {@code LONG}, {@code FLOAT} or {@code DOUBLE}, as on the JVM operand stack; the narrow types
 * ({@code BYTE}, {@code CHAR}, {@code SHORT}, {@code HALF}) and {@code BOOLEAN} also appear as
 * array elements and as targets of narrowing conversions.
 */
public enum Prim implements Type {
  BOOLEAN(1, "boolean", 'Z'),
  BYTE(1, "byte", 'B'),
  CHAR(2, "char", 'C'),
  SHORT(2, "short", 'S'),
  INT(4, "int", 'I'),
  LONG(8, "long", 'J'),
  FLOAT(4, "float", 'F'),
  DOUBLE(8, "double", 'D'),
  /** IEEE binary16, storage only: loads give FLOAT, stores take FLOAT. */
  HALF(2, "half", '?');

  private final int bytes;
  private final String javaName;
  private final char descriptor;

  Prim(int bytes, String javaName, char descriptor) {
    this.bytes = bytes;
    this.javaName = javaName;
    this.descriptor = descriptor;
  }

  /** Size in memory. */
  public int bytes() {
    return bytes;
  }

  /** The Java keyword ({@code "half"} for HALF). */
  public String javaName() {
    return javaName;
  }

  /** The type a value of this type has on the JVM stack: INT for the narrow ones, FLOAT for HALF. */
  public Prim stackType() {
    return switch (this) {
      case BOOLEAN, BYTE, CHAR, SHORT, INT -> INT;
      case HALF -> FLOAT;
      default -> this;
    };
  }

  public boolean isFloating() {
    return this == FLOAT || this == DOUBLE || this == HALF;
  }

  public boolean isIntegral() {
    return !isFloating() && this != BOOLEAN;
  }

  /** Whether this is 64 bits wide (takes two stack slots on the JVM). */
  public boolean isWide() {
    return this == LONG || this == DOUBLE;
  }

  /** The primitive of a descriptor character, or null. */
  public static Prim ofDescriptor(char c) {
    for (Prim p : values()) if (p.descriptor == c) return p;
    return null;
  }

  /** The primitive of a Java class ({@code float.class}), or null. */
  public static Prim of(Class<?> c) {
    return c.isPrimitive() && c != void.class ? ofDescriptor(c.descriptorString().charAt(0)) : null;
  }

  @Override
  public String toString() {
    return javaName;
  }
}
