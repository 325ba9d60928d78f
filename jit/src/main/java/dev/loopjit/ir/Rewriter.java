// Bottom-up rebuilding of IR trees: passes override the cases they change and inherit the rest.
package dev.loopjit.ir;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Stmt.*;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a tree: children first, then {@link #expr(Expr)} / {@link #stmts(Stmt)} on the
 * rebuilt node. A statement may become several (or none) through {@link #stmts(Stmt)}. Two more
 * hooks serve what a bottom-up rewrite cannot express: {@link #before(Stmt)} sees each statement
 * as it is, before its children (what a pass knows by node identity, what it must do on the way
 * down, such as a fresh label), and {@link #block(List)} sees a block's statements together
 * (what looks at a statement's neighbours).
 */
public class Rewriter {
  /** Called on each expression after its children were rewritten. */
  protected Expr expr(Expr e) {
    return e;
  }

  /** Called on each statement after its children were rewritten; the result replaces it. */
  protected List<Stmt> stmts(Stmt s) {
    return List.of(s);
  }

  /**
   * Called on each statement before its children are rewritten, as it stands in the tree being
   * rewritten: null (the default) rewrites it as usual; otherwise the statements returned replace
   * it as they are (the hook calls {@code rewrite} on what in them is to be rewritten).
   */
  protected List<Stmt> before(Stmt s) {
    return null;
  }

  /**
   * Called on the statements of each block (a Block statement, an If's arms, a Loop's body and
   * update, a case, a Labeled body) after each was rewritten; the result is the block's statements.
   */
  protected List<Stmt> block(List<Stmt> stmts) {
    return stmts;
  }

  public final Expr rewrite(Expr e) {
    Expr r = switch (e) {
      case Const c -> c;
      case Read r0 -> r0;
      case Alloc a -> a.length() == null ? a : new Alloc(a.type(), rewrite(a.length()));
      case Unary u -> new Unary(u.op(), rewrite(u.x()));
      case Binary b -> new Binary(b.op(), rewrite(b.a()), rewrite(b.b()));
      case Compare c -> new Compare(c.op(), rewrite(c.a()), rewrite(c.b()));
      case Logic l -> new Logic(l.op(), rewrite(l.a()), rewrite(l.b()));
      case Convert c -> new Convert(c.to(), rewrite(c.x()));
      case Select s -> new Select(rewrite(s.cond()), rewrite(s.a()), rewrite(s.b()));
      case Load l -> new Load(rewrite(l.array()), rewrite(l.index()));
      case Length l -> new Length(rewrite(l.array()));
      case Call c -> new Call(c.op(), c.type(), c.args().stream().map(this::rewrite).toList());
      case Invoke i -> new Invoke(i.owner(), i.name(), i.descriptor(), i.type(), i.args().stream().map(this::rewrite).toList());
    };
    return expr(r);
  }

  public final Block rewrite(Block b) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : b.stmts()) out.addAll(rewrite(s));
    return new Block(block(out), b.src());
  }

  public final List<Stmt> rewrite(Stmt s) {
    List<Stmt> instead = before(s);
    if (instead != null) return instead;
    Stmt r = switch (s) {
      case Block b -> rewrite(b);
      case Assign a -> new Assign(a.var(), rewrite(a.value()), a.src());
      case Store st -> new Store(rewrite(st.array()), rewrite(st.index()), rewrite(st.value()), st.src());
      case Eval e -> new Eval(rewrite(e.call()), e.src());
      case If i -> new If(rewrite(i.cond()), rewrite(i.then()), rewrite(i.otherwise()), i.src());
      case Loop l -> new Loop(l.label(), rewrite(l.body()), rewrite(l.update()), l.src());
      case Switch sw -> new Switch(sw.label(), rewrite(sw.selector()),
          sw.cases().stream().map(c -> new Case(c.values(), rewrite(c.body()))).toList(), sw.src());
      case Labeled l -> new Labeled(l.label(), rewrite(l.body()), l.src());
      case Break b -> b;
      case Continue c -> c;
      case Return ret -> new Return(ret.value() == null ? null : rewrite(ret.value()), ret.src());
    };
    return stmts(r);
  }
}
