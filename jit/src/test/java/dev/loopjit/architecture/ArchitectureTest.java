// The architecture as a test: no package cycle, and each layer imports only what its place allows.
package dev.loopjit.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reads the engine's own class files ({@code target/classes}) and fails on a package cycle or a
 * forbidden import. The layers, bottom up (docs/ARCHITECTURE.md draws them):
 * <pre>
 *   types, format                   leaves (format: the printf format's one parser, for api.Debug and ir.PrintFormat)
 *   ir         → format             the closed IR
 *   api        → types, format      the public API: builders and values; the engine found by ServiceLoader
 *   compiler   → ir, api (the annotations, KernelContext and the exception it reads)
 *   spi        → api, compiler, ir, types          what backends are written against
 *   backend.*  → spi, api, compiler, ir, types     never the plan runner, never another backend
 *                                                  (but OpenCL devices take SPIR-V: backend.opencl → backend.spirv,
 *                                                  and any C dialect builds on the C-style emitter: → backend.c)
 *   runtime    → spi, api, compiler, ir, types     the engine: settings, backends, the task-graph runner
 *   cli        → anything                          the command line
 * </pre>
 */
class ArchitectureTest {
  private static PackageGraph graph;

  @BeforeAll
  static void read() throws IOException {
    Path classes = Path.of("target", "classes");
    assertTrue(Files.isDirectory(classes.resolve("dev/loopjit/api")), "run from the jit module after compiling: " + classes.toAbsolutePath());
    graph = PackageGraph.of(classes);
  }

  @Test
  void thePackageGraphHasNoCycle() {
    assertEquals(List.of(), graph.cycles(), "package cycles in " + graph.packages());
  }

  @Test
  void everyPackageImportsOnlyWhatItsLayerAllows() {
    Map<String, Set<String>> allowed = Map.of(
        "types", Set.of(),
        "format", Set.of(),
        "ir", Set.of("format"),
        "api", Set.of("types", "format"),
        "compiler", Set.of("ir", "api"),
        "spi", Set.of("api", "compiler", "ir", "types"),
        "runtime", Set.of("spi", "api", "compiler", "ir", "types"));
    List<String> wrong = new ArrayList<>();
    for (var e : graph.packages().entrySet()) {
      String p = e.getKey();
      Set<String> ok = p.equals("backend.opencl") ? Set.of("spi", "api", "compiler", "ir", "types", "backend.spirv", "backend.c")
          : p.startsWith("backend.") ? Set.of("spi", "api", "compiler", "ir", "types", "backend.c") : allowed.get(p);
      if (p.equals("cli")) continue;
      if (ok == null) {
        wrong.add("package " + p + " has no place in the architecture (add it to ArchitectureTest and docs/ARCHITECTURE.md)");
        continue;
      }
      for (String used : e.getValue()) if (!ok.contains(used)) wrong.add(p + " uses " + used + " (" + example(p, used) + ")");
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void theCompilerReadsOnlyTheAnnotationsTheContextAndTheCompileExceptionsOfTheApi() {
    Set<String> allowed = Set.of("dev/loopjit/api/Parallel", "dev/loopjit/api/Reduce", "dev/loopjit/api/KernelContext",
        "dev/loopjit/api/KernelCompilationException", "dev/loopjit/api/TornadoDeviceFP64NotSupported");
    List<String> wrong = graph.uses().stream()
        .filter(u -> PackageGraph.packageOf(u.from()).equals("compiler") && PackageGraph.packageOf(u.to()).equals("api"))
        .filter(u -> !allowed.contains(u.to().replaceFirst("\\$.*", "")))
        .map(u -> u.from() + " uses " + u.to()).toList();
    assertEquals(List.of(), wrong);
  }

  private static String example(String from, String to) {
    return graph.uses().stream().filter(u -> PackageGraph.packageOf(u.from()).equals(from) && PackageGraph.packageOf(u.to()).equals(to))
        .map(u -> u.from() + " → " + u.to()).findFirst().orElse("?");
  }
}
