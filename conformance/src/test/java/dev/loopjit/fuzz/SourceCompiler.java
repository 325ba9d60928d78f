// Compiles generated Java sources in memory with the JDK's own javac (javax.tools), for the fuzzer.
package dev.loopjit.fuzz;

import dev.loopjit.api.Parallel;
import dev.loopjit.testing.MemoryClassLoader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * javac in the same JVM: sources in, class files out, loaded by a {@link MemoryClassLoader} that
 * also serves the class files to the JIT. Compiled with {@code -g -parameters} as Maven does, against
 * the LoopJIT classes this JVM has.
 */
final class SourceCompiler {
  private static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();

  private SourceCompiler() {}

  /** The classes, or a {@link CompileError} listing javac's complaints. */
  static MemoryClassLoader compile(Map<String, String> sourcesByClassName) {
    if (JAVAC == null) throw new IllegalStateException("no javac in this JDK (javax.tools.ToolProvider found none)");
    Map<String, ByteArrayOutputStream> out = new HashMap<>();
    StandardJavaFileManager std = JAVAC.getStandardFileManager(null, Locale.ROOT, null);
    ForwardingJavaFileManager<StandardJavaFileManager> fm = new ForwardingJavaFileManager<>(std) {
      @Override
      public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
        return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
          @Override
          public OutputStream openOutputStream() {
            return out.computeIfAbsent(className, k -> new ByteArrayOutputStream());
          }
        };
      }
    };
    List<JavaFileObject> units = new ArrayList<>();
    for (var e : sourcesByClassName.entrySet()) {
      String name = e.getKey(), text = e.getValue();
      units.add(new SimpleJavaFileObject(URI.create("string:///" + name.replace('.', '/') + ".java"), JavaFileObject.Kind.SOURCE) {
        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
          return text;
        }
      });
    }
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<String> options = List.of("-g", "-parameters", "-proc:none", "-Xlint:none", "-nowarn", "-classpath", classPath());
    boolean ok = JAVAC.getTask(null, fm, diagnostics, options, null, units).call();
    if (!ok) {
      StringBuilder why = new StringBuilder();
      diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR).limit(5)
          .forEach(d -> why.append(d.getSource() == null ? "" : d.getSource().getName()).append(':').append(d.getLineNumber())
              .append(": ").append(d.getMessage(Locale.ROOT)).append('\n'));
      throw new CompileError(why.toString());
    }
    MemoryClassLoader loader = new MemoryClassLoader(SourceCompiler.class.getClassLoader());
    out.forEach((name, bytes) -> loader.add(name, bytes.toByteArray()));
    return loader;
  }

  /** Where LoopJIT's own classes are (a directory or jar), for javac. */
  private static String classPath() {
    try {
      return Path.of(Parallel.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString()
          + File.pathSeparator + System.getProperty("java.class.path");
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** javac refused the source. */
  static final class CompileError extends RuntimeException {
    CompileError(String message) {
      super(message);
    }
  }
}
