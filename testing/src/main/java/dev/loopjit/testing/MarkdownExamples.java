// Keeps documentation true: every ```java block of a markdown page compiles against the class path it is checked with.
package dev.loopjit.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * Compiles the Java examples of a markdown page, so that a test fails when one stops compiling.
 * Each {@code ```java} block becomes a class of its own, with {@code dev.loopjit.api.*} and
 * {@code dev.loopjit.types.*} imported: a block that declares a class is compiled as it is, one of
 * methods becomes the class's members, and one of statements the body of a method. An example
 * uses names it does not declare (the graph, the arrays); an HTML comment right before the block
 * says what they are, as that method's parameters, and may add imports:
 *
 * <pre>{@code
 * <!-- given: TaskGraph graph, int n; import dev.loopjit.testing.* -->
 * ```java
 * new ExecutionPlan(graph.snapshot()).execute();
 * ```
 * }</pre>
 *
 * A block whose comment says {@code <!-- not compiled: why -->} is skipped.
 */
public final class MarkdownExamples {
  private MarkdownExamples() {}

  private static final Pattern BLOCK = Pattern.compile("(?:<!--\\s*(given|not compiled):(.*?)-->[ \\t]*\\n)?```java\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern MEMBER = Pattern.compile("^\\s*(@\\w+\\s+)*((public|private|protected|static|final)\\s+)+[\\w<>\\[\\], .]+\\s+\\w+\\s*\\(", Pattern.MULTILINE);

  /** The page's examples that do not compile, each with its number, first line and the compiler's messages; empty when all do. */
  public static List<String> problems(Path page) throws IOException {
    String text = Files.readString(page);
    Matcher m = BLOCK.matcher(text);
    List<JavaFileObject> sources = new ArrayList<>();
    List<String> firstLines = new ArrayList<>();
    int n = 0;
    while (m.find()) {
      if ("not compiled".equals(m.group(1))) continue;
      String given = m.group(1) == null ? "" : m.group(2).trim();
      String name = "Example" + (++n) + "Of" + page.getFileName().toString().replaceAll("\\W", "_");
      sources.add(source(name, wrap(name, m.group(3), given)));
      firstLines.add(m.group(3).strip().lines().findFirst().orElse(""));
    }
    if (sources.isEmpty()) return List.of();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) return List.of("no Java compiler in this JVM (a JDK is needed to check " + page + ")");
    Path out = Files.createTempDirectory("loopjit-examples");
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<String> options = List.of("-proc:none", "-Xlint:none", "-nowarn", "-d", out.toString(), "-cp", System.getProperty("java.class.path"));
    javac.getTask(null, null, diagnostics, options, null, sources).call();
    List<String> problems = new ArrayList<>();
    for (var d : diagnostics.getDiagnostics()) {
      if (d.getKind() != javax.tools.Diagnostic.Kind.ERROR) continue;
      String file = d.getSource() == null ? "" : d.getSource().getName();
      int k = file.isEmpty() ? 0 : Integer.parseInt(file.replaceAll(".*Example(\\d+)Of.*", "$1"));
      problems.add(page.getFileName() + " example " + k + " (" + (k > 0 ? firstLines.get(k - 1) : "?") + "): " + d.getMessage(Locale.ROOT));
    }
    return problems;
  }

  /** The compilation unit of one block. */
  static String wrap(String name, String block, String given) {
    StringBuilder imports = new StringBuilder("import dev.loopjit.api.*;\nimport dev.loopjit.types.*;\n");
    String params = given;
    int semicolon = given.indexOf(';');
    if (semicolon >= 0) {   // "TaskGraph graph, int n; import a.b.*; import static c.D.*"
      params = given.substring(0, semicolon).trim();
      for (String imp : given.substring(semicolon + 1).split(";")) if (!imp.isBlank()) imports.append(imp.trim()).append(";\n");
    }
    StringBuilder body = new StringBuilder();
    for (String line : block.lines().toList()) {
      if (line.startsWith("import ")) imports.append(line).append('\n');
      else body.append(line).append('\n');
    }
    String code = body.toString();
    if (Pattern.compile("^\\s*(public\\s+|final\\s+)*(class|record|interface|enum)\\s", Pattern.MULTILINE).matcher(code).find())
      return imports + code;
    if (MEMBER.matcher(code).lookingAt()) return imports + "class " + name + " {\n" + code + "}\n";
    return imports + "class " + name + " {\n  static void example(" + params + ") throws Exception {\n" + code + "  }\n}\n";
  }

  private static JavaFileObject source(String name, String code) {
    return new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return code;
      }
    };
  }
}
