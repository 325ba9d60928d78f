// Printing from a kernel: Debug.printf with the format subset every device prints the same way as the JVM.
package dev.loopjit.api;

import dev.loopjit.format.Printf;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code printf} for kernels, as TornadoVM's {@code Debug.printf}: on the {@code jvm} device it
 * prints to {@code System.out}; on OpenCL devices it is OpenCL C's {@code printf}, on CUDA devices
 * {@code vprintf}, in SPIR-V {@code OpenCL.std printf} (the driver prints to the process's standard
 * output, usually when the kernel has finished). Every work-item that reaches the call prints one
 * line (or whatever the format holds); devices print the lines of different work-items in no
 * particular order, and each call's text is printed whole.
 *
 * <p>The format is the subset every device prints exactly as the JVM does: {@code %d} and
 * {@code %i} (any integral value, {@code %ld} accepted), {@code %x} / {@code %X} (the value's bits
 * in hexadecimal: an int as 32 bits, a long as 64), {@code %c} (a char), {@code %f} with an
 * optional precision (a float or double, correctly rounded from its exact binary value, as glibc
 * prints it; {@code nan}, {@code inf} and {@code -inf} as C writes them), the flags {@code -} and
 * {@code 0}, a width, and {@code %%}. The compiler refuses anything else before the kernel runs
 * ({@code %s}, {@code %e}, {@code %g}: their output differs between drivers), and a value whose
 * type does not fit its conversion.
 *
 * <pre>{@code
 * for (@Parallel int i = 0; i < a.getSize(); i++) {
 *   if (a.get(i) < 0) Debug.printf("negative a[%d] = %.3f\n", i, a.get(i));
 * }
 * }</pre>
 */
public final class Debug {
  private static final Object LOCK = new Object();

  private Debug() {}

  /** Prints {@code format} with {@code args} to {@code System.out}, as a device prints it. */
  public static void printf(String format, Object... args) {
    String s = format(format, args);
    synchronized (LOCK) {
      System.out.print(s);
      System.out.flush();
    }
  }

  /**
   * The text {@link #printf} prints: C's {@code printf} for the subset above (not
   * {@link String#format}, which rounds {@code %f} differently and knows no {@code %ld}).
   * Throws IllegalArgumentException for a conversion outside the subset or a missing or mismatched value.
   */
  public static String format(String format, Object... args) {
    StringBuilder out = new StringBuilder();
    Printf f = Printf.parse(format);   // the compiler's parser too (ir.PrintFormat)
    for (Printf.Part p : f.parts()) {
      if (!(p instanceof Printf.Conversion c)) {
        out.append(((Printf.Literal) p).text());
        continue;
      }
      String spec = c.spec();
      if (c.arg() >= args.length) throw new IllegalArgumentException("no value for \"" + spec + "\"");
      Object v = args[c.arg()];
      int precision = c.precision();
      boolean zero = c.zero();
      String body;
      boolean numeric = true;
      switch (c.conversion()) {
        case 'd' -> body = Long.toString(integral(v, spec));
        case 'x', 'X' -> {
          long bits = integral(v, spec);
          body = v instanceof Long ? Long.toHexString(bits) : Integer.toHexString((int) bits);
          if (c.conversion() == 'X') body = body.toUpperCase(java.util.Locale.ROOT);
        }
        case 'c' -> {
          body = String.valueOf((char) integral(v, spec));
          numeric = false;
        }
        default -> {   // f
          if (!(v instanceof Float || v instanceof Double)) throw new IllegalArgumentException("\"" + spec + "\" takes a float or double, not " + v);
          double d = ((Number) v).doubleValue();
          body = fixed(d, precision < 0 ? 6 : precision);
          if (Double.isNaN(d) || Double.isInfinite(d)) zero = false;
        }
      }
      out.append(pad(body, c.width(), c.left(), zero && numeric && !c.left()));
    }
    int next = f.conversions().size();
    if (next != args.length) throw new IllegalArgumentException(args.length + " value(s) for " + next + " conversion(s) in \"" + format + "\"");
    return out.toString();
  }

  private static long integral(Object v, String spec) {
    return switch (v) {
      case Integer x -> x;
      case Long x -> x;
      case Short x -> x;
      case Byte x -> x;
      case Character x -> x;
      case Boolean x -> x ? 1 : 0;
      default -> throw new IllegalArgumentException("\"" + spec + "\" takes an integral value, not " + v);
    };
  }

  /** C's %.Nf: the exact binary value rounded half-even to N places; nan, inf, the sign of -0.0 kept. */
  private static String fixed(double d, int precision) {
    boolean negative = (Double.doubleToRawLongBits(d) & Long.MIN_VALUE) != 0;
    String digits;
    if (Double.isNaN(d)) digits = "nan";
    else if (Double.isInfinite(d)) digits = "inf";
    else digits = new BigDecimal(Math.abs(d)).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
    return (negative ? "-" : "") + digits;
  }

  private static String pad(String body, int width, boolean left, boolean zero) {
    if (body.length() >= width) return body;
    String fill = (zero ? "0" : " ").repeat(width - body.length());
    if (left) return body + fill;
    if (zero && body.startsWith("-")) return "-" + fill + body.substring(1);
    return fill + body;
  }
}
