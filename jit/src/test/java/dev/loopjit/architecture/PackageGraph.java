// The package dependency graph of compiled classes, read from their class files: what jdeps -verbose:package shows.
package dev.loopjit.architecture;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * For every class under a class-file root, the LoopJIT classes it refers to: class entries of its
 * constant pool and every type named in its descriptors and generic signatures (fields, methods,
 * annotations), as {@code jdeps} counts them. Packages are folded by {@code package-info} rules:
 * the package of {@code dev.loopjit.backend.opencl.OpenClRuntime} is {@code backend.opencl}.
 */
final class PackageGraph {
  private static final Pattern TYPE = Pattern.compile("L(dev/loopjit/[A-Za-z0-9_/$]+)[;<]");
  private static final String PREFIX = "dev/loopjit/";

  /** A use of one class by another. */
  record Use(String from, String to) {}

  private final List<Use> uses = new ArrayList<>();

  private PackageGraph() {}

  /** The graph of every class file under {@code root}. */
  static PackageGraph of(Path root) throws IOException {
    PackageGraph g = new PackageGraph();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        ClassModel c = ClassFile.of().parse(f);
        String from = c.thisClass().asInternalName();
        if (from.endsWith("module-info")) continue;
        Set<String> to = new TreeSet<>();
        for (PoolEntry e : c.constantPool()) {
          if (e instanceof ClassEntry ce) add(to, ce.asInternalName());
          else if (e instanceof Utf8Entry u) {
            Matcher m = TYPE.matcher(u.stringValue());
            while (m.find()) add(to, m.group(1));
          }
        }
        for (String t : to) if (!t.equals(from)) g.uses.add(new Use(from, t));
      }
    }
    return g;
  }

  private static void add(Set<String> to, String internalName) {
    String n = internalName.replaceFirst("^\\[*L?", "").replaceFirst(";$", "");
    if (n.startsWith(PREFIX)) to.add(n);
  }

  /** {@code backend.opencl} for {@code dev/loopjit/backend/opencl/X}. */
  static String packageOf(String internalName) {
    String rest = internalName.substring(PREFIX.length());
    return rest.substring(0, Math.max(0, rest.lastIndexOf('/'))).replace('/', '.');
  }

  List<Use> uses() {
    return uses;
  }

  /** Package to the packages it uses (itself excluded). */
  Map<String, Set<String>> packages() {
    Map<String, Set<String>> m = new TreeMap<>();
    for (Use u : uses) {
      String a = packageOf(u.from()), b = packageOf(u.to());
      m.computeIfAbsent(a, k -> new TreeSet<>());
      if (!a.equals(b)) m.get(a).add(b);
    }
    return m;
  }

  /** Every cycle of packages, each as a path that returns to its start; empty when the graph is acyclic. */
  List<List<String>> cycles() {
    Map<String, Set<String>> g = packages();
    List<List<String>> found = new ArrayList<>();
    for (String start : g.keySet()) {
      List<String> path = new ArrayList<>(List.of(start));
      walk(g, start, start, path, new TreeSet<>(), found);
    }
    return found;
  }

  private static void walk(Map<String, Set<String>> g, String start, String at, List<String> path, Set<String> seen, List<List<String>> found) {
    for (String next : g.getOrDefault(at, Set.of())) {
      if (next.equals(start)) {
        List<String> cycle = new ArrayList<>(path);
        cycle.add(start);
        if (start.equals(cycle.stream().min(String::compareTo).orElseThrow())) found.add(cycle);   // each cycle once
      } else if (seen.add(next)) {
        path.add(next);
        walk(g, start, next, path, seen, found);
        path.removeLast();
      }
    }
  }
}
