// The statements of the IR: structured control flow only (no gotos), each with its source position.
package dev.loopjit.ir;

import java.util.List;

/** A statement; {@link #src()} is where it came from, for error messages. */
public sealed interface Stmt {
  Src src();

  /** A sequence. */
  record Block(List<Stmt> stmts, Src src) implements Stmt {
    public Block {
      stmts = List.copyOf(stmts);
    }

    public Block(List<Stmt> stmts) {
      this(stmts, Src.NONE);
    }

    public static final Block EMPTY = new Block(List.of(), Src.NONE);

    public boolean isEmpty() {
      return stmts.isEmpty();
    }

    /** The statements, those of nested blocks in their place. */
    public List<Stmt> flat() {
      List<Stmt> out = new java.util.ArrayList<>();
      for (Stmt s : stmts) {
        if (s instanceof Block b) out.addAll(b.flat());
        else out.add(s);
      }
      return out;
    }
  }

  /** {@code var = value}. */
  record Assign(Var var, Expr value, Src src) implements Stmt {}

  /** {@code array[index] = value}; HALF elements round the FLOAT value to nearest even. */
  record Store(Expr array, Expr index, Expr value, Src src) implements Stmt {}

  /** Evaluates a call for its effect, discarding any value. */
  record Eval(Expr call, Src src) implements Stmt {}

  /** {@code if (cond) then else otherwise}. */
  record If(Expr cond, Block then, Block otherwise, Src src) implements Stmt {}

  /**
   * {@code label: for (;;) { body; update }}. Leaves only by Break (or Return);
   * {@code Continue(label)} runs {@code update} and starts the next iteration.
   */
  record Loop(Label label, Block body, Block update, Src src) implements Stmt {}

  /**
   * {@code label: switch (selector) { cases }} on an INT; cases run in order and fall through
   * into the next unless they Break, as in Java and C.
   */
  record Switch(Label label, Expr selector, List<Case> cases, Src src) implements Stmt {
    public Switch {
      cases = List.copyOf(cases);
    }
  }

  /** One case: the values that select it (empty for {@code default}) and its statements. */
  record Case(List<Integer> values, Block body) {
    public Case {
      values = List.copyOf(values);
    }

    public boolean isDefault() {
      return values.isEmpty();
    }
  }

  /** {@code label: { body }}, which a {@code Break(label)} leaves; the inliner's frame for a call. */
  record Labeled(Label label, Block body, Src src) implements Stmt {}

  /** Leaves the Loop, Switch or Labeled block {@code target}. */
  record Break(Label target, Src src) implements Stmt {}

  /** Starts the next iteration of Loop {@code target} (after its update). */
  record Continue(Label target, Src src) implements Stmt {}

  /** Returns from the kernel; {@code value} is null in void methods (kernels are void). */
  record Return(Expr value, Src src) implements Stmt {}
}
