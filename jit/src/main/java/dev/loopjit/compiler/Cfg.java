// The control-flow graph of one method: basic blocks, dominators, natural loops, region post-dominators.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import java.lang.classfile.Instruction;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.BranchInstruction;
import java.lang.classfile.instruction.LookupSwitchInstruction;
import java.lang.classfile.instruction.ReturnInstruction;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.classfile.instruction.TableSwitchInstruction;
import java.lang.classfile.instruction.ThrowInstruction;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Basic blocks of a method with the analyses the {@link Structurer} needs. javac emits reducible
 * control flow; anything irreducible is refused.
 */
final class Cfg {
  /** How a block ends (filled by the Translator). */
  sealed interface Exit {}

  record Jump(Node to) implements Exit {}

  record Branch(Expr cond, Node ifTrue, Node ifFalse, Src src) implements Exit {}

  /** A switch: {@code values.get(i)} selects {@code targets.get(i)}; anything else {@code dflt}. */
  record Table(Expr selector, List<Integer> values, List<Node> targets, Node dflt, Src src) implements Exit {}

  record Ret(Expr value, Src src) implements Exit {}

  /** A basic block. */
  static final class Node {
    final int id, startBci, first, last; // instruction indices, inclusive
    final List<Node> succs = new ArrayList<>(), preds = new ArrayList<>();
    List<Stmt> stmts = List.of();
    Exit exit;
    int rpo = -1;
    Node idom;

    Node(int id, int startBci, int first, int last) {
      this.id = id;
      this.startBci = startBci;
      this.first = first;
      this.last = last;
    }

    @Override
    public String toString() {
      return "B" + id + "@" + startBci;
    }
  }

  /** Control flow the structurer cannot turn into structured IR, at the bytecode index {@code bci} (for the message's line). */
  static final class Unstructured extends IllegalStateException {
    final int bci;

    Unstructured(String what, int bci) {
      super(what + " at bci " + bci);
      this.bci = bci;
    }
  }

  /** A natural loop: its header and body (header included). */
  record Loop(Node header, Set<Node> body, List<Node> latches) {}

  final List<Node> nodes = new ArrayList<>();   // reachable, in reverse postorder
  final Map<Node, Loop> loops = new HashMap<>(); // by header
  private final Map<Node, Map<Node, Node>> ipdoms = new HashMap<>();

  /** Splits {@code code} into blocks and links them. */
  static Cfg build(MethodCode code) {
    List<MethodCode.Insn> insns = code.insns;
    TreeSet<Integer> leaders = new TreeSet<>(List.of(0));
    for (int i = 0; i < insns.size(); i++) {
      Instruction ins = insns.get(i).ins();
      List<Integer> targets = targets(code, ins);
      if (targets != null) {
        leaders.addAll(targets);
        if (i + 1 < insns.size()) leaders.add(insns.get(i + 1).bci());
      }
    }
    Map<Integer, Node> byBci = new HashMap<>();
    List<Node> all = new ArrayList<>();
    List<Integer> starts = new ArrayList<>(leaders);
    for (int k = 0; k < starts.size(); k++) {
      int first = code.indexOfBci.get(starts.get(k));
      int last = k + 1 < starts.size() ? code.indexOfBci.get(starts.get(k + 1)) - 1 : insns.size() - 1;
      Node n = new Node(k, starts.get(k), first, last);
      all.add(n);
      byBci.put(n.startBci, n);
    }
    for (int k = 0; k < all.size(); k++) {
      Node n = all.get(k);
      Instruction ins = insns.get(n.last).ins();
      List<Integer> targets = targets(code, ins);
      if (targets == null) {
        if (k + 1 < all.size()) link(n, all.get(k + 1));
      } else {
        for (int t : targets) link(n, byBci.get(t));
        if (ins instanceof BranchInstruction b && b.opcode() != Opcode.GOTO && b.opcode() != Opcode.GOTO_W) link(n, all.get(k + 1));
      }
    }
    Cfg cfg = new Cfg();
    cfg.analyze(all.get(0));
    return cfg;
  }

  /** Orders the blocks reachable from {@code entry} and finds dominators and loops (again, after edges changed). */
  void analyze(Node entry) {
    for (Node n : nodes) {
      n.rpo = -1;
      n.idom = null;
    }
    nodes.clear();
    loops.clear();
    ipdoms.clear();
    order(entry);
    dominators();
    findLoops();
  }

  /**
   * Folds the blocks javac makes for {@code &&} and {@code ||} back into one condition: a branch
   * whose only predecessor is a branch, that has no statements of its own and shares a target with
   * it, joins its predecessor's condition. Without this, structuring would copy the shared target
   * into both arms. Runs after translation (conditions are known) and re-analyses the graph.
   */
  void foldConditions() {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Node a : nodes) {
        if (!(a.exit instanceof Branch ba)) continue;
        for (Node b : List.of(ba.ifTrue(), ba.ifFalse())) {
          if (b == a || b.preds.size() != 1 || !b.stmts.isEmpty() || !(b.exit instanceof Branch bb) || loops.containsKey(b)) continue;
          Expr c1 = ba.cond(), c2 = bb.cond();
          Node t = bb.ifTrue(), f = bb.ifFalse();
          Branch merged;
          if (b == ba.ifTrue() && ba.ifFalse() == f) merged = new Branch(and(c1, c2), t, f, ba.src());
          else if (b == ba.ifTrue() && ba.ifFalse() == t) merged = new Branch(and(c1, Structurer.not(c2)), f, t, ba.src());
          else if (b == ba.ifFalse() && ba.ifTrue() == t) merged = new Branch(or(c1, c2), t, f, ba.src());
          else if (b == ba.ifFalse() && ba.ifTrue() == f) merged = new Branch(or(c1, Structurer.not(c2)), f, t, ba.src());
          else continue;
          a.exit = merged;
          a.succs.clear();
          a.succs.add(merged.ifTrue());
          if (merged.ifFalse() != merged.ifTrue()) a.succs.add(merged.ifFalse());
          for (Node x : List.of(t, f)) {
            x.preds.remove(b);
            if (!x.preds.contains(a)) x.preds.add(a);
          }
          b.preds.clear();
          changed = true;
          break;
        }
        if (changed) break;
      }
      if (changed) analyze(nodes.get(0));
    }
  }

  private static Expr and(Expr a, Expr b) {
    return new Expr.Logic(dev.loopjit.ir.Op.Logic.AND, a, b);
  }

  private static Expr or(Expr a, Expr b) {
    return new Expr.Logic(dev.loopjit.ir.Op.Logic.OR, a, b);
  }

  /** Branch targets of {@code ins} (empty for return/throw), or null if it falls through only. */
  private static List<Integer> targets(MethodCode code, Instruction ins) {
    return switch (ins) {
      case BranchInstruction b -> List.of(code.bciOf(b.target()));
      case TableSwitchInstruction t -> {
        List<Integer> l = new ArrayList<>(List.of(code.bciOf(t.defaultTarget())));
        for (SwitchCase c : t.cases()) l.add(code.bciOf(c.target()));
        yield l;
      }
      case LookupSwitchInstruction t -> {
        List<Integer> l = new ArrayList<>(List.of(code.bciOf(t.defaultTarget())));
        for (SwitchCase c : t.cases()) l.add(code.bciOf(c.target()));
        yield l;
      }
      case ReturnInstruction r -> List.of();
      case ThrowInstruction t -> List.of();
      default -> null;
    };
  }

  private static void link(Node a, Node b) {
    if (!a.succs.contains(b)) {
      a.succs.add(b);
      b.preds.add(a);
    }
  }

  private void order(Node entry) {
    List<Node> post = new ArrayList<>();
    Set<Node> seen = new LinkedHashSet<>();
    // iterative DFS keeps deep methods off the Java stack
    List<Object[]> stack = new ArrayList<>();
    stack.add(new Object[] {entry, 0});
    seen.add(entry);
    while (!stack.isEmpty()) {
      Object[] top = stack.get(stack.size() - 1);
      Node n = (Node) top[0];
      int i = (int) top[1];
      if (i < n.succs.size()) {
        top[1] = i + 1;
        Node s = n.succs.get(i);
        if (seen.add(s)) stack.add(new Object[] {s, 0});
      } else {
        post.add(n);
        stack.remove(stack.size() - 1);
      }
    }
    for (int i = post.size() - 1; i >= 0; i--) {
      post.get(i).rpo = nodes.size();
      nodes.add(post.get(i));
    }
    for (Node n : nodes) n.preds.removeIf(p -> p.rpo < 0);
  }

  private void dominators() {
    Node entry = nodes.get(0);
    entry.idom = entry;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Node n : nodes.subList(1, nodes.size())) {
        Node d = null;
        for (Node p : n.preds) if (p.idom != null) d = d == null ? p : intersect(p, d);
        if (d != n.idom) {
          n.idom = d;
          changed = true;
        }
      }
    }
  }

  private static Node intersect(Node a, Node b) {
    while (a != b) {
      while (a.rpo > b.rpo) a = a.idom;
      while (b.rpo > a.rpo) b = b.idom;
    }
    return a;
  }

  boolean dominates(Node a, Node b) {
    for (Node n = b; ; n = n.idom) {
      if (n == a) return true;
      if (n.idom == n) return false;
    }
  }

  private void findLoops() {
    for (Node u : nodes)
      for (Node h : u.succs) {
        if (h.rpo > u.rpo) continue;
        if (!dominates(h, u)) throw new Unstructured("irreducible control flow", h.startBci);
        Loop l = loops.computeIfAbsent(h, x -> new Loop(x, new LinkedHashSet<>(List.of(x)), new ArrayList<>()));
        l.latches().add(u);
        List<Node> work = new ArrayList<>(List.of(u));
        while (!work.isEmpty()) {
          Node n = work.remove(work.size() - 1);
          if (l.body().add(n)) work.addAll(n.preds);
        }
      }
  }

  /** The smallest loop containing {@code n}, or null. */
  Loop innermostLoop(Node n) {
    Loop best = null;
    for (Loop l : loops.values())
      if (l.body().contains(n) && (best == null || l.body().size() < best.body().size())) best = l;
    return best;
  }

  /**
   * The immediate post-dominator of {@code n} inside a region: the body of loop {@code loop}
   * (edges leaving the body or returning to its header go to EXIT), or the whole method when
   * {@code loop} is null (returns go to EXIT). Null means EXIT.
   */
  Node ipdom(Node n, Loop loop) {
    return ipdoms.computeIfAbsent(loop == null ? null : loop.header(), h -> postDominators(loop)).get(n);
  }

  private Map<Node, Node> postDominators(Loop loop) {
    List<Node> region = loop == null ? nodes : nodes.stream().filter(loop.body()::contains).toList();
    int size = region.size(), exit = size;
    Map<Node, Integer> index = new HashMap<>();
    for (int i = 0; i < size; i++) index.put(region.get(i), i);
    BitSet[] pd = new BitSet[size];
    for (int i = 0; i < size; i++) {
      pd[i] = new BitSet();
      pd[i].set(0, size + 1);
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int i = size - 1; i >= 0; i--) {
        Node n = region.get(i);
        BitSet meet = null;
        if (n.succs.isEmpty()) meet = bit(exit);
        for (Node s : n.succs) {
          Integer j = index.get(s);
          BitSet other = j == null || (loop != null && s == loop.header()) ? bit(exit) : pd[j];
          if (meet == null) meet = (BitSet) other.clone();
          else meet.and(other);
        }
        meet.set(i);
        if (!meet.equals(pd[i])) {
          pd[i] = meet;
          changed = true;
        }
      }
    }
    Map<Node, Node> result = new HashMap<>();
    for (int i = 0; i < size; i++) {
      BitSet strict = (BitSet) pd[i].clone();
      strict.clear(i);
      Node best = null;
      for (int j = strict.nextSetBit(0); j >= 0 && j < size; j = strict.nextSetBit(j + 1)) {
        BitSet rest = (BitSet) strict.clone();
        rest.clear(j);
        BitSet pj = (BitSet) pd[j].clone();
        pj.clear(j);
        if (pj.equals(rest)) best = region.get(j);
      }
      result.put(region.get(i), best);
    }
    return result;
  }

  private static BitSet bit(int i) {
    BitSet b = new BitSet();
    b.set(i);
    return b;
  }
}
