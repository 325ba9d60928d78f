// Vector values in a method's local variables: which may be changed in place (v.setX(…)) with Java's meaning, and which may be shared.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Read;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A vector value (Float4, Int3, …) in a kernel is its fields, one variable each. In Java it is an
 * object, and a setter changes it for every reference to it. A setter here assigns the fields of
 * the local variable it is called on, which keeps Java's meaning exactly when no other variable
 * can refer to the same object. So every copy of a reference is recorded — one local assigned from
 * another ({@code Float4 b = a;}), a value chosen by {@code ?:} or a branch, a helper's parameter
 * (the caller's object), a helper's result (which may be its parameter) — and after the whole method is translated, {@link #check()} refuses a setter
 * on a variable that may share its object, naming the setter's line. Values made by
 * {@code new Float4(…)}, an operation ({@code Float4.add}) or read from memory
 * ({@code VectorFloat4.get(i)}, a copy in Java too) are the variable's own.
 */
final class ValueLocals {
  /** The field variables of each local variable slot holding a value. */
  private final Set<List<Var>> locals = new HashSet<>();
  /** Field variables that may hold an object another variable refers to too. */
  private final Set<List<Var>> shared = new HashSet<>();
  /** Field variables that are references but not a local's own (helper parameters, ?: results). */
  private final Set<List<Var>> references = new HashSet<>();
  private final List<Setter> setters = new ArrayList<>();

  private record Setter(List<Var> vars, Src src, String display) {}

  /** {@code vars} are a local variable's fields. */
  void local(List<Var> vars) {
    locals.add(List.copyOf(vars));
  }

  /** {@code vars} hold an object another variable may refer to (a helper's parameter, a ?: result). */
  void sharedReference(List<Var> vars) {
    references.add(List.copyOf(vars));
    shared.add(List.copyOf(vars));
  }

  /** The variables whose reads {@code v} is exactly (a reference to a variable's object), or null. */
  List<Var> referenceOf(ValueObjects.Value v) {
    List<Var> vars = new ArrayList<>();
    for (Expr f : v.fields()) {
      if (!(f instanceof Read r)) return null;
      vars.add(r.var());
    }
    return locals.contains(vars) || references.contains(vars) ? vars : null;
  }

  /** {@code v} is assigned to the local variable whose fields are {@code into}: if it refers to another variable's object, both may now share it. */
  void assigned(ValueObjects.Value v, List<Var> into) {
    List<Var> from = referenceOf(v);
    if (from == null || from.equals(into)) return;
    shared.add(from);
    shared.add(List.copyOf(into));
  }

  /** {@code v} is one of the values a ?: or branch chooses between: the variable it refers to may now be shared. */
  void chosen(ValueObjects.Value v) {
    List<Var> from = referenceOf(v);
    if (from != null) shared.add(from);
  }

  /** The local variable's fields a setter called on {@code v} assigns, or null when {@code v} is not a local variable. */
  List<Var> setterTarget(ValueObjects.Value v, Src src, String display) {
    List<Var> vars = referenceOf(v);
    if (vars == null || !locals.contains(vars)) return null;
    setters.add(new Setter(vars, src, display));
    return vars;
  }

  /** Refuses the first setter on a variable that may share its object with another. */
  void check() {
    for (Setter s : setters)
      if (shared.contains(s.vars()))
        throw Refusal.error(s.src(), s.display(), "this vector may be the same object as another variable's (assigned from one, chosen by ?: or a "
            + "branch, a helper's parameter or result), and a change in place here would not reach the other as it does in Java: copy it first with new …(…), "
            + "or build a new value instead of " + s.display().substring(s.display().indexOf('.') + 1) + "(…)");
  }
}
