// The one parser of Debug.printf's format, for the JVM's printing (api.Debug) and the compiler's (ir.PrintFormat).
package dev.loopjit.format;

import java.util.ArrayList;
import java.util.List;

/**
 * A printf format as C reads it, within the conversions every device prints the same way
 * ({@code d i x X c f}): literal text ({@code %%} already turned into {@code %}) and conversions
 * with their flags ({@code -}, {@code 0}), width, precision and an ignored length {@code l}. A
 * leaf of the architecture, so that the public API's {@code Debug} (which formats on the JVM) and
 * the IR's {@code PrintFormat} (which the devices' emitters print from) read a format alike; the
 * compiler's further limits (a precision for %f only, width and precision bounds) are the IR's.
 *
 * @param text  the format as written
 * @param parts its literal text and conversions, in order
 */
public record Printf(String text, List<Part> parts) {
  public Printf {
    parts = List.copyOf(parts);
  }

  /** Literal text or one conversion. */
  public sealed interface Part {}

  /** Text printed as is. */
  public record Literal(String text) implements Part {}

  /**
   * A conversion of value {@code arg}: {@code conversion} is d (for %d and %i), x, X, c or f;
   * {@code flags} a subset of "-0" in the order first written; {@code width} 0 and
   * {@code precision} -1 when not given (each at most 1000); {@code spec} the conversion as written.
   */
  public record Conversion(int arg, String flags, int width, int precision, char conversion, String spec) implements Part {
    public boolean left() {
      return flags.indexOf('-') >= 0;
    }

    public boolean zero() {
      return flags.indexOf('0') >= 0;
    }
  }

  /** Parses {@code format}; throws IllegalArgumentException, with the reason, for a conversion outside the subset. */
  public static Printf parse(String format) {
    List<Part> parts = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int next = 0;
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c != '%') {
        literal.append(c);
        continue;
      }
      int start = i++;
      if (i < format.length() && format.charAt(i) == '%') {
        literal.append('%');
        continue;
      }
      StringBuilder flags = new StringBuilder();
      while (i < format.length() && "-0".indexOf(format.charAt(i)) >= 0) {
        if (flags.indexOf(String.valueOf(format.charAt(i))) < 0) flags.append(format.charAt(i));
        i++;
      }
      int width = 0, precision = -1;
      while (i < format.length() && Character.isDigit(format.charAt(i))) width = Math.min(width * 10 + (format.charAt(i++) - '0'), 1000);
      if (i < format.length() && format.charAt(i) == '.') {
        precision = 0;
        i++;
        while (i < format.length() && Character.isDigit(format.charAt(i))) precision = Math.min(precision * 10 + (format.charAt(i++) - '0'), 1000);
      }
      if (i < format.length() && format.charAt(i) == 'l') i++;
      if (i >= format.length()) throw new IllegalArgumentException("the format ends inside the conversion \"" + format.substring(start) + "\"");
      char conv = format.charAt(i);
      String spec = format.substring(start, i + 1);
      switch (conv) {
        case 'd', 'i' -> conv = 'd';
        case 'x', 'X', 'c', 'f' -> {}
        default -> throw new IllegalArgumentException("the conversion \"" + spec + "\" is not one every device prints the same way; "
            + "use %d, %x, %X, %c, %f (with flags -, 0, a width and for %f a precision) or %%");
      }
      if (!literal.isEmpty()) parts.add(new Literal(literal.toString()));
      literal.setLength(0);
      parts.add(new Conversion(next++, flags.toString(), width, precision, conv, spec));
    }
    if (!literal.isEmpty()) parts.add(new Literal(literal.toString()));
    return new Printf(format, parts);
  }

  /** The conversions, in order. */
  public List<Conversion> conversions() {
    return parts.stream().filter(p -> p instanceof Conversion).map(p -> (Conversion) p).toList();
  }
}
