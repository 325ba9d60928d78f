// The JVM types of the IR's values on the jvm-mt device, and the classes the generated code calls: kinds, element kinds, descriptors.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Type;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;

/** What the parts of {@link BytecodeEmitter} share about types: how a value of the IR is held in a local, on the stack and in an array. */
final class BytecodeTypes {
  static final ClassDesc ITEM = ClassDesc.of("dev.loopjit.backend.jvmmt.WorkItem");
  static final ClassDesc FAILURES = ClassDesc.of("dev.loopjit.backend.jvmmt.Failures");
  static final ClassDesc OOB = ClassDesc.of("java.lang.ArrayIndexOutOfBoundsException");
  static final ClassDesc FLOAT = ClassDesc.of("java.lang.Float"), DOUBLE = ClassDesc.of("java.lang.Double");
  static final ClassDesc INTEGER = ClassDesc.of("java.lang.Integer"), LONG = ClassDesc.of("java.lang.Long");

  private BytecodeTypes() {}

  /** The kind of a value of type {@code t} in a local or on the stack. */
  static TypeKind kind(Type t) {
    if (t instanceof ArrayType) return TypeKind.REFERENCE;
    return switch (((Prim) t).stackType()) {
      case LONG -> TypeKind.LONG;
      case FLOAT -> TypeKind.FLOAT;
      case DOUBLE -> TypeKind.DOUBLE;
      default -> TypeKind.INT;
    };
  }

  /** The element kind of the Java array that holds {@code p}s on this device ({@code short} for HALF). */
  static TypeKind elementKind(Prim p) {
    return switch (p) {
      case BOOLEAN -> TypeKind.BOOLEAN;
      case BYTE -> TypeKind.BYTE;
      case CHAR -> TypeKind.CHAR;
      case SHORT, HALF -> TypeKind.SHORT;
      case INT -> TypeKind.INT;
      case LONG -> TypeKind.LONG;
      case FLOAT -> TypeKind.FLOAT;
      case DOUBLE -> TypeKind.DOUBLE;
    };
  }

  /** The descriptor of a value of type {@code t}: a primitive, or this device's Java array. */
  static ClassDesc desc(Type t) {
    if (t instanceof ArrayType a) return elementKind(a.element()).upperBound().arrayType();
    return switch (((Prim) t).stackType()) {
      case LONG -> ConstantDescs.CD_long;
      case FLOAT -> ConstantDescs.CD_float;
      case DOUBLE -> ConstantDescs.CD_double;
      default -> ConstantDescs.CD_int;
    };
  }

  /** The type a kernel argument has in the generated method: a local array sized at launch comes as its length. */
  static Type argType(KernelArg a) {
    return a instanceof KernelArg.Local ? Prim.INT : a.var().type();
  }

  /** An array type as the failure messages name it: {@code float array}, {@code half array}. */
  static String javaType(Type t) {
    ArrayType a = (ArrayType) t;
    return a.element() == Prim.HALF ? "half array" : a.element().javaName() + " array";
  }
}
