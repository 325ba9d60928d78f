// A minimal JSON reader for JMH's result files (-rf json): objects, arrays, strings, numbers, true/false/null. Not a general library.
package dev.loopjit.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses JSON text into {@code Map<String, Object>}, {@code List<Object>}, {@code String}, {@code Double}, {@code Boolean} and null. */
final class Json {
  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  /** The value {@code text} holds; IllegalArgumentException with the offset when it is not JSON. */
  static Object parse(String text) {
    Json p = new Json(text);
    Object v = p.value();
    p.space();
    if (p.i != text.length()) throw p.error("trailing text");
    return v;
  }

  private Object value() {
    space();
    if (i >= s.length()) throw error("unexpected end");
    char c = s.charAt(i);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> word("true", Boolean.TRUE);
      case 'f' -> word("false", Boolean.FALSE);
      case 'n' -> word("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    i++;
    space();
    if (peek('}')) return m;
    do {
      space();
      String key = string();
      space();
      expect(':');
      m.put(key, value());
      space();
    } while (peek(','));
    expect('}');
    return m;
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    i++;
    space();
    if (peek(']')) return l;
    do l.add(value()); while (nextAfterSpace(','));
    expect(']');
    return l;
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (i < s.length() && s.charAt(i) != '"') {
      char c = s.charAt(i++);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = s.charAt(i++);
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'u' -> {
          b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          i += 4;
        }
        default -> b.append(e);   // \" \\ \/
      }
    }
    expect('"');
    return b.toString();
  }

  private Double number() {
    int start = i;
    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
    if (start == i) throw error("unexpected character '" + s.charAt(i) + "'");
    return Double.valueOf(s.substring(start, i));   // JMH also writes "NaN" as a string, read as text
  }

  private Object word(String w, Object v) {
    if (!s.startsWith(w, i)) throw error("expected " + w);
    i += w.length();
    return v;
  }

  private void space() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
  }

  private boolean peek(char c) {
    if (i < s.length() && s.charAt(i) == c) {
      i++;
      return true;
    }
    return false;
  }

  private boolean nextAfterSpace(char c) {
    space();
    return peek(c);
  }

  private void expect(char c) {
    if (!peek(c)) throw error("expected '" + c + "'");
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + i);
  }
}
