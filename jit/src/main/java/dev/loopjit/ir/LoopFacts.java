// What the front end learned of a method's loops, carried in the IR until the parallel pass reads it.
package dev.loopjit.ir;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The facts of a kernel's loops that the bytecode shows and the structured IR does not: for each loop,
 * the {@code @Parallel} variables in scope at its header; each loop's source line; and every variable
 * annotated {@code @Parallel} with where (so that one that is no loop counter is refused by name). The
 * front end makes them, {@code inline} adds each callee's, the {@code parallel} pass reads them and
 * leaves {@link #NONE}: passes share them through the IR only.
 *
 * @param parallelVars for each loop label, the {@code @Parallel} variables in scope at its header
 * @param loopSrc      each loop's source position
 * @param annotated    every {@code @Parallel} variable and where it is declared
 */
public record LoopFacts(Map<Label, List<Var>> parallelVars, Map<Label, Src> loopSrc, Map<Var, Src> annotated) {
  /** No facts: a kernel after the {@code parallel} pass, or written by hand. */
  public static final LoopFacts NONE = new LoopFacts(Map.of(), Map.of(), Map.of());

  public LoopFacts {
    parallelVars = Collections.unmodifiableMap(new LinkedHashMap<>(parallelVars));
    loopSrc = Collections.unmodifiableMap(new LinkedHashMap<>(loopSrc));
    annotated = Collections.unmodifiableMap(new LinkedHashMap<>(annotated));
  }

  /** These facts and {@code other}'s (an inlined callee's loops), {@code other}'s winning where both name one. */
  public LoopFacts plus(LoopFacts other) {
    if (other.equals(NONE)) return this;
    Map<Label, List<Var>> p = new LinkedHashMap<>(parallelVars);
    p.putAll(other.parallelVars);
    Map<Label, Src> l = new LinkedHashMap<>(loopSrc);
    l.putAll(other.loopSrc);
    Map<Var, Src> a = new LinkedHashMap<>(annotated);
    a.putAll(other.annotated);
    return new LoopFacts(p, l, a);
  }
}
