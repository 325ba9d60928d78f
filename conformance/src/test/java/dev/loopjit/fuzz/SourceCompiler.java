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
 * the LoopJIT classes this JVM has. With {@code -Dfuzz.classCache=DIR} each source's class files are
 * kept in {@code DIR/<class>-<hash of the source>/} and read from there the next time: the bundle
 * carries them for its seeds, so the fuzzer runs on a GPU host whose runtime has no javac.
 */
final class SourceCompiler {
  private static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();

  private SourceCompiler() {}

  /** The classes, or a {@link CompileError} listing javac's complaints. */
  static MemoryClassLoader compile(Map<String, String> sourcesByClassName) {
    Map<String, Path> cached = new HashMap<>();   // each source's folder of classes under fuzz.classCache
    sourcesByClassName.forEach((name, text) -> {
      Path p = cacheFolder(name, text);
      if (p != null) cached.put(name, p);
    });
    if (!cached.isEmpty() && cached.values().stream().allMatch(java.nio.file.Files::isDirectory)) return load(cached.values());
    if (JAVAC == null)
      throw new IllegalStateException("no javac in this JDK (javax.tools.ToolProvider found none)" + (cached.isEmpty() ? ""
          : " and not every source's classes in " + System.getProperty("fuzz.classCache") + " (fuzz.classCache)"));
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
    cached.forEach((name, folder) -> store(folder, out.entrySet().stream()
        .filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "$"))
        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue))));
    return loader;
  }

  /** Where {@code fuzz.classCache} keeps the classes of source {@code text} of class {@code name}; null when it is not set. */
  private static Path cacheFolder(String name, String text) {
    String dir = System.getProperty("fuzz.classCache");
    if (dir == null || dir.isEmpty()) return null;
    try {
      java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
      sha.update(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return Path.of(dir, name + "-" + java.util.HexFormat.of().formatHex(sha.digest(), 0, 12));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static MemoryClassLoader load(java.util.Collection<Path> folders) {
    MemoryClassLoader loader = new MemoryClassLoader(SourceCompiler.class.getClassLoader());
    for (Path folder : folders) {
      try (var files = java.nio.file.Files.list(folder)) {
        for (Path f : files.toList()) {
          String file = f.getFileName().toString();
          if (file.endsWith(".class")) loader.add(file.substring(0, file.length() - 6), java.nio.file.Files.readAllBytes(f));
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return loader;
  }

  /** Writes the classes into {@code folder} (by way of a temporary one, so a reader sees all of them or none). */
  private static void store(Path folder, Map<String, ByteArrayOutputStream> classes) {
    try {
      java.nio.file.Files.createDirectories(folder.getParent());
      Path tmp = java.nio.file.Files.createTempDirectory(folder.getParent(), "tmp");
      for (var e : classes.entrySet()) java.nio.file.Files.write(tmp.resolve(e.getKey() + ".class"), e.getValue().toByteArray());
      try {
        java.nio.file.Files.move(tmp, folder, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      } catch (java.nio.file.FileSystemException e) {
        if (!java.nio.file.Files.isDirectory(folder)) throw e;
        try (var left = java.nio.file.Files.list(tmp)) {   // another run stored the same classes first
          for (Path f : left.toList()) java.nio.file.Files.delete(f);
        }
        java.nio.file.Files.delete(tmp);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
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
