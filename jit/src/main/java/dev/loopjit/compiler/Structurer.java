// Structure: turns the CFG of blocks into a tree of If, Loop, Switch, Break and Continue — no gotos.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A dominator-based structurer for javac's (reducible) control flow. Walking from the entry: a
 * loop header becomes a {@link Loop} whose body is its natural loop, a conditional branch an
 * {@link If} whose arms run to the branch's immediate post-dominator inside the current loop,
 * a switch a {@link Switch} whose cases run to the next case (fall-through) or its follow. Edges
 * to an enclosing construct's follow, header or update become Break and Continue. A block
 * outside the current region that only leads to returns is copied where it is reached.
 */
final class Structurer {
  private final Cfg cfg;
  private final Names names;
  /** Loop headers and their labels, for the parallel pass (a loop's header bci finds its @Parallel variable). */
  final Map<Label, Integer> loopHeaderBci = new LinkedHashMap<>();
  final Map<Label, Src> loopSrc = new HashMap<>();

  /** An enclosing construct that Break/Continue can name. */
  private record Frame(Label label, Cfg.Node header, Cfg.Node update, Cfg.Node follow) {}

  private Structurer(Cfg cfg, Names names) {
    this.cfg = cfg;
    this.names = names;
  }

  static Structurer run(Cfg cfg, Names names, List<Stmt> into) {
    Structurer s = new Structurer(cfg, names);
    into.addAll(s.seq(cfg.nodes.get(0), null, null, List.of()));
    return s;
  }

  private List<Stmt> seq(Cfg.Node n, Cfg.Loop region, Cfg.Node stop, List<Frame> frames) {
    List<Stmt> out = new ArrayList<>();
    int guard = 0;
    while (n != null && n != stop) {
      if (++guard > 100_000) throw new Cfg.Unstructured("structuring does not terminate", n.startBci);
      Stmt jump = jump(n, frames);
      if (jump != null) {
        out.add(jump);
        return out;
      }
      // Code that leaves the loop (the statements before a break, or a return) is outside its natural
      // loop; it is structured where it is reached, in the region that does contain it.
      if (region != null && !region.body().contains(n)) region = cfg.innermostLoop(n);
      Cfg.Loop loop = cfg.loops.get(n);
      if (loop != null) { // a header reached from inside its own body was a Continue above
        n = loop(loop, out, frames);
        continue;
      }
      out.addAll(n.stmts);
      switch (n.exit) {
        case Cfg.Ret r -> {
          out.add(new Return(r.value(), r.src()));
          return out;
        }
        case Cfg.Jump j -> n = j.to();
        case Cfg.Branch b -> {
          Cfg.Node join = cfg.ipdom(n, region);
          branch(b, region, join, join, frames, out);
          if (join == null) return out;
          n = join;
        }
        case Cfg.Table t -> {
          Cfg.Node join = cfg.ipdom(n, region);
          if (join == null) join = switchFollow(n, t, region);
          out.add(switchOf(t, region, join, frames));
          if (join == null) return out;
          n = join;
        }
      }
    }
    return out;
  }

  private Stmt jump(Cfg.Node n, List<Frame> frames) {
    for (int i = frames.size() - 1; i >= 0; i--) {
      Frame f = frames.get(i);
      if (f.header() != null && (n == f.header() || n == f.update())) return new Continue(f.label(), Src.NONE);
      if (n == f.follow()) return new Break(f.label(), Src.NONE);
    }
    return null;
  }

  /**
   * Whether {@code n} is where an enclosing loop starts over or ends. An enclosing loop's update
   * block does not count: javac merges the statements that end a body into it, and an inner loop
   * whose natural exit lands there must end with a break, not continue the outer loop past them.
   */
  private static boolean headerOrFollow(Cfg.Node n, List<Frame> frames) {
    for (Frame f : frames) if (n == f.header() || n == f.follow()) return true;
    return false;
  }

  private boolean leadsOnlyToReturns(Cfg.Node n) {
    List<Cfg.Node> work = new ArrayList<>(List.of(n));
    java.util.Set<Cfg.Node> seen = new java.util.HashSet<>();
    while (!work.isEmpty()) {
      Cfg.Node x = work.remove(work.size() - 1);
      if (!seen.add(x)) continue;
      if (cfg.loops.containsKey(x) || seen.size() > 64) return false;
      work.addAll(x.succs);
    }
    return true;
  }

  /** Structures {@code loop}, appends it to {@code out}, returns where control continues after it. */
  private Cfg.Node loop(Cfg.Loop loop, List<Stmt> out, List<Frame> frames) {
    Cfg.Node h = loop.header();
    Label label = names.label();
    loopHeaderBci.put(label, h.startBci);
    Cfg.Node follow = follow(loop, frames);
    Cfg.Node update = null;
    if (loop.latches().size() == 1) {
      Cfg.Node u = loop.latches().get(0);
      if (u != h && (u.preds.size() > 1 || u.exit instanceof Cfg.Branch)) update = u;
    }
    List<Frame> inner = new ArrayList<>(frames);
    inner.add(new Frame(label, h, update, follow));
    List<Stmt> body = new ArrayList<>(h.stmts);
    body.addAll(afterHeader(h, loop, update, inner));
    List<Stmt> upd = update == null ? List.of() : seqUpdate(update, loop, inner);
    Src src = h.exit instanceof Cfg.Branch b ? b.src() : Src.NONE;
    loopSrc.put(label, src);
    out.add(new Loop(label, trimContinue(block(body), label, true), restartsInUpdate(trimContinue(block(upd), label, true), label), src));
    return follow;
  }

  /**
   * Inside its own update, a jump back to the loop's header starts the body again (the update has
   * run), which a {@link Continue} of the loop cannot say: it would run the update again. A
   * do-while whose body also breaks out has such jumps ({@code if (u > 0) continue L; continue
   * Outer;}). Where the jump ends a branch, the code after the branch moves into its other arm and
   * the jump is dropped; any left become a Break out of a {@link Labeled} block around the update.
   */
  private Block restartsInUpdate(Block update, Label loop) {
    List<Stmt> s = untail(update.stmts(), loop);
    if (!restarts(s, loop)) return new Block(s, update.src());
    Label frame = names.label();
    Block body = new dev.loopjit.ir.Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt x) {
        return x instanceof Continue c && c.target().equals(loop) ? List.of(new Break(frame, c.src())) : List.of(x);
      }
    }.rewrite(new Block(s));
    return new Block(List.of(new Labeled(frame, body, Src.NONE)), update.src());
  }

  /** {@code s} with the Continues of {@code loop} that end it, or end a branch of it, turned into falling off its end. */
  private static List<Stmt> untail(List<Stmt> s, Label loop) {
    List<Stmt> out = new ArrayList<>();
    for (int k = 0; k < s.size(); k++) {
      Stmt x = s.get(k);
      List<Stmt> rest = s.subList(k + 1, s.size());
      if (x instanceof Continue c && c.target().equals(loop)) return out; // what follows a jump never runs
      if (x instanceof If i && (endsInRestart(i.then(), loop) || endsInRestart(i.otherwise(), loop))) {
        out.add(new If(i.cond(), new Block(untail(arm(i.then(), rest, loop), loop)), new Block(untail(arm(i.otherwise(), rest, loop), loop)), i.src()));
        return out;
      }
      if (rest.isEmpty() && x instanceof If i)
        x = new If(i.cond(), new Block(untail(i.then().stmts(), loop)), new Block(untail(i.otherwise().stmts(), loop)), i.src());
      out.add(x);
    }
    return out;
  }

  /** An arm of an If followed by {@code rest}: rest runs after it unless it ends in a jump. */
  private static List<Stmt> arm(Block arm, List<Stmt> rest, Label loop) {
    if (endsInJump(arm.stmts()) || endsInRestart(arm, loop)) return arm.stmts();
    List<Stmt> l = new ArrayList<>(arm.stmts());
    l.addAll(rest);
    return l;
  }

  private static boolean endsInRestart(Block b, Label loop) {
    if (b.isEmpty()) return false;
    Stmt last = b.stmts().get(b.stmts().size() - 1);
    return last instanceof Continue c && c.target().equals(loop)
        || last instanceof If i && endsInRestart(i.then(), loop) && endsInRestart(i.otherwise(), loop);
  }

  /** Whether a Continue of {@code loop} is anywhere in {@code s}. */
  private static boolean restarts(List<Stmt> s, Label loop) {
    boolean[] found = {false};
    new dev.loopjit.ir.Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt x) {
        if (x instanceof Continue c && c.target().equals(loop)) found[0] = true;
        return List.of(x);
      }
    }.rewrite(new Block(s));
    return found[0];
  }

  /** The header's own exit, then the rest of the body up to the update block. */
  private List<Stmt> afterHeader(Cfg.Node h, Cfg.Loop loop, Cfg.Node update, List<Frame> frames) {
    List<Stmt> out = new ArrayList<>();
    switch (h.exit) {
      case Cfg.Ret r -> out.add(new Return(r.value(), r.src()));
      case Cfg.Jump j -> out.addAll(seq(j.to(), loop, update, frames));
      case Cfg.Branch b -> {
        Cfg.Node join = cfg.ipdom(h, loop);
        branch(b, loop, join, join == null ? update : join, frames, out);
        if (join != null && join != update) out.addAll(seq(join, loop, update, frames));
      }
      case Cfg.Table t -> {
        Cfg.Node join = cfg.ipdom(h, loop);
        if (join == null) join = switchFollow(h, t, loop);
        out.add(switchOf(t, loop, join, frames));
        if (join != null && join != update) out.addAll(seq(join, loop, update, frames));
      }
    }
    return out;
  }

  private List<Stmt> seqUpdate(Cfg.Node u, Cfg.Loop loop, List<Frame> frames) {
    List<Frame> f = new ArrayList<>(frames);
    Frame last = f.remove(f.size() - 1);
    f.add(new Frame(last.label(), last.header(), null, last.follow()));
    return seq(u, loop, null, f);
  }

  /**
   * Where control goes after the loop: its natural exit (the latch's or header's branch out of the
   * body), else the one exit that is not an enclosing construct's target nor only leads to returns.
   */
  private Cfg.Node follow(Cfg.Loop loop, List<Frame> frames) {
    List<Cfg.Node> exits = new ArrayList<>();
    for (Cfg.Node n : loop.body())
      for (Cfg.Node s0 : n.succs) {
        Cfg.Node s = loop.body().contains(s0) ? s0 : pastEmpty(s0, frames);
        if (!loop.body().contains(s) && !exits.contains(s) && !headerOrFollow(s, frames)) exits.add(s);
      }
    // The latch's exit first: a do-while's test is its latch, and its header may be an if that breaks out.
    for (Cfg.Node n : List.of(loop.latches().get(loop.latches().size() - 1), loop.header()))
      for (Cfg.Node s : n.succs) if (!loop.body().contains(s) && exits.contains(pastEmpty(s, frames))) return pastEmpty(s, frames);
    List<Cfg.Node> real = exits.stream().filter(s -> !leadsOnlyToReturns(s)).toList();
    if (real.size() > 1) real = pastBreaks(real, loop, frames);
    if (real.size() > 1) real = real.stream().filter(s -> !leadsOnlyOut(s, loop, frames)).toList();
    if (real.size() == 1) return real.get(0);
    if (real.isEmpty()) return null;
    int maxBci = loop.body().stream().mapToInt(x -> x.startBci).max().orElse(0);
    return real.stream().filter(s -> s.startBci > maxBci).min(Comparator.comparingInt(s -> s.startBci))
        .orElseThrow(() -> new Cfg.Unstructured("a loop with several exits", loop.header().startBci));
  }

  /**
   * Whether every path from {@code n} ends at an enclosing construct's header or follow, or a
   * return, without coming back into {@code loop}: code that breaks out of something around the
   * loop (a {@code break} of an enclosing switch, reached by falling through a case), not the code
   * after the loop.
   */
  private boolean leadsOnlyOut(Cfg.Node n, Cfg.Loop loop, List<Frame> frames) {
    List<Cfg.Node> work = new ArrayList<>(List.of(n));
    java.util.Set<Cfg.Node> seen = new java.util.HashSet<>();
    while (!work.isEmpty()) {
      Cfg.Node x = work.remove(work.size() - 1);
      if (!seen.add(x) || headerOrFollow(x, frames) || x.succs.isEmpty()) continue;
      if (loop.body().contains(x) || cfg.loops.containsKey(x) || seen.size() > 64) return false;
      work.addAll(x.succs);
    }
    return true;
  }

  /**
   * Where an exit really goes: past blocks with no statements that only jump on (javac's
   * {@code goto} for a {@code break} with nothing before it). Without this a do-while whose body
   * breaks out took that empty block for its end, and its condition's own exit, the real end, was
   * structured a second time inside the loop — with the enclosing loop's increment in it.
   */
  private Cfg.Node pastEmpty(Cfg.Node n, List<Frame> frames) {
    for (int hops = 0; hops < 64 && n.stmts.isEmpty() && n.exit instanceof Cfg.Jump j && !cfg.loops.containsKey(n)
        && !headerOrFollow(n, frames) && j.to() != n; hops++) n = j.to();
    return n;
  }

  /**
   * The exits of a loop with each {@code break}'s own code skipped: a block only the loop enters,
   * that goes on to one place (javac's {@code goto} for a break, with any statements before it),
   * stands for where it goes. Exits that then reach an enclosing construct's header or follow are
   * jumps to it, not the loop's follow. {@code while (…) { if (a) break; if (b) break; }} as the
   * last statement of a switch arm has three exits that all lead to the switch's end.
   */
  private List<Cfg.Node> pastBreaks(List<Cfg.Node> exits, Cfg.Loop loop, List<Frame> frames) {
    List<Cfg.Node> out = new ArrayList<>();
    for (Cfg.Node e : exits) {
      Cfg.Node n = e;
      for (int hops = 0; hops < 64 && n.exit instanceof Cfg.Jump j && n.preds.size() == 1 && !cfg.loops.containsKey(n)
          && !headerOrFollow(n, frames); hops++) n = j.to();
      if (!headerOrFollow(n, frames) && !out.contains(n)) out.add(n);
    }
    return out;
  }

  /**
   * Appends the If for branch {@code b}, whose arms run to {@code stop}. When they do not meet
   * again ({@code join} is EXIT) and one arm ends in a jump, that arm becomes the If and the other
   * follows it unnested: {@code if (i >= n) break; body...} rather than an if/else.
   */
  private void branch(Cfg.Branch b, Cfg.Loop region, Cfg.Node join, Cfg.Node stop, List<Frame> frames, List<Stmt> out) {
    List<Stmt> then = seq(b.ifTrue(), region, stop, frames);
    List<Stmt> otherwise = seq(b.ifFalse(), region, stop, frames);
    boolean thenJumps = endsInJump(then), elseJumps = endsInJump(otherwise);
    if (join == null && (thenJumps || elseJumps)) {
      boolean thenFirst = thenJumps && (!elseJumps || then.size() <= otherwise.size());
      out.add(thenFirst ? new If(b.cond(), block(then), Block.EMPTY, b.src()) : new If(not(b.cond()), block(otherwise), Block.EMPTY, b.src()));
      out.addAll(thenFirst ? otherwise : then);
    } else if (then.isEmpty()) {
      out.add(new If(not(b.cond()), block(otherwise), Block.EMPTY, b.src()));
    } else {
      out.add(new If(b.cond(), block(then), block(otherwise), b.src()));
    }
  }

  private Stmt switchOf(Cfg.Table t, Cfg.Loop region, Cfg.Node join, List<Frame> frames) {
    Label label = names.label();
    List<Frame> inner = new ArrayList<>(frames);
    inner.add(new Frame(label, null, null, join));
    Map<Cfg.Node, List<Integer>> byTarget = new LinkedHashMap<>();
    for (int i = 0; i < t.values().size(); i++) byTarget.computeIfAbsent(t.targets().get(i), k -> new ArrayList<>()).add(t.values().get(i));
    if (t.dflt() != join) byTarget.putIfAbsent(t.dflt(), new ArrayList<>());
    byTarget.remove(join);
    List<Cfg.Node> order = new ArrayList<>(byTarget.keySet());
    order.sort(Comparator.comparingInt(x -> x.startBci));
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      Cfg.Node target = order.get(i);
      Cfg.Node next = i + 1 < order.size() ? order.get(i + 1) : join;
      List<Stmt> body = seq(target, region, next, inner);
      List<Integer> values = byTarget.get(target);
      if (target == t.dflt()) values = List.of();
      cases.add(new Case(values, block(body)));
    }
    // values that jump straight to the join need a case of their own that only breaks
    List<Integer> toJoin = new ArrayList<>();
    for (int i = 0; i < t.values().size(); i++) if (t.targets().get(i) == join && t.dflt() != join) toJoin.add(t.values().get(i));
    if (!toJoin.isEmpty()) cases.add(0, new Case(toJoin, block(List.of(new Break(label, Src.NONE)))));
    return new Switch(label, t.selector(), cases, t.src());
  }

  /**
   * When some cases leave the region (continue or break an outer loop, return), the switch has no
   * post-dominator; javac's follow is then the first block after every case that the switch
   * dominates and a case reaches. Without it, the code after the switch would be copied into each case.
   */
  private Cfg.Node switchFollow(Cfg.Node n, Cfg.Table t, Cfg.Loop region) {
    int last = t.dflt().startBci;
    for (Cfg.Node c : t.targets()) last = Math.max(last, c.startBci);
    Cfg.Node best = null;
    for (Cfg.Node m : cfg.nodes) {
      if (m.startBci <= last || m == n || !cfg.dominates(n, m) || (region != null && !region.body().contains(m))) continue;
      if (jumpTarget(m)) continue;
      if (best == null || m.startBci < best.startBci) best = m;
    }
    return best;
  }

  private boolean jumpTarget(Cfg.Node m) {
    for (Cfg.Loop l : cfg.loops.values()) if (l.header() == m || l.latches().contains(m)) return true;
    return false;
  }

  private static boolean endsInJump(List<Stmt> stmts) {
    if (stmts.isEmpty()) return false;
    Stmt last = stmts.get(stmts.size() - 1);
    return switch (last) {
      case Break b -> true;
      case Continue c -> true;
      case Return r -> true;
      case If i -> endsInJump(i.then().stmts()) && endsInJump(i.otherwise().stmts());
      case Block b -> endsInJump(b.stmts());
      default -> false;
    };
  }

  /** Drops a Continue of {@code label} that ends the body (it would continue anyway). */
  private static Block trimContinue(Block b, Label label, boolean atEnd) {
    if (!atEnd || b.isEmpty()) return b;
    List<Stmt> s = new ArrayList<>(b.stmts());
    Stmt last = s.get(s.size() - 1);
    if (last instanceof Continue c && c.target().equals(label)) s.remove(s.size() - 1);
    else if (last instanceof Break br && br.target().equals(label) && s.size() >= 2 && s.get(s.size() - 2) instanceof If i
        && i.otherwise().isEmpty() && i.then().stmts().size() == 1 && i.then().stmts().get(0) instanceof Continue c && c.target().equals(label)) {
      s.remove(s.size() - 1); // do-while: `if (c) continue; break;` at the end is `if (!c) break;`
      s.set(s.size() - 1, new If(not(i.cond()), new Block(List.of(br)), Block.EMPTY, i.src()));
    }
    else if (last instanceof If i) s.set(s.size() - 1, new If(i.cond(), trimContinue(i.then(), label, true), trimContinue(i.otherwise(), label, true), i.src()));
    return new Block(s, b.src());
  }

  private static Block block(List<Stmt> s) {
    return new Block(s);
  }

  static Expr not(Expr e) {
    if (e instanceof Expr.Unary u && u.op() == Op.Unary.NOT) return u.x();
    if (e instanceof Expr.Compare c && !c.a().prim().isFloating()) return new Expr.Compare(c.op().negate(), c.a(), c.b());
    return new Expr.Unary(Op.Unary.NOT, e);
  }
}
