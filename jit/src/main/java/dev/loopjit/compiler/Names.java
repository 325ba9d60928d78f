// Unique variable and label names for one kernel, across the kernel and every method inlined into it.
package dev.loopjit.compiler;

import dev.loopjit.ir.Label;
import dev.loopjit.ir.Type;
import dev.loopjit.ir.Var;
import java.util.HashSet;
import java.util.Set;

/** Hands out names that are unique within a kernel. */
final class Names {
  private final Set<String> used = new HashSet<>();
  /** Compiler temporaries this supply made (values the operand stack held): the front end and inline copy them into the IR ({@code KernelIR.temps()}), which passes read. */
  final Set<Var> temps = new HashSet<>();
  /** Private copies of static final tables, one per field: no kernel may write them. */
  final java.util.Map<String, Var> tables = new java.util.HashMap<>();
  /** The fields of its object an instance-method kernel reads, each a kernel argument ({@link ReceiverFields}). */
  final java.util.Map<java.lang.reflect.Field, Var> fields = new java.util.HashMap<>();
  private int labels;
  /** The fields a kernel reads through its object parameters, in their arguments' order ({@link ObjectFields}). */
  final java.util.Map<ObjectFields.Read, Var> objectFields = new java.util.TreeMap<>(
      java.util.Comparator.comparingInt(ObjectFields.Read::param).thenComparing(ObjectFields.Read::path));
  /** The AtomicIntegers the kernel makes, by the offset of their {@code new}: each a hidden cell parameter ({@link AtomicCells}). */
  final java.util.Map<Integer, Var> madeCells = new java.util.TreeMap<>();

  /** A variable named {@code base}, or {@code base_2}, {@code base_3}, … if taken. */
  Var fresh(String base, Type type) {
    String name = base;
    for (int k = 2; !used.add(name); k++) name = base + "_" + k;
    return new Var(name, type);
  }

  /** A fresh compiler temporary. */
  Var temp(String base, Type type) {
    Var v = fresh(base, type);
    temps.add(v);
    return v;
  }

  /** Reserves a name so that {@link #fresh} does not hand it out. */
  void reserve(String name) {
    used.add(name);
  }

  Label label() {
    return new Label("L" + (++labels));
  }
}
