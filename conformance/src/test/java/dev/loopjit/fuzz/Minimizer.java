// Shrinks a kernel that shows a problem, keeping the problem: fewer work-items, fewer statements, simpler expressions.
package dev.loopjit.fuzz;

import dev.loopjit.fuzz.Code.Ex;
import dev.loopjit.fuzz.Code.St;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Greedy delta debugging on the {@link Code} tree. Each pass tries one kind of edit at every place
 * in turn and keeps it when {@code reproduces} still holds: fewer work-items; deleting a statement;
 * replacing a statement by one of its blocks; replacing an expression by a literal of its type or by
 * one of its operands of the same type. Passes repeat until none makes progress or the budget of
 * attempts is spent. Edits that do not compile simply do not reproduce.
 */
final class Minimizer {
  private final Predicate<FuzzKernel> reproduces;
  private int attempts;

  private Minimizer(Predicate<FuzzKernel> reproduces, int attempts) {
    this.reproduces = reproduces;
    this.attempts = attempts;
  }

  /** The smallest kernel found for which {@code reproduces} holds ({@code k} itself must). */
  static FuzzKernel minimise(FuzzKernel k, Predicate<FuzzKernel> reproduces, int maxAttempts) {
    return new Minimizer(reproduces, maxAttempts).run(k);
  }

  private boolean tryIt(FuzzKernel candidate) {
    if (attempts <= 0) return false;
    attempts--;
    return reproduces.test(candidate);
  }

  private FuzzKernel run(FuzzKernel k) {
    k = smaller(k);
    boolean progress = true;
    while (progress && attempts > 0) {
      progress = false;
      for (int pass = 0; pass < 4; pass++) {
        int before = k.size();
        for (int at = 0; attempts > 0; ) {
          FuzzKernel c = edit(k, pass, at);
          if (c == null) break;
          if (!c.source().equals(k.source()) && tryIt(c)) k = c;
          else at++;
        }
        progress |= k.size() < before;
      }
    }
    return k;
  }

  private FuzzKernel smaller(FuzzKernel k) {
    for (int n : new int[] {1, 2, 4}) {
      if (n >= k.n()) break;
      FuzzKernel c = k.dims() == null ? k.withSize(n, null)
          : k.withSize(n == 1 ? 1 : k.n(), n == 1 ? new int[] {1, 1, 1} : k.dims());
      if (c.n() < k.n() && tryIt(c)) return c;
    }
    return k;
  }

  /** Edit number {@code at} of kind {@code pass} applied to {@code k}; null when there is no such edit; k when it changes nothing. */
  private static FuzzKernel edit(FuzzKernel k, int pass, int at) {
    int[] counter = {at};
    List<List<St>> lists = List.of(k.members(), k.prefix(), k.body(), k.suffix());
    List<List<St>> out = new ArrayList<>();
    boolean done = false;
    for (List<St> l : lists) {
      if (done) {
        out.add(l);
        continue;
      }
      List<St> e = switch (pass) {
        case 0 -> deleteStatement(l, counter);
        case 1 -> unwrapStatement(l, counter);
        case 2 -> exprEdit(l, counter, true);
        default -> exprEdit(l, counter, false);
      };
      if (e != null) {
        done = true;
        out.add(e);
      } else out.add(l);
    }
    if (!done) return null;
    return k.withCode(out.get(0), out.get(1), out.get(2), out.get(3));
  }

  // Each walks statements in order, counting down counter[0]; at zero it makes its edit and returns the new list.

  private static List<St> deleteStatement(List<St> l, int[] counter) {
    for (int i = 0; i < l.size(); i++) {
      if (counter[0]-- == 0) {
        List<St> c = new ArrayList<>(l);
        c.remove(i);
        return c;
      }
      St s = l.get(i);
      for (int b = 0; b < s.blocks().size(); b++) {
        List<St> inner = deleteStatement(s.blocks().get(b), counter);
        if (inner != null) return replace(l, i, withBlock(s, b, inner));
      }
    }
    return null;
  }

  private static List<St> unwrapStatement(List<St> l, int[] counter) {
    for (int i = 0; i < l.size(); i++) {
      St s = l.get(i);
      for (int b = 0; b < s.blocks().size(); b++) {
        if (counter[0]-- == 0) {
          List<St> c = new ArrayList<>(l.subList(0, i));
          c.addAll(s.blocks().get(b));
          c.addAll(l.subList(i + 1, l.size()));
          return c;
        }
      }
      for (int b = 0; b < s.blocks().size(); b++) {
        List<St> inner = unwrapStatement(s.blocks().get(b), counter);
        if (inner != null) return replace(l, i, withBlock(s, b, inner));
      }
    }
    return null;
  }

  private static List<St> exprEdit(List<St> l, int[] counter, boolean literal) {
    for (int i = 0; i < l.size(); i++) {
      St s = l.get(i);
      for (int e = 0; e < s.exprs().size(); e++) {
        Ex edited = exprEdit(s.exprs().get(e), counter, literal);
        if (edited != null) {
          List<Ex> exprs = new ArrayList<>(s.exprs());
          exprs.set(e, edited);
          return replace(l, i, new St(s.template(), exprs, s.blocks()));
        }
      }
      for (int b = 0; b < s.blocks().size(); b++) {
        List<St> inner = exprEdit(s.blocks().get(b), counter, literal);
        if (inner != null) return replace(l, i, withBlock(s, b, inner));
      }
    }
    return null;
  }

  /** Pre-order over the expression: the node at the counter becomes a literal, or its first operand of the same type. */
  private static Ex exprEdit(Ex x, int[] counter, boolean literal) {
    if (counter[0]-- == 0) {
      if (literal) {
        String zero = simplest(x.type());
        return x.template().equals(zero) ? x : Ex.leaf(x.type(), zero);
      }
      for (Ex kid : x.kids()) if (kid.type() == x.type()) return kid;
      return x;
    }
    for (int k = 0; k < x.kids().size(); k++) {
      Ex e = exprEdit(x.kids().get(k), counter, literal);
      if (e != null) {
        List<Ex> kids = new ArrayList<>(x.kids());
        kids.set(k, e);
        return x.withKids(kids);
      }
    }
    return null;
  }

  private static String simplest(JType t) {
    return switch (t) {
      case BOOLEAN -> "false";
      case BYTE -> "((byte) 0)";
      case SHORT -> "((short) 0)";
      case CHAR -> "((char) 0)";
      case INT -> "0";
      case LONG -> "0L";
      case FLOAT -> "0f";
      case DOUBLE -> "0d";
    };
  }

  private static List<St> replace(List<St> l, int i, St s) {
    List<St> c = new ArrayList<>(l);
    c.set(i, s);
    return c;
  }

  private static St withBlock(St s, int b, List<St> block) {
    List<List<St>> blocks = new ArrayList<>(s.blocks());
    blocks.set(b, block);
    return new St(s.template(), s.exprs(), blocks);
  }
}
