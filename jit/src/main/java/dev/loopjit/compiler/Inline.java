// Pass "inline": every static call is replaced by the callee's body (user methods and pure JDK methods alike).
package dev.loopjit.compiler;

import dev.loopjit.ir.LoopFacts;

import dev.loopjit.ir.MethodRef;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.IrWalk;
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
    List<LoopFacts> callees = new ArrayList<>();
    KernelIR out = ir.withBody(inline(ir.body(), cx, List.of(cx.method), callees));
    LoopFacts loops = ir.loops();
    for (LoopFacts f : callees) loops = loops.plus(f);
    return out.withLoops(loops).withTemps(cx.names.temps);   // the callees' temporaries and the foreign math's, made here through the name supply
  }

  /**
   * {@code b} with its calls replaced by their bodies: a statement with a foreign Math call first
   * becomes the statements that compute it ({@link #hoistForeignMath}), each then inlined; a call
   * is expanded where it stands.
   */
  private Block inline(Block b, Context cx, List<MethodRef> chain, List<LoopFacts> callees) {
    return new Rewriter() {
      @Override
      protected List<Stmt> before(Stmt s) {
        List<Stmt> hoisted = hoistForeignMath(s, cx);
        if (hoisted == null) return null;
        List<Stmt> out = new ArrayList<>();
        for (Stmt h : hoisted) out.addAll(rewrite(h));
        return out;
      }

      @Override
      protected List<Stmt> stmts(Stmt s) {
        return switch (s) {
          case Assign a when a.value() instanceof Invoke call -> List.of(expand(call, a.var(), a.src(), cx, chain, callees));
          case Eval e when e.call() instanceof Invoke call -> List.of(expand(call, null, e.src(), cx, chain, callees));
          default -> List.of(s);
        };
      }
    }.rewrite(b);
  }

  private Stmt expand(Invoke call, Var result, Src site, Context cx, List<MethodRef> chain, List<LoopFacts> callees) {
    MethodRef callee = resolve(call, site, cx);
    for (MethodRef m : chain)
      if (m.equals(callee)) {
        StringBuilder cycle = new StringBuilder();
        for (MethodRef c : chain.subList(chain.indexOf(m), chain.size())) cycle.append(c.display()).append(" -> ");
        throw Refusal.error(site, "recursion", "recursion is not supported in a kernel: " + cycle + callee.display());
      }
    if (chain.size() > MAX_DEPTH) throw Refusal.error(site, "deep calls", "calls nested more than " + MAX_DEPTH + " deep");
    List<Var> results = vectorResults(call, callee);
    Frontend.Method m = Frontend.parse(callee, cx.names, site, callee.name() + "_", results);
    // A @Parallel loop in a called method is the kernel's nest when the call stands at the top of
    // the kernel; anywhere else the parallel pass refuses it (it never runs it quietly as one work-item).
    callees.add(new LoopFacts(m.parallelLoops(), Map.of(), m.annotated()));
    Map<Var, Expr> arrays = new HashMap<>();
    List<Stmt> out = new ArrayList<>();
    int next = 0;
    for (Var p : m.params()) {
      if (p == null) continue;   // the KernelContext: the callee's context calls are the kernel's
      Expr arg = call.args().get(next++);
      if (p.type() instanceof Prim) out.add(new Assign(p, arg, site));
      else {
        if (arg instanceof Read r && cx.names.tables.containsValue(r.var())) refuseWrites(m.body(), p, r.var());
        arrays.put(p, arg);
      }
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
    body = inline(body, cx, deeper, callees);
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

  /**
   * A helper returning a vector is called with its result variables after its arguments, one per
   * field ({@link Members}): the caller's variables its returns assign. Empty for any other call.
   */
  private static List<Var> vectorResults(Invoke call, MethodRef callee) {
    ValueObjects.Kind kind = ValueObjects.kind(callee.method().getReturnType());
    if (kind == null || kind == ValueObjects.Kind.HALF) return List.of();
    List<Var> results = new ArrayList<>();
    for (Expr a : call.args().subList(call.args().size() - kind.fields, call.args().size())) results.add(((Read) a).var());
    return results;
  }

  /**
   * Where the target has no exact instruction for a Math function (PTX has none for sin, exp, …),
   * the call is moved into a temporary computed by the JDK's own Java code ({@code StrictMath}),
   * which is then inlined like any call. Returns null when {@code s} needs nothing of the kind.
   */
  private static List<Stmt> hoistForeignMath(Stmt s, Context cx) {
    List<Stmt> before = new ArrayList<>();
    Stmt rewritten = switch (s) {
      case Assign a -> new Assign(a.var(), hoist(a.value(), false, before, s, cx), a.src());
      case Store st -> new Store(hoist(st.array(), false, before, s, cx), hoist(st.index(), false, before, s, cx),
          hoist(st.value(), false, before, s, cx), st.src());
      case Eval e -> new Eval(hoist(e.call(), false, before, s, cx), e.src());
      case If i -> new If(hoist(i.cond(), false, before, s, cx), i.then(), i.otherwise(), i.src());
      case Switch sw -> new Switch(sw.label(), hoist(sw.selector(), false, before, s, cx), sw.cases(), sw.src());
      case Return r when r.value() != null -> new Return(hoist(r.value(), false, before, s, cx), r.src());
      default -> s;
    };
    if (before.isEmpty()) return null;
    before.add(rewritten);
    return before;
  }

  /**
   * {@code e} with foreign math calls replaced by temporaries computed before the statement. Under
   * a condition (the right of && or ||, an arm of ?:) a call is moved out only if its arguments
   * read no memory, since evaluating it unconditionally must not read an element the condition guards.
   */
  private static Expr hoist(Expr e, boolean conditional, List<Stmt> before, Stmt s, Context cx) {
    return switch (e) {
      case Call c -> {
        List<Expr> args = new ArrayList<>();
        for (Expr a : c.args()) args.add(hoist(a, conditional, before, s, cx));
        String[] body = cx.target.isNative(c.op()) ? null : Intrinsics.javaBody(c.op(), c.type());
        if (body == null) yield new Call(c.op(), c.type(), args);
        if (conditional && args.stream().anyMatch(Effects::readsMemory))
          throw Refusal.error(s.src(), "Math." + c.op().name().toLowerCase() + " under a condition",
              "Math." + c.op().name().toLowerCase() + " of an array element inside ?:, && or || is not supported on "
                  + cx.target.language() + " yet; compute it in a statement of its own");
        Var t = cx.names.temp(c.op().name().toLowerCase(), c.type());
        before.add(new Assign(t, new Invoke(body[0], body[1], body[2], c.type(), args), s.src()));
        yield new Read(t);
      }
      case Logic l -> new Logic(l.op(), hoist(l.a(), conditional, before, s, cx), hoist(l.b(), true, before, s, cx));
      case Select x -> new Select(hoist(x.cond(), conditional, before, s, cx), hoist(x.a(), true, before, s, cx), hoist(x.b(), true, before, s, cx));
      case Unary u -> new Unary(u.op(), hoist(u.x(), conditional, before, s, cx));
      case Binary b -> new Binary(b.op(), hoist(b.a(), conditional, before, s, cx), hoist(b.b(), conditional, before, s, cx));
      case Compare c -> new Compare(c.op(), hoist(c.a(), conditional, before, s, cx), hoist(c.b(), conditional, before, s, cx));
      case Convert c -> new Convert(c.to(), hoist(c.x(), conditional, before, s, cx));
      case Load l -> new Load(hoist(l.array(), conditional, before, s, cx), hoist(l.index(), conditional, before, s, cx));
      case Length l -> l;
      case Invoke i -> i;
      case Const c -> c;
      case Read r -> r;
      case Alloc a -> a;
    };
  }

  /** A callee may read a static table passed to it, not write it (the kernel holds a copy). */
  private static void refuseWrites(Block body, Var param, Var table) {
    IrWalk.walk(body, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Store st && st.array() instanceof Read r && r.var().equals(param))
          throw Refusal.unsupported(st.src(), "writing the static array " + table.name());
      }
    });
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
    return IrWalk.countStmts(s, x -> x instanceof Return);
  }
}
