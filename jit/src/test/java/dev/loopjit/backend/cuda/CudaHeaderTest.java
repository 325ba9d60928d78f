// Checks the FFM bindings to the CUDA driver against the toolkit's cuda.h: every bound symbol's prototype, the driver constants, the CUresult names.
package dev.loopjit.backend.cuda;

import static java.util.stream.Collectors.joining;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An ABI mistake in {@link CudaLibrary} (a wrong symbol, a missing argument, an int where the driver takes a size_t)
 * would only show as a crash on a GPU host; this catches it wherever the CUDA toolkit's headers are installed, with no
 * driver and no C compiler ({@link CudaHeader} reads the header). Skipped where there is no cuda.h.
 */
class CudaHeaderTest {
  /** cuda.h as applications see it: the plain, legacy-stream API (no CUDA_API_PER_THREAD_DEFAULT_STREAM). */
  private static CudaHeader publicView;
  /**
   * cuda.h as the driver itself is built ({@code __CUDA_API_VERSION_INTERNAL}): it also declares the older symbols a
   * driver keeps for old binaries, e.g. {@code cuEventElapsedTime}, which the public view renames to {@code cuEventElapsedTime_v2}.
   */
  private static CudaHeader driverView;

  /** Why the tests cannot run here, or null. */
  private static String skipped;

  @BeforeAll
  static void readHeader() throws IOException {
    Path header = CudaHeader.find();
    if (header == null) {
      skipped = "cuda.h not found: no CUDA toolkit in $CUDA_HOME or /usr/local/cuda";
      return;
    }
    String source = Files.readString(header, StandardCharsets.ISO_8859_1);
    publicView = new CudaHeader(source, Set.of());
    driverView = new CudaHeader(source, Set.of("__CUDA_API_VERSION_INTERNAL"));
    Long version = publicView.number("CUDA_VERSION");
    if (version == null || version < 13000) skipped = "the bindings follow cuda.h of CUDA 13; " + header + " is CUDA_VERSION " + version;
    int read = publicView.prototypes.size();
    assertTrue(read > 300, "read only " + read + " prototypes from " + header + ": CudaHeader no longer understands it");
  }

  @BeforeEach
  void needsTheHeader() {
    assumeTrue(skipped == null, skipped);
  }

  @Test
  void everyBoundSymbolHasTheSignatureCudaHDeclares() {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, FunctionDescriptor> bound : new TreeMap<>(CudaLibrary.SIGNATURES).entrySet()) {
      String symbol = bound.getKey();
      String ours = shape(bound.getValue().returnLayout().orElse(null), bound.getValue().argumentLayouts());
      if (symbol.endsWith("_ptds") || symbol.endsWith("_ptsz")) problems.add(symbol + ": a per-thread-default-stream variant; we use the legacy stream");
      CudaHeader view = publicView.prototypes.containsKey(symbol) ? publicView : driverView;
      CudaHeader.Prototype declared = view.prototypes.get(symbol);
      if (declared == null) {
        problems.add(symbol + ": cuda.h declares no such symbol (under that name or through a #define); we bind " + ours);
        continue;
      }
      List<MemoryLayout> parameters = declared.parameterTypes().stream().map(view::layout).toList();
      MemoryLayout result = view.layout(declared.returnType());
      if (result == null || parameters.contains(null)) {
        problems.add(symbol + ": cannot tell how to pass a C type of " + declared.text());
      } else if (!shape(result, parameters).equals(ours)) {
        problems.add(symbol + ": cuda.h declares " + declared.text() + " = " + shape(result, parameters) + "; we bind " + ours);
      }
      // An old symbol only the driver's view declares (cuDeviceTotalMem takes an unsigned int *, cuDeviceTotalMem_v2 a
      // size_t *) passes the same layouts, so it must also take the same C types as the symbol its name means today.
      CudaHeader.Prototype current = publicView.prototypes.get(publicView.symbolOf(symbol));
      if (view == driverView && (current == null || !cTypes(current).equals(cTypes(declared)))) {
        problems.add(symbol + ": an old symbol kept for old binaries, " + declared.text() + ", takes other C types than what "
            + "the name means today: " + (current == null ? "nothing" : current.text()));
      }
    }
    assertTrue(problems.isEmpty(), "CudaLibrary.SIGNATURES disagrees with cuda.h:\n" + String.join("\n", problems));
  }

  /** Where each family of constants in {@link Cuda} comes from: our names' prefix, the cuda.h enum (or "#define"), its names' prefix. */
  private record Family(String ours, String source, String theirs) {}

  private static final List<Family> FAMILIES = List.of(
      new Family("SUCCESS", "CUresult", "CUDA_SUCCESS"),
      new Family("ATTR_", "CUdevice_attribute", "CU_DEVICE_ATTRIBUTE_"),
      new Family("FUNC_", "CUfunction_attribute", "CU_FUNC_ATTRIBUTE_"),
      new Family("JIT_INPUT_", "CUjitInputType", "CU_JIT_INPUT_"),
      new Family("JIT_", "CUjit_option", "CU_JIT_"),
      new Family("STREAM_", "CUstream_flags", "CU_STREAM_"),
      new Family("EVENT_", "CUevent_flags", "CU_EVENT_"),
      new Family("MEMHOSTREGISTER_", "#define", "CU_MEMHOSTREGISTER_"));

  @Test
  void everyDriverConstantHasTheValueCudaHGivesIt() throws IllegalAccessException {
    List<String> problems = new ArrayList<>();
    for (Field field : Cuda.class.getDeclaredFields()) {
      if (!Modifier.isStatic(field.getModifiers()) || field.getType() != int.class) continue;
      String ours = field.getName();
      int value = field.getInt(null);
      Family family = FAMILIES.stream().filter(f -> ours.startsWith(f.ours())).findFirst().orElse(null);
      if (family == null) {
        problems.add("Cuda." + ours + " = " + value + ": add to FAMILIES which cuda.h enum or #define it comes from");
        continue;
      }
      String theirs = family.theirs() + ours.substring(family.ours().length());
      Long expected = family.source().equals("#define") ? publicView.number(theirs)
          : publicView.enums.getOrDefault(family.source(), Map.of()).get(theirs);
      if (expected == null) problems.add("Cuda." + ours + " = " + value + ": cuda.h has no " + theirs + " in " + family.source());
      else if (expected != value) problems.add("Cuda." + ours + " = " + value + " but cuda.h has " + theirs + " = " + expected);
    }
    assertTrue(problems.isEmpty(), "Cuda's constants disagree with cuda.h:\n" + String.join("\n", problems));
  }

  @Test
  void errorNamesAreTheCUresultsOfCudaH() {
    Map<String, Long> results = publicView.enums.get("CUresult");
    assertTrue(results != null && results.size() > 50, "no CUresult enum read from cuda.h");
    List<String> problems = new ArrayList<>();
    results.forEach((name, code) -> {
      String ours = CudaException.name(code.intValue());
      if (!code.equals(results.get(ours))) problems.add("cuda.h has " + name + " = " + code + " but CudaException.name(" + code + ") is " + ours);
    });
    for (int code = 0; code < 100_000; code++) {
      String ours = CudaException.name(code);
      if (ours.equals("CUDA_ERROR") || Long.valueOf(code).equals(results.get(ours))) continue;
      Long theirs = results.get(ours);
      problems.add("CudaException.name(" + code + ") is " + ours + " but cuda.h " + (theirs == null ? "has no such CUresult" : "has " + ours + " = " + theirs));
    }
    assertTrue(problems.isEmpty(), "CudaException's names disagree with cuda.h:\n" + String.join("\n", problems));
  }

  private static String cTypes(CudaHeader.Prototype p) {
    return p.returnType() + p.parameterTypes().stream().map(t -> t.replace(" ", "")).toList();
  }

  /** "(ADDRESS, JAVA_LONG) -> JAVA_INT": what a descriptor passes, whatever names or target layouts its layouts carry. */
  private static String shape(MemoryLayout result, List<MemoryLayout> arguments) {
    return arguments.stream().map(CudaHeaderTest::kind).collect(joining(", ", "(", ")")) + " -> " + kind(result);
  }

  private static String kind(MemoryLayout layout) {
    if (layout == null) return "void";
    if (layout instanceof AddressLayout) return "ADDRESS";
    return "JAVA_" + ((ValueLayout) layout).carrier().getSimpleName().toUpperCase(Locale.ROOT);
  }
}
