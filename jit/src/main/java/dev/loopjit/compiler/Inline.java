// Pass "inline": every static call is replaced by the callee's body (user methods and pure JDK methods alike).
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inlines calls. The parser leaves each call as {@code t = Invoke(...)} or {@code Eval(Invoke)},
 * so a call always sits at statement level: the callee's parameters are assigned the arguments,
 * its body follows, and its returns become an assignment to the result plus a break out of a
 * {@link Labeled} block (omitted when the only return is the last statement). Array parameters
 * are replaced by the caller's arrays. Recursion is refused, with the cycle in the message.
 */
final class Inline implements Pass {
  private static final int MAX_DEPTH = 24;

  @Override
  public String name() {
    return "inline";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    return ir.withBody(inline(ir.body(), cx, List.of(cx.method)));
  }

  private Block inline(Block b, Context cx, List<MethodRef> chain) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : b.stmts()) out.addAll(inline(s, cx, chain));
    return new Block(out, b.src());
  }

  private List<Stmt> inline(Stmt s, Context cx, List<MethodRef> chain) {
    return switch (s) {
      case Assign a when a.value() instanceof Invoke call -> List.of(expand(call, a.var(), a.src(), cx, chain));
      case Eval e when e.call() instanceof Invoke call -> List.of(expand(call, null, e.src(), cx, chain));
      case Block b -> List.of(inline(b, cx, chain));
      case If i -> List.of(new If(i.cond(), inline(i.then(), cx, chain), inline(i.otherwise(), cx, chain), i.src()));
      case Loop l -> List.of(new Loop(l.label(), inline(l.body(), cx, chain), inline(l.update(), cx, chain), l.src()));
      case Switch sw -> List.of(new Switch(sw.label(), sw.selector(),
          sw.cases().stream().map(c -> new Case(c.values(), inline(c.body(), cx, chain))).toList(), sw.src()));
      case Labeled l -> List.of(new Labeled(l.label(), inline(l.body(), cx, chain), l.src()));
      default -> List.of(s);
    };
  }

  private Stmt expand(Invoke call, Var result, Src site, Context cx, List<MethodRef> chain) {
    MethodRef callee = resolve(call, site, cx);
    for (MethodRef m : chain)
      if (m.equals(callee)) {
        StringBuilder cycle = new StringBuilder();
        for (MethodRef c : chain.subList(chain.indexOf(m), chain.size())) cycle.append(c.display()).append(" -> ");
        throw Refusal.error(site, "recursion", "recursion is not supported in a kernel: " + cycle + callee.display());
      }
    if (chain.size() > MAX_DEPTH) throw Refusal.error(site, "deep calls", "calls nested more than " + MAX_DEPTH + " deep");
    Frontend.Method m = Frontend.parse(callee, cx.names, site, callee.name() + "_");
    Map<Var, Expr> arrays = new HashMap<>();
    List<Stmt> out = new ArrayList<>();
    for (int i = 0; i < m.params().size(); i++) {
      Var p = m.params().get(i);
      Expr arg = call.args().get(i);
      if (p.type() instanceof Prim) out.add(new Assign(p, arg, site));
      else arrays.put(p, arg);
    }
    Block body = m.body();
    if (!arrays.isEmpty()) {
      body = new Rewriter() {
        @Override
        protected Expr expr(Expr e) {
          return e instanceof Read r && arrays.containsKey(r.var()) ? arrays.get(r.var()) : e;
        }
      }.rewrite(body);
    }
    List<MethodRef> deeper = new ArrayList<>(chain);
    deeper.add(callee);
    body = inline(body, cx, deeper);
    List<Stmt> stmts = body.stmts();
    int returns = countReturns(body);
    boolean lastIsOnlyReturn = returns == 1 && !stmts.isEmpty() && stmts.get(stmts.size() - 1) instanceof Return;
    if (returns == 0 || lastIsOnlyReturn) {
      List<Stmt> head = new ArrayList<>(stmts);
      if (lastIsOnlyReturn) {
        Return r = (Return) head.remove(head.size() - 1);
        if (result != null) head.add(new Assign(result, r.value(), r.src()));
      }
      out.addAll(head);
      return new Block(out, site);
    }
    Label exit = cx.names.label();
    Block framed = new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt s) {
        if (!(s instanceof Return r)) return List.of(s);
        List<Stmt> l = new ArrayList<>();
        if (result != null && r.value() != null) l.add(new Assign(result, r.value(), r.src()));
        l.add(new Break(exit, r.src()));
        return l;
      }
    }.rewrite(body);
    out.add(new Labeled(exit, framed, site));
    return new Block(out, site);
  }

  private static MethodRef resolve(Invoke call, Src site, Context cx) {
    try {
      Class<?> owner = Class.forName(call.owner().replace('/', '.'), false, cx.method.owner().getClassLoader());
      return MethodRef.of(owner, call.name(), call.descriptor());
    } catch (ClassNotFoundException | RuntimeException e) {
      throw Refusal.error(site, "call", "cannot find the method " + call.owner().replace('/', '.') + "." + call.name() + call.descriptor());
    }
  }

  private static int countReturns(Stmt s) {
    return switch (s) {
      case Return r -> 1;
      case Block b -> b.stmts().stream().mapToInt(Inline::countReturns).sum();
      case If i -> countReturns(i.then()) + countReturns(i.otherwise());
      case Loop l -> countReturns(l.body()) + countReturns(l.update());
      case Switch sw -> sw.cases().stream().mapToInt(c -> countReturns(c.body())).sum();
      case Labeled l -> countReturns(l.body());
      default -> 0;
    };
  }
}
