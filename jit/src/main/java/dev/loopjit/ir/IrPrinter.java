// Prints the IR as readable pseudo-Java, for -Dloopjit.dump=ir and `loopjit dump --target ir`.
package dev.loopjit.ir;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Stmt.*;
import java.util.stream.Collectors;

/** The IR as pseudo-Java. Not parseable; meant for people. */
public final class IrPrinter {
  private final StringBuilder out = new StringBuilder();

  private IrPrinter() {}

  public static String print(KernelIR k) {
    IrPrinter p = new IrPrinter();
    p.out.append("// ").append(k.source().describe()).append('\n');
    if (k.launch() != null) p.out.append("// launch: ").append(launch(k.launch())).append('\n');
    if (!k.args().isEmpty())
      p.out.append("// device args: ").append(k.args().stream().map(IrPrinter::arg).collect(Collectors.joining(", "))).append('\n');
    for (BoundsSite b : k.boundsSites())
      p.out.append("// bounds site ").append(b.id()).append(": ").append(b.array()).append(b.length() >= 0 ? "[" + b.length() + "]" : "")
          .append(" at ").append(b.where()).append('\n');
    for (BoundsSite b : k.assumedSites())
      p.out.append("// proven at launch ").append(b.id()).append(": ").append(b.array()).append(" at ").append(b.where()).append('\n');
    p.out.append("void ").append(k.name()).append('(')
        .append(k.params().stream().map(x -> x.var() == null ? "KernelContext context" : (x.reduce() ? "@Reduce " : "") + x.var().type() + " " + x.var().name())
            .collect(Collectors.joining(", ")))
        .append(") ");
    p.block(k.body(), 0);
    p.out.append('\n');
    return p.out.toString();
  }

  private static String launch(Launch l) {
    return switch (l) {
      case Launch.Single s -> "single work-item";
      case Launch.Explicit e -> "explicit (GridScheduler)";
      case Launch.Loops loops -> (loops.prologue() ? "prologue (one work-item, counts -1), then " : "") + "grid "
          + loops.counts().stream().map(IrPrinter::expr).collect(Collectors.joining(" x "))
          + (loops.lanes() > 1 ? ", " + loops.lanes() + (loops.rows() > 1 ? "×" + loops.rows() : "") + " iterations per work-item" : "")
          + (loops.epilogue() ? ", then epilogue (one work-item, counts -2)" : "");
    };
  }

  private static String arg(KernelArg a) {
    return switch (a) {
      case KernelArg.Array x -> x.var() + "=param" + x.param();
      case KernelArg.Length x -> x.var() + "=length(param" + x.param() + ")";
      case KernelArg.Scalar x -> x.var() + "=param" + x.param();
      case KernelArg.Count x -> x.var() + "=count" + x.dim();
      case KernelArg.Local x -> x.var() + "=local " + x.var().type() + "(length " + expr(x.length()) + ")";
      case KernelArg.Computed x -> x.var() + "=host(" + expr(x.value()) + ")";
    };
  }

  private void indent(int n) {
    out.append("  ".repeat(n));
  }

  private void block(Block b, int depth) {
    out.append("{\n");
    for (Stmt s : b.stmts()) stmt(s, depth + 1);
    indent(depth);
    out.append('}');
  }

  private void stmt(Stmt s, int d) {
    indent(d);
    switch (s) {
      case Block b -> block(b, d);
      case Assign a -> out.append(a.var().name()).append(" = ").append(expr(a.value())).append(';');
      case Store st -> out.append(expr(st.array())).append('[').append(expr(st.index())).append("] = ").append(expr(st.value())).append(';');
      case Eval e -> out.append(expr(e.call())).append(';');
      case If i -> {
        out.append("if (").append(expr(i.cond())).append(") ");
        block(i.then(), d);
        if (!i.otherwise().isEmpty()) {
          out.append(" else ");
          block(i.otherwise(), d);
        }
      }
      case Loop l -> {
        out.append(l.label()).append(": for (;;) ");
        block(l.body(), d);
        if (!l.update().isEmpty()) {
          out.append(" update ");
          block(l.update(), d);
        }
      }
      case Switch sw -> {
        out.append(sw.label()).append(": switch (").append(expr(sw.selector())).append(") {\n");
        for (Case c : sw.cases()) {
          indent(d + 1);
          out.append(c.isDefault() ? "default" : "case " + c.values().stream().map(String::valueOf).collect(Collectors.joining(", "))).append(": ");
          block(c.body(), d + 1);
          out.append('\n');
        }
        indent(d);
        out.append('}');
      }
      case Labeled l -> {
        out.append(l.label()).append(": ");
        block(l.body(), d);
      }
      case Break b -> out.append("break ").append(b.target()).append(';');
      case Continue c -> out.append("continue ").append(c.target()).append(';');
      case Return r -> out.append(r.value() == null ? "return;" : "return " + expr(r.value()) + ";");
    }
    out.append('\n');
  }

  /** One expression as pseudo-Java. */
  public static String expr(Expr e) {
    return switch (e) {
      case Const c -> constant(c);
      case Read r -> r.var().name();
      case Unary u -> (u.op() == Op.Unary.NEG ? "-" : "!") + paren(u.x());
      case Binary b -> paren(b.a()) + " " + b.op().symbol + " " + paren(b.b());
      case Compare c -> paren(c.a()) + " " + c.op().symbol + " " + paren(c.b());
      case Logic l -> paren(l.a()) + " " + l.op().symbol + " " + paren(l.b());
      case Convert c -> "(" + c.to() + ") " + paren(c.x());
      case Select s -> paren(s.cond()) + " ? " + paren(s.a()) + " : " + paren(s.b());
      case Load l -> paren(l.array()) + "[" + expr(l.index()) + "]";
      case Length l -> paren(l.array()) + ".length";
      case Alloc a -> "new " + a.type() + (a.length() == null ? "" : "(length " + expr(a.length()) + ")");
      case Call c when c.op() == Intrinsic.PRINTF -> "printf(\"" + PrintFormat.of(c).text().replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")
          + "\"" + PrintFormat.values(c).stream().map(x -> ", " + expr(x)).collect(Collectors.joining()) + ")";
      case Call c -> c.op().name().toLowerCase() + "(" + c.args().stream().map(IrPrinter::expr).collect(Collectors.joining(", ")) + ")";
      case Invoke i -> i.owner().substring(i.owner().lastIndexOf('/') + 1) + "." + i.name() + "("
          + i.args().stream().map(IrPrinter::expr).collect(Collectors.joining(", ")) + ")";
    };
  }

  private static String paren(Expr e) {
    return e instanceof Const || e instanceof Read || e instanceof Call || e instanceof Load || e instanceof Invoke ? expr(e) : "(" + expr(e) + ")";
  }

  private static String constant(Const c) {
    return switch (c.type()) {
      case LONG -> c.value() + "L";
      case FLOAT -> c.value() + "f";
      default -> String.valueOf(c.value());
    };
  }
}
