// The generated Java as a small tree: expressions and statements as templates with holes, so the minimiser can cut them down.
package dev.loopjit.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * Source code as a tree. An {@link Ex} is a template whose {@code $0..$9} are its operands; a
 * {@link St} is a template whose {@code #0..#9} are expressions and {@code @0..@9} blocks of
 * statements. Every compound expression template carries its own parentheses, so the text is
 * always what the tree means. The minimiser replaces, unwraps and deletes nodes and re-renders.
 */
final class Code {
  private Code() {}

  /** An expression of type {@code type}. */
  record Ex(JType type, String template, List<Ex> kids) {
    Ex {
      kids = List.copyOf(kids);
    }

    static Ex leaf(JType type, String text) {
      return new Ex(type, text, List.of());
    }

    static Ex of(JType type, String template, Ex... kids) {
      return new Ex(type, template, List.of(kids));
    }

    Ex withKids(List<Ex> k) {
      return new Ex(type, template, k);
    }

    String render() {
      return fill(template, '$', kids.stream().map(Ex::render).toList());
    }

    /** Nodes in this tree. */
    int size() {
      int n = 1;
      for (Ex k : kids) n += k.size();
      return n;
    }
  }

  /** A statement: template, its expressions and its blocks. */
  record St(String template, List<Ex> exprs, List<List<St>> blocks) {
    St {
      exprs = List.copyOf(exprs);
      List<List<St>> b = new ArrayList<>();
      for (List<St> l : blocks) b.add(List.copyOf(l));
      blocks = List.copyOf(b);
    }

    static St of(String template, Ex... exprs) {
      return new St(template, List.of(exprs), List.of());
    }

    static St block(String template, List<Ex> exprs, List<List<St>> blocks) {
      return new St(template, exprs, blocks);
    }

    /** Java source, each line indented by {@code indent}. */
    String render(String indent) {
      List<String> b = new ArrayList<>();
      for (List<St> block : blocks) b.add(renderBlock(block, indent));
      String withExprs = fill(template, '#', exprs.stream().map(Ex::render).toList());
      return indent + fill(withExprs, '@', b);
    }

    int size() {
      int n = 1;
      for (Ex e : exprs) n += e.size();
      for (List<St> l : blocks) for (St s : l) n += s.size();
      return n;
    }
  }

  /** {@code { stmts }} for a statement at {@code indent}. */
  static String renderBlock(List<St> block, String indent) {
    if (block.isEmpty()) return "{}";
    StringBuilder s = new StringBuilder("{\n");
    for (St st : block) s.append(st.render(indent + "  ")).append('\n');
    return s.append(indent).append('}').toString();
  }

  static String fill(String template, char mark, List<String> parts) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == mark && i + 1 < template.length() && Character.isDigit(template.charAt(i + 1))) {
        out.append(parts.get(template.charAt(++i) - '0'));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
