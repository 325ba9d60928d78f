// C names for the IR's variables and labels: Java names made safe from C keywords and OpenCL's macros.
package dev.loopjit.backend.c;

import dev.loopjit.ir.Label;
import dev.loopjit.ir.Var;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Gives each {@link Var} and {@link Label} a unique C identifier. Every name gets a trailing
 * {@code _}: legal Java names such as {@code half}, {@code kernel}, {@code float4}, {@code length}
 * or {@code step} are C keywords or (in PoCL's headers) object-like macros, and no OpenCL
 * keyword, type, built-in or macro ends in an underscore. Names are handed out in the order they
 * are asked for, so the same IR always gets the same names.
 */
public final class CNames {
  private final Map<Var, String> vars = new LinkedHashMap<>();
  private final Map<String, String> labels = new HashMap<>();
  private final Set<String> taken = new HashSet<>();

  /** The C name of {@code v}, assigned on first use. */
  public String of(Var v) {
    return vars.computeIfAbsent(v, x -> fresh(x.name()));
  }

  /** Whether {@code v} has a name yet. */
  public boolean has(Var v) {
    return vars.containsKey(v);
  }

  /** The C label {@code <label>_<suffix>} ({@code end}, {@code next}), unique per (label, suffix). */
  public String label(Label l, String suffix) {
    return labels.computeIfAbsent(l.name() + "\u0000" + suffix, x -> fresh(l.name() + "_" + suffix));
  }

  private String fresh(String javaName) {
    StringBuilder b = new StringBuilder();
    for (char c : javaName.toCharArray()) b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_') ? c : '_');
    // A leading underscore (or digit) could make a reserved __name; start with a letter instead.
    if (b.isEmpty() || !Character.isLetter(b.charAt(0))) b.insert(0, 'v');
    String base = b.toString();
    String name = base + "_";
    for (int n = 2; !taken.add(name); n++) name = base + "_" + n + "_";
    return name;
  }

  /** Whether {@code s} can name a kernel entry point as is (the runtime looks it up by this name). */
  public static boolean isIdentifier(String s) {
    return s.matches("[A-Za-z][A-Za-z0-9_]*");
  }
}
