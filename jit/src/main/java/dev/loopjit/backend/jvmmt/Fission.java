// Whether a KernelContext kernel with barriers can run its work-group as loops split at the barriers, and which values live across them.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Work-group fission, as PoCL runs work-groups on a CPU: the kernel's statements between barriers
 * (a region) run for every work-item of the group in a loop, one region after the other, so a
 * barrier is simply the end of a loop; no thread per work-item, no waiting. Statements that
 * contain barriers (a loop, an if, a helper's inlined block) run once for the group, and what
 * decides them (a condition, a {@code break} out of them) is computed by every work-item and must
 * agree, as OpenCL requires of control flow around a barrier; a work-item that returns takes no
 * part in later regions, as on the jvm device. A variable used in more than one region keeps one
 * value per work-item (an array over the group); the others are plain locals. Kernels this does
 * not fit (a barrier in a switch, a private or aliasing array or an assigned parameter living
 * across barriers) run one thread per work-item instead.
 *
 * @param perItem variables that live across regions, one value per work-item
 * @param local   variables holding the group's local arrays (one value for the group)
 */
record Fission(Set<Var> perItem, Set<Var> local, Map<Stmt, Boolean> barriers) {
  /** The fission of {@code ir}, or null when it has no barrier or does not fit. */
  static Fission of(KernelIR ir) {
    if (!(ir.launch() instanceof Launch.Explicit)) return null;
    Map<Stmt, Boolean> barriers = new IdentityHashMap<>();
    if (!contains(ir.body(), barriers)) return null;
    Analysis a = new Analysis(barriers);
    if (!a.group(ir.body().stmts())) return null;
    Set<Var> params = new HashSet<>();
    for (KernelArg arg : ir.args()) params.add(arg.var());
    Set<Var> perItem = new HashSet<>(), local = new HashSet<>();
    for (var e : a.uses.entrySet()) {
      Var v = e.getKey();
      if (v.type() instanceof ArrayType t) {
        if (t.space() == ArrayType.Space.LOCAL) local.add(v);
        else if (e.getValue().size() > 1 && !params.contains(v)) return null;   // a private or aliasing array across barriers
        continue;
      }
      if (params.contains(v)) {
        if (a.assigned.contains(v)) return null;   // a parameter the work-items change: each needs its own
        continue;
      }
      if (e.getValue().size() > 1) perItem.add(v);
    }
    return new Fission(Set.copyOf(perItem), Set.copyOf(local), barriers);
  }

  /** Whether {@code s} is or contains a barrier. */
  boolean hasBarrier(Stmt s) {
    return barriers.getOrDefault(s, false);
  }

  static boolean isBarrier(Stmt s) {
    return s instanceof Eval e && e.call() instanceof Call c && c.op().isBarrier();
  }

  private static boolean contains(Stmt s, Map<Stmt, Boolean> memo) {
    boolean found = switch (s) {
      case Block b -> { boolean f = false; for (Stmt x : b.stmts()) f |= contains(x, memo); yield f; }
      case If i -> contains(i.then(), memo) | contains(i.otherwise(), memo);
      case Loop l -> contains(l.body(), memo) | contains(l.update(), memo);
      case Switch sw -> { boolean f = false; for (Case c : sw.cases()) f |= contains(c.body(), memo); yield f; }
      case Labeled l -> contains(l.body(), memo);
      default -> isBarrier(s);
    };
    memo.put(s, found);
    return found;
  }

  /** Walks the kernel as the emitter will, counting the regions each variable is used in. */
  private static final class Analysis {
    final Map<Stmt, Boolean> barriers;
    final Map<Var, Set<Integer>> uses = new HashMap<>();
    final Set<Var> assigned = new HashSet<>();
    int regions;

    Analysis(Map<Stmt, Boolean> barriers) {
      this.barriers = barriers;
    }

    boolean group(List<Stmt> stmts) {
      int run = -1;
      for (Stmt s : stmts) {
        if (isBarrier(s)) {
          run = -1;
        } else if (barriers.getOrDefault(s, false)) {
          run = -1;
          if (!structured(s)) return false;
        } else {
          if (run < 0) run = regions++;
          mention(s, run);
        }
      }
      return true;
    }

    boolean structured(Stmt s) {
      return switch (s) {
        case Block b -> group(b.stmts());
        case If i -> {
          int r = regions++;
          mention(new Eval(i.cond(), i.src()), r);
          yield group(i.then().stmts()) && group(i.otherwise().stmts());
        }
        case Loop l -> group(l.body().stmts()) && group(l.update().stmts());
        case Labeled l -> group(l.body().stmts());
        default -> false;   // a barrier in a switch
      };
    }

    void mention(Stmt s, int region) {
      new Rewriter() {
        @Override
        protected Expr expr(Expr e) {
          if (e instanceof Read r) uses.computeIfAbsent(r.var(), k -> new HashSet<>()).add(region);
          return e;
        }

        @Override
        protected List<Stmt> stmts(Stmt x) {
          if (x instanceof Assign a) {
            uses.computeIfAbsent(a.var(), k -> new HashSet<>()).add(region);
            assigned.add(a.var());
          }
          return List.of(x);
        }
      }.rewrite(s);
    }
  }
}
