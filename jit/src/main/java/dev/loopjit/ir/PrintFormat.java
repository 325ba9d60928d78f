// Debug.printf's format in the IR: the subset every device prints the same way, parsed, checked, and written back as C's printf wants it.
package dev.loopjit.ir;

import dev.loopjit.ir.Expr.Call;
import dev.loopjit.ir.Expr.Const;
import dev.loopjit.format.Printf;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code Debug.printf} format: literal text and conversions. The subset is what OpenCL's
 * {@code printf}, CUDA's {@code vprintf}, SPIR-V's {@code OpenCL.std printf} and the JVM print
 * identically: {@code %d} / {@code %i} (any integral value; {@code %ld} is accepted as in C),
 * {@code %x} / {@code %X} (hexadecimal of the value's two's complement bits: 8 digits at most for an
 * int, 16 for a long), {@code %c} (a char), {@code %f} with an optional precision ({@code %.3f}; a
 * float or double, printed correctly rounded, as glibc does), flags {@code -} and {@code 0}, a
 * width, and {@code %%}. {@code %e}, {@code %g}, {@code %s} and {@code %a} are refused: their
 * output differs between drivers (exponent digits, shortest forms) or they take strings.
 *
 * <p>In the IR a {@link Intrinsic#PRINTF} call carries the format as INT constants (its length,
 * then its characters) followed by the values, so the IR needs no string type: {@link #call},
 * {@link #of} and {@link #values} convert.
 */
public record PrintFormat(String text, List<Part> parts) {
  public PrintFormat {
    parts = List.copyOf(parts);
  }

  /** Literal text or one conversion. */
  public sealed interface Part {}

  /** Text printed as is ({@code %%} already turned into {@code %}). */
  public record Literal(String text) implements Part {}

  /**
   * A conversion of value {@code arg}: {@code conversion} is d, x, X, c or f; {@code precision} -1
   * when not given; {@code flags} a subset of "-0".
   */
  public record Conversion(int arg, String flags, int width, int precision, char conversion) implements Part {
    /** This conversion as C's printf writes it for a value of type {@code t} ({@code %ld} for a long). */
    public String c(Prim t) {
      String head = "%" + flags + (width > 0 ? Integer.toString(width) : "") + (precision >= 0 ? "." + precision : "");
      return switch (conversion) {
        case 'd' -> head + (t == Prim.LONG ? "ld" : "d");
        case 'x', 'X' -> head + (t == Prim.LONG ? "l" : "") + conversion;
        case 'c' -> head + "c";
        default -> head + "f";
      };
    }
  }

  /**
   * Parses {@code format} ({@link Printf}, the parser {@code Debug} formats with on the JVM, then
   * the limits of the devices' printf); throws IllegalArgumentException (with the reason, for the
   * compiler to put in its refusal) for anything outside the subset.
   */
  public static PrintFormat parse(String format) {
    List<Part> parts = new ArrayList<>();
    for (Printf.Part p : Printf.parse(format).parts()) {
      switch (p) {
        case Printf.Literal l -> parts.add(new Literal(l.text()));
        case Printf.Conversion c -> {
          if (c.precision() >= 0 && c.conversion() != 'f') throw new IllegalArgumentException("\"" + c.spec() + "\": a precision is supported for %f only");
          if (c.precision() > 30 || c.width() > 60) throw new IllegalArgumentException("\"" + c.spec() + "\": width up to 60 and precision up to 30");
          parts.add(new Conversion(c.arg(), c.flags(), c.width(), c.precision(), c.conversion()));
        }
      }
    }
    return new PrintFormat(format, parts);
  }

  /** How many values the format takes. */
  public int arguments() {
    return (int) parts.stream().filter(p -> p instanceof Conversion).count();
  }

  /** The conversions, in order. */
  public List<Conversion> conversions() {
    return parts.stream().filter(p -> p instanceof Conversion).map(p -> (Conversion) p).toList();
  }

  /**
   * Why a value of type {@code t} cannot be printed by {@code c} (null when it can): %d, %x and %c
   * take integral values (booleans print as 0 and 1 with %d), %f floating ones.
   */
  public static String mismatch(Conversion c, Prim t) {
    boolean integral = t.isIntegral() || t == Prim.BOOLEAN;
    return switch (c.conversion()) {
      case 'f' -> t.isFloating() ? null : "%f takes a float or double, not a" + (t == Prim.INT ? "n " : " ") + t.javaName();
      case 'c' -> t == Prim.CHAR || t == Prim.INT || t == Prim.SHORT || t == Prim.BYTE ? null : "%c takes a char";
      default -> integral ? null : "%" + c.conversion() + " takes an integral value, not a " + t.javaName() + " (use %f)";
    };
  }

  /** The C format string for values of {@code types} (one per conversion). */
  public String c(List<Prim> types) {
    StringBuilder b = new StringBuilder();
    for (Part p : parts) {
      switch (p) {
        case Literal l -> b.append(l.text().replace("%", "%%"));
        case Conversion c -> b.append(c.c(types.get(c.arg())));
      }
    }
    return b.toString();
  }

  /** The PRINTF call of {@code format} with {@code values}. */
  public static Call call(String format, List<Expr> values) {
    List<Expr> args = new ArrayList<>();
    args.add(Const.of(format.length()));
    for (int i = 0; i < format.length(); i++) args.add(Const.of((int) format.charAt(i)));
    args.addAll(values);
    return new Call(Intrinsic.PRINTF, null, args);
  }

  /** The format of a PRINTF call. */
  public static PrintFormat of(Call c) {
    if (c.op() != Intrinsic.PRINTF) throw new IllegalArgumentException("not a PRINTF call: " + c.op());
    int n = (int) ((Const) c.args().get(0)).longValue();
    StringBuilder b = new StringBuilder(n);
    for (int i = 1; i <= n; i++) b.append((char) ((Const) c.args().get(i)).longValue());
    return parse(b.toString());
  }

  /** The values a PRINTF call prints, in order. */
  public static List<Expr> values(Call c) {
    int n = (int) ((Const) c.args().get(0)).longValue();
    return c.args().subList(n + 1, c.args().size());
  }
}
