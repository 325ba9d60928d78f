// Pass "barriers" (OpenCL C and SPIR-V): no barrier inside an if or after a return; flags guard the code around them instead (a PoCL 3.1 workaround).
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Uses;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PoCL 3.1 runs a work-group's work-items as loops between barriers, and gets kernels wrong where a
 * barrier sits under a condition — inside an {@code if}, or after an early {@code return} (the code
 * after it is conditional too): work-item 0's guarded block then ran once per work-item of the
 * group (docs/DRIVER-WORKAROUNDS.md §2). OpenCL allows such barriers when the condition is the same
 * for the whole group, and a KernelContext kernel may have them, so on targets whose drivers need
 * it ({@link Target#conditionalBarriers()} false) this pass rewrites a kernel with such a barrier so
 * that every barrier is at the top of the kernel or of a loop, and a loop with barriers is followed by
 * one (the fuzzer found PoCL running the code after such a loop with work-item 0's ids when the
 * loop's exit depended on a flag): a {@code return} clears a flag
 * ({@code live}), a {@code break} out of a block around barriers sets one, the condition of an
 * {@code if} around barriers is kept in a variable, and the statements between barriers run under
 * the conjunction of those ({@code if (live && c) …}). A loop around barriers is left at its first
 * iteration by a work-item whose guard is false. Every work-item of a group that takes no exit runs
 * exactly what it ran before; the others run no statement, only the barriers (extra barriers change
 * no result). A kernel with no barrier under a condition is not changed.
 */
final class FlatBarriers implements Pass {
  @Override
  public String name() {
    return "barriers";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    if (cx.target.conditionalBarriers() || !(ir.launch() instanceof Launch.Explicit) || !hasBarrier(ir.body()) || !conditional(ir.body()))
      return ir;
    List<Stmt> top = ir.body().flat();
    Stmt last = top.isEmpty() ? null : top.getLast();
    boolean returnsAtEnd = last instanceof Return r && r.value() == null;   // the end of the kernel: no flag needed
    Lowering l = new Lowering(cx);
    List<Stmt> body = l.stmts(returnsAtEnd ? top.subList(0, top.size() - 1) : top);
    List<Stmt> out = new ArrayList<>();
    if (l.live != null) out.add(new Assign(l.live, Const.of(true), ir.body().src()));
    out.addAll(body);
    if (returnsAtEnd) out.add(last);
    return ir.withBody(new Block(out, ir.body().src()));
  }

  static boolean isBarrier(Stmt s) {
    return s instanceof Eval e && e.call() instanceof Call c && c.op().isBarrier();
  }

  static boolean hasBarrier(Stmt s) {
    return Uses.of(s).barriers();
  }

  /**
   * Whether some barrier is under a condition: inside an if or a switch, after a return (in
   * program order, or anywhere in a loop around it), or after a break out of a block around it.
   */
  static boolean conditional(Block body) {
    return new Conditional().walk(body, Set.of());
  }

  /** The walk behind {@link #conditional}, in program order, remembering whether an exit came before. */
  private static final class Conditional {
    boolean exitSeen;

    boolean walk(Stmt s, Set<Label> blocks) {
      switch (s) {
        case Block b -> {
          for (Stmt x : b.stmts()) if (walk(x, blocks)) return true;
          return false;
        }
        case If i -> {
          if (hasBarrier(i)) return true;
          exitSeen |= exits(i, blocks);
          return false;
        }
        case Switch sw -> {
          if (hasBarrier(sw)) return true;
          exitSeen |= exits(sw, blocks);
          return false;
        }
        case Loop l -> {
          if (hasBarrier(l) && exits(l, blocks)) return true;   // an exit in one iteration comes before the barriers of the next
          return walk(l.body(), blocks) || walk(l.update(), blocks);
        }
        case Labeled l -> {
          Set<Label> inner = new LinkedHashSet<>(blocks);
          if (hasBarrier(l)) inner.add(l.label());
          return walk(l.body(), inner);
        }
        case Return r -> {
          exitSeen = true;
          return false;
        }
        case Break b -> {
          exitSeen |= blocks.contains(b.target());
          return false;
        }
        default -> {
          return isBarrier(s) && exitSeen;
        }
      }
    }
  }

  /** Whether {@code s} holds a return, or a break to one of {@code blocks}. */
  static boolean exits(Stmt s, Set<Label> blocks) {
    boolean[] found = {false};
    IrWalk.walk(s, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        found[0] |= x instanceof Return || x instanceof Break b && blocks.contains(b.target());
      }
    });
    return found[0];
  }

  /** The rewriting, in program order, with the flags and conditions in force. */
  private static final class Lowering {
    final Context cx;
    /** False once the work-item returned; null until a return is seen. */
    Var live;
    /** The flag of each block around barriers that a break leaves: true once it left. */
    final Map<Label, Var> left = new HashMap<>();
    /** The flags that may have changed by now, each as the condition "still here". */
    final List<Expr> flags = new ArrayList<>();
    /** The conditions of the ifs around barriers this statement is in. */
    final List<Expr> path = new ArrayList<>();

    Lowering(Context cx) {
      this.cx = cx;
    }

    List<Stmt> stmts(List<Stmt> in) {
      List<Stmt> out = new ArrayList<>(), group = new ArrayList<>();
      for (Stmt s : in) {
        if (s instanceof Block b) {
          flush(group, out);
          out.addAll(stmts(b.stmts()));
        } else if (isBarrier(s)) {
          flush(group, out);
          out.add(s);
        } else if (!hasBarrier(s) && !exits(s, left.keySet())) {
          group.add(s);
        } else {
          flush(group, out);
          out.addAll(one(s));
        }
      }
      flush(group, out);
      return out;
    }

    /** Statements with no barrier and no exit, under the guard now in force. */
    private void flush(List<Stmt> group, List<Stmt> out) {
      if (group.isEmpty()) return;
      Expr g = guard();
      Src src = group.get(0).src();
      if (g == null) out.addAll(group);
      else out.add(new If(g, new Block(group, src), Block.EMPTY, src));
      group.clear();
    }

    /** The guard: every flag and condition in force, or null when none is. */
    Expr guard() {
      Expr g = null;
      for (Expr e : path) g = g == null ? e : new Logic(Op.Logic.AND, g, e);
      for (Expr e : flags) g = g == null ? e : new Logic(Op.Logic.AND, g, e);
      return g;
    }

    /** A statement with a barrier or an exit in it. */
    private List<Stmt> one(Stmt s) {
      return switch (s) {
        case If i when hasBarrier(i) -> {
          Var c = cx.names.fresh("group_if", Prim.BOOLEAN);
          List<Stmt> out = new ArrayList<>();
          out.add(new Assign(c, Const.of(false), i.src()));
          out.addAll(guarded(new Assign(c, i.cond(), i.src())));
          path.add(new Read(c));
          out.addAll(stmts(i.then().stmts()));
          path.set(path.size() - 1, new Unary(Op.Unary.NOT, new Read(c)));
          out.addAll(stmts(i.otherwise().stmts()));
          path.removeLast();
          yield out;
        }
        case If i -> {
          // exits but no barrier: the branches as statement lists, so what follows an exit in them is guarded too
          Expr g = guard();
          List<Expr> outerPath = new ArrayList<>(path);
          List<Expr> outerFlags = new ArrayList<>(flags);
          path.clear();
          List<Stmt> then = stmts(i.then().stmts());
          flags.clear();
          flags.addAll(outerFlags);
          List<Stmt> otherwise = stmts(i.otherwise().stmts());
          path.addAll(outerPath);
          // flags set in either branch are in force after the if
          Stmt inner = new If(i.cond(), new Block(then, i.then().src()), new Block(otherwise, i.otherwise().src()), i.src());
          activate(i);
          yield g == null ? List.of(inner) : List.of(new If(g, new Block(List.of(inner), i.src()), Block.EMPTY, i.src()));
        }
        case Loop l when hasBarrier(l) -> {
          activate(l);
          Expr g = guard();
          List<Stmt> body = new ArrayList<>();
          if (g != null) body.add(new If(new Unary(Op.Unary.NOT, g), new Block(List.of(new Break(l.label(), l.src()))), Block.EMPTY, l.src()));
          body.addAll(stmts(l.body().stmts()));
          List<Stmt> update = stmts(l.update().stmts());
          // and a barrier after the loop, so that its exit, like its back edge, leads to a barrier: where the
          // exit led straight to the kernel's end, PoCL ran the code after the loop with work-item 0's ids
          Stmt after = new Eval(new Call(Intrinsic.BARRIER_LOCAL, null, List.of()), l.src());
          yield List.of(new Loop(l.label(), new Block(body, l.body().src()), new Block(update, l.update().src()), l.src()), after);
        }
        case Labeled l when hasBarrier(l) -> {
          Var flag = cx.names.fresh("left_block", Prim.BOOLEAN);
          left.put(l.label(), flag);
          List<Stmt> out = new ArrayList<>();
          out.add(new Assign(flag, Const.of(false), l.src()));
          out.addAll(stmts(l.body().stmts()));
          left.remove(l.label());
          flags.remove(new Unary(Op.Unary.NOT, new Read(flag)));
          yield out;
        }
        case Return r -> {
          List<Stmt> out = new ArrayList<>(guarded(new Assign(live(), Const.of(false), r.src())));
          activate(r);
          yield out;
        }
        case Break b when left.containsKey(b.target()) -> {
          List<Stmt> out = new ArrayList<>(guarded(new Assign(left.get(b.target()), Const.of(true), b.src())));
          activate(b);
          yield out;
        }
        case Loop l -> exitsToEnd(s, l.label());
        case Labeled l -> exitsToEnd(s, l.label());
        case Switch sw -> exitsToEnd(s, sw.label());
        default -> throw new IllegalStateException("barriers: unexpected " + s.getClass().getSimpleName());
      };
    }

    /**
     * A loop, block or switch with no barrier that returns or leaves a block around barriers: each
     * such exit sets its flag and leaves this statement ({@code break label}); the statement runs
     * under the guard, and the flags are in force after it.
     */
    private List<Stmt> exitsToEnd(Stmt s, Label label) {
      List<Stmt> rewritten = new Rewriter() {
        @Override
        protected List<Stmt> stmts(Stmt x) {
          if (x instanceof Return r) return List.of(new Assign(live(), Const.of(false), r.src()), new Break(label, r.src()));
          if (x instanceof Break b && left.containsKey(b.target()))
            return List.of(new Assign(left.get(b.target()), Const.of(true), b.src()), new Break(label, b.src()));
          return List.of(x);
        }
      }.rewrite(s);
      List<Stmt> out = guarded(rewritten.size() == 1 ? rewritten.get(0) : new Block(rewritten, s.src()));
      activate(s);
      return out;
    }

    private List<Stmt> guarded(Stmt s) {
      Expr g = guard();
      return g == null ? List.of(s) : List.of(new If(g, new Block(List.of(s), s.src()), Block.EMPTY, s.src()));
    }

    private Var live() {
      if (live == null) live = cx.names.fresh("live", Prim.BOOLEAN);
      return live;
    }

    /** Puts in force the flags of the exits in {@code s}. */
    private void activate(Stmt s) {
      IrWalk.walk(s, new IrWalk.Visitor() {
        @Override
        public void stmt(Stmt x) {
          Expr still = x instanceof Return ? new Read(live())
              : x instanceof Break b && left.containsKey(b.target()) ? new Unary(Op.Unary.NOT, new Read(left.get(b.target()))) : null;
          if (still != null && !flags.contains(still)) flags.add(still);
        }
      });
    }
  }
}
