// Parse: Debug.printf(format, values...) — the format string, the varargs array and the boxing javac writes — becomes one PRINTF call.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Const;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.PrintFormat;
import dev.loopjit.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/**
 * javac compiles {@code Debug.printf("i=%d\n", i)} to a string constant, an {@code Object[]} of
 * boxed values ({@code Integer.valueOf(i)}) and the call. Each piece is a marker on the operand
 * stack ({@link Text}, {@link Boxes}, {@link Boxed}) that only the call consumes; used anywhere
 * else it is refused as the object it is. The format is checked against the subset every device
 * prints the same way ({@link PrintFormat}) and against the values' types, at the call's line.
 */
final class Printing {
  static final String DEBUG = "dev/loopjit/api/Debug";

  private Printing() {}

  /** A string constant. */
  record Text(String value) {}

  /** The varargs {@code Object[]} being filled (mutable: javac stores into it after {@code dup}). */
  static final class Boxes {
    final Object[] slots;

    Boxes(int n) {
      slots = new Object[n];
    }
  }

  /** A boxed primitive ({@code Integer.valueOf(x)}): its value and primitive type. */
  record Boxed(Expr value, Prim type) {}

  /**
   * The primitive a kernel or helper parameter of a boxed type carries ({@code Integer} → int; also
   * {@code Long}, {@code Float}, {@code Double}), or null: such a parameter is its primitive value
   * (never null: a task refuses a null argument), unboxed by its {@code intValue()} and the like.
   */
  static Prim boxedParameter(Class<?> c) {
    return c == Integer.class ? Prim.INT : c == Long.class ? Prim.LONG : c == Float.class ? Prim.FLOAT : c == Double.class ? Prim.DOUBLE : null;
  }

  /** Whether a boxed value of {@code p} may be passed to a helper's {@link #boxedParameter} (an int, long, float or double one). */
  static boolean passesBoxed(Prim p) {
    return p == Prim.INT || p == Prim.LONG || p == Prim.FLOAT || p == Prim.DOUBLE;
  }

  /**
   * {@code boxed.intValue()}, {@code floatValue()} and the other unboxing calls of {@code Number}:
   * the value, converted as Java converts it; false for any other call.
   */
  static boolean unbox(OperandStack ops, Object receiver, String name, String desc) {
    if (!(receiver instanceof Boxed b) || !name.endsWith("Value") || !desc.startsWith("()") || desc.length() != 3) return false;
    Prim to = Prim.ofDescriptor(desc.charAt(2));
    if (to == null || !name.equals(to.javaName() + "Value")) return false;
    if (b.type() == Prim.BOOLEAN || b.type() == Prim.CHAR || to == Prim.BOOLEAN || to == Prim.CHAR) {
      if (to != b.type()) return false;   // booleanValue() of a Boolean, charValue() of a Character only
      ops.push(b.value());
      return true;
    }
    if (to != to.stackType()) return false;   // byteValue(), shortValue(): refused as calls
    ops.push(b.value().type() == to ? b.value() : Fold.fold(new Expr.Convert(to, b.value())));
    return true;
  }

  /** {@code new Object[n]}: the varargs array of a printf (a constant size). */
  static Boxes array(OperandStack ops, Expr count) {
    if (!(count instanceof Const c) || c.longValue() < 0 || c.longValue() > 64)
      throw Refusal.unsupported(ops.src, "an Object[] that is not the arguments of Debug.printf");
    return new Boxes((int) c.longValue());
  }

  /** {@code boxes[index] = value}. */
  static void store(OperandStack ops, Boxes boxes, Expr index, Object value) {
    if (!(index instanceof Const c) || c.longValue() < 0 || c.longValue() >= boxes.slots.length)
      throw Refusal.unsupported(ops.src, "an Object[] that is not the arguments of Debug.printf");
    boxes.slots[(int) c.longValue()] = value;
  }

  /** {@code Integer.valueOf(x)} and the other boxing methods; false for any other call. */
  static boolean box(OperandStack ops, String owner, String name, String desc, Object[] raw) {
    if (!name.equals("valueOf") || raw.length != 1 || !(raw[0] instanceof Expr e)) return false;
    Prim p = switch (owner) {
      case "java/lang/Integer" -> Prim.INT;
      case "java/lang/Long" -> Prim.LONG;
      case "java/lang/Float" -> Prim.FLOAT;
      case "java/lang/Double" -> Prim.DOUBLE;
      case "java/lang/Short" -> Prim.SHORT;
      case "java/lang/Byte" -> Prim.BYTE;
      case "java/lang/Character" -> Prim.CHAR;
      case "java/lang/Boolean" -> Prim.BOOLEAN;
      default -> null;
    };
    if (p == null || !desc.equals("(" + descriptor(p) + ")L" + owner + ";")) return false;
    ops.push(new Boxed(e, p));
    return true;
  }

  private static char descriptor(Prim p) {
    return switch (p) {
      case BOOLEAN -> 'Z';
      case BYTE -> 'B';
      case CHAR -> 'C';
      case SHORT -> 'S';
      case INT -> 'I';
      case LONG -> 'J';
      case FLOAT -> 'F';
      default -> 'D';
    };
  }

  /** {@code Debug.printf(format, args)}: one PRINTF statement; false when the call is not Debug's. */
  static boolean printf(OperandStack ops, String owner, String name, String desc, Object[] raw) {
    if (!owner.equals(DEBUG)) return false;
    if (!name.equals("printf") || !desc.equals("(Ljava/lang/String;[Ljava/lang/Object;)V"))
      throw Refusal.error(ops.src, "Debug." + name, "Debug." + name + " is not supported in a kernel; use Debug.printf(format, values...)");
    if (!(raw[0] instanceof Text t))
      throw Refusal.error(ops.src, "Debug.printf", "the format of Debug.printf must be a string constant in a kernel");
    if (!(raw[1] instanceof Boxes b))
      throw Refusal.error(ops.src, "Debug.printf", "the values of Debug.printf must be listed in the call in a kernel");
    PrintFormat f;
    try {
      f = PrintFormat.parse(t.value());
    } catch (IllegalArgumentException e) {
      throw Refusal.error(ops.src, "Debug.printf", "Debug.printf(\"" + escape(t.value()) + "\"): " + e.getMessage());
    }
    if (f.arguments() != b.slots.length)
      throw Refusal.error(ops.src, "Debug.printf", "Debug.printf(\"" + escape(t.value()) + "\") has " + f.arguments() + " conversion(s) and "
          + b.slots.length + " value(s)");
    List<Expr> values = new ArrayList<>();
    for (PrintFormat.Conversion c : f.conversions()) {
      Object v = b.slots[c.arg()];
      if (!(v instanceof Boxed x))
        throw Refusal.error(ops.src, "Debug.printf", "value " + (c.arg() + 1) + " of Debug.printf is " + OperandStack.describe(v)
            + "; a kernel prints primitive values");
      String wrong = PrintFormat.mismatch(c, x.type());
      if (wrong != null) throw Refusal.error(ops.src, "Debug.printf", "Debug.printf(\"" + escape(t.value()) + "\"), value " + (c.arg() + 1) + ": " + wrong);
      values.add(x.value());
    }
    ops.spillLoads();
    ops.out.add(new Stmt.Eval(PrintFormat.call(t.value(), values), ops.src));
    return true;
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\"", "\\\"");
  }
}
