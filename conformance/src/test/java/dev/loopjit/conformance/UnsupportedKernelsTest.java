// Every UnsupportedKernels kernel must be refused with a KernelCompilationException naming class, method, line and construct.
package dev.loopjit.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Target;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.IntArray;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.LineNumber;
import java.lang.classfile.instruction.NewObjectInstruction;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compiles each kernel of {@link UnsupportedKernels} through {@code Compiler.compile} for an offline
 * OpenCL target (no device needed) and, where an OpenCL device exists, through
 * {@code ExecutionPlan.execute()}; both must throw {@link KernelCompilationException} whose
 * {@code className()}, {@code methodName()} and {@code line()} point at the line marked
 * {@code // REFUSED:} in the source, whose message names the construct (one of the marker's words)
 * and every call on the way from the kernel's own line, and, on the plan path, after which every
 * host array is as it was.
 */
class UnsupportedKernelsTest {
  private static final Class<?> KERNELS = UnsupportedKernels.class;
  private static final String FILE = "UnsupportedKernels.java";
  private static final Pattern METHOD = Pattern.compile("^  (?:public |private )?static [\\w\\[\\]<>]+ (\\w+)\\(");
  private static final Pattern REFUSED = Pattern.compile("// REFUSED: (.+)$");
  private static final Pattern CALLS = Pattern.compile("// CALLS: (\\w+)\\s*$");
  private static final Pattern REFUSED_IN = Pattern.compile("// REFUSED IN ([\\w.$]+)\\.(\\w+)(\\([^)]*\\)\\S+): (.+)$");

  /** Where a refusal must point: class, method and line, the words one of which the message holds, and the call lines before it. */
  record Expected(String className, String methodName, int line, String file, List<String> words, List<Integer> callLines) {}

  private record Marker(String kind, int line, String text) {}

  private static Map<String, List<Marker>> markers;

  /** The markers of each method of the source, read once. */
  private static synchronized Map<String, List<Marker>> markers() throws IOException {
    if (markers != null) return markers;
    // The source travels as a test resource (jit/pom.xml), so the check also runs from the bundle's test jar.
    List<String> lines;
    try (var in = UnsupportedKernelsTest.class.getResourceAsStream(FILE)) {
      if (in == null) throw new java.io.FileNotFoundException(FILE + " is not on the test class path");
      lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
    }
    Map<String, List<Marker>> m = new HashMap<>();
    String method = null;
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      Matcher d = METHOD.matcher(l);
      if (d.find()) method = d.group(1);
      if (method == null) continue;
      Matcher r = REFUSED.matcher(l), c = CALLS.matcher(l), j = REFUSED_IN.matcher(l);
      List<Marker> list = m.computeIfAbsent(method, k -> new ArrayList<>());
      if (r.find()) list.add(new Marker("refused", i + 1, r.group(1)));
      else if (c.find()) list.add(new Marker("calls", i + 1, c.group(1)));
      else if (j.find()) list.add(new Marker("jdk", i + 1, j.group(1) + " " + j.group(2) + " " + j.group(3) + " " + j.group(4)));
    }
    markers = m;
    return m;
  }

  private static List<String> words(String text) {
    return Arrays.stream(text.split("\\|")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  /** Follows CALLS markers from {@code method} to the line that must be reported. */
  static Expected expected(String method, List<Integer> callLines) throws IOException {
    List<Marker> ms = markers().getOrDefault(method, List.of());
    assertFalse(ms.isEmpty(), "no REFUSED, CALLS or REFUSED IN marker in " + method);
    Marker m = ms.getFirst();
    return switch (m.kind()) {
      case "refused" -> new Expected(KERNELS.getName(), method, m.line(), FILE, words(m.text()), callLines);
      case "calls" -> {
        List<Integer> chain = new ArrayList<>(callLines);
        chain.add(m.line());
        yield expected(m.text(), chain);
      }
      default -> {
        String[] p = m.text().split(" ", 4); // owner, name, descriptor, words
        List<Integer> chain = new ArrayList<>(callLines);
        chain.add(m.line());
        yield new Expected(p[0], p[1], firstNewLine(p[0], p[1], p[2]), p[0].substring(p[0].lastIndexOf('.') + 1) + ".java",
            words(p[3]), chain);
      }
    };
  }

  /** The source line of the first {@code new} in a JDK method, from its class file's line table. */
  static int firstNewLine(String owner, String name, String descriptor) throws IOException {
    byte[] bytes;
    try (InputStream in = Object.class.getResourceAsStream("/" + owner.replace('.', '/') + ".class")) {
      assertNotNull(in, "class file of " + owner);
      bytes = in.readAllBytes();
    }
    ClassModel cm = ClassFile.of().parse(bytes);
    for (MethodModel mm : cm.methods()) {
      if (!mm.methodName().equalsString(name) || !mm.methodType().equalsString(descriptor)) continue;
      int line = -1;
      for (CodeElement e : mm.code().orElseThrow()) {
        if (e instanceof LineNumber ln) line = ln.line();
        if (e instanceof NewObjectInstruction) return line;
      }
    }
    throw new AssertionError("no 'new' in " + owner + "." + name + descriptor);
  }

  static Stream<String> kernels() {
    return Arrays.stream(KERNELS.getDeclaredMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()))
        .map(Method::getName).sorted();
  }

  private static Method method(String name) {
    return Arrays.stream(KERNELS.getDeclaredMethods()).filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
  }

  static void check(KernelCompilationException e, Expected x) {
    String msg = e.getMessage();
    assertNotNull(msg, "a message");
    assertEquals(x.className(), e.className(), "className: " + msg);
    assertEquals(x.methodName(), e.methodName(), "methodName: " + msg);
    assertEquals(x.line(), e.line(), "line: " + msg);
    assertTrue(e.construct() != null && !e.construct().isBlank(), "construct: " + msg);
    assertTrue(msg.contains(x.methodName()), "the message names the method: " + msg);
    assertTrue(msg.contains(x.file() + ":" + x.line()), "the message names " + x.file() + ":" + x.line() + ": " + msg);
    String lower = msg.toLowerCase(Locale.ROOT);
    assertTrue(x.words().stream().anyMatch(w -> lower.contains(w.toLowerCase(Locale.ROOT))),
        "the message names the construct (" + String.join(" | ", x.words()) + "): " + msg);
    for (int call : x.callLines())
      assertTrue(msg.contains(FILE + ":" + call), "the message names the call on " + FILE + ":" + call + ": " + msg);
  }

  /** The test's own machinery: at least 20 kernels, each with a marker that leads to a line. */
  @Test
  void everyKernelIsMarked() throws IOException {
    List<String> all = kernels().toList();
    assertTrue(all.size() >= 20, "only " + all.size() + " unsupported kernels");
    for (String k : all) {
      Expected x = expected(k, List.of());
      assertTrue(x.line() > 0 && !x.words().isEmpty(), k + ": " + x);
    }
    Expected chain = expected("recursionMutual", List.of());
    assertEquals("isOdd", chain.methodName());
    assertEquals(2, chain.callLines().size(), chain.toString());
    Expected jdk = expected("jdkMethodThatThrows", List.of());
    assertEquals("java.lang.Math", jdk.className());
    assertEquals("Math.java", jdk.file());
  }

  @ParameterizedTest
  @MethodSource("kernels")
  void refusedByTheCompiler(String kernel) throws IOException {
    Expected x = expected(kernel, List.of());
    Method m = method(kernel);
    String descriptor = MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString();
    KernelCompilationException e = assertThrows(KernelCompilationException.class,
        () -> Compiler.compile(MethodRef.of(KERNELS, kernel, descriptor), Target.offline("opencl", "")));
    check(e, x);
  }

  @ParameterizedTest
  @MethodSource("kernels")
  void refusedByThePlanOnOpenCl(String kernel) throws IOException {
    KernelCheck.checkRequiredDevices();
    Device opencl = Devices.all().stream().filter(d -> d.backend().equals("opencl")).findFirst().orElse(null);
    assumeTrue(opencl != null, "no OpenCL device on this machine");
    Expected x = expected(kernel, List.of());
    Method m = method(kernel);
    Object[] args = Arrays.stream(m.getParameterTypes()).map(UnsupportedKernelsTest::argument).toArray();
    Serializable code = taskOf(m);
    if (Arrays.asList(m.getParameterTypes()).contains(float[][].class)) {
      // A reference-array parameter is refused earlier, when the task is added.
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelCheck.addTask(new TaskGraph("g"), "t", code, args));
      assertTrue(e.getMessage().contains("g.t") && e.getMessage().contains("rows"), e.getMessage());
      return;
    }
    List<Object> before = Arrays.stream(args).map(UnsupportedKernelsTest::copy).toList();
    Object[] arrays = Arrays.stream(args).filter(a -> a instanceof int[] || a instanceof IntArray).toArray();
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, arrays);
    KernelCheck.addTask(g, "t", code, args).transferToHost(DataTransferMode.EVERY_EXECUTION, arrays);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(opencl);
      check(assertThrows(KernelCompilationException.class, plan::execute), x);
    }
    for (int i = 0; i < args.length; i++)
      if (args[i] instanceof int[] || args[i] instanceof IntArray)
        assertArrayEquals((int[]) before.get(i), (int[]) copy(args[i]), kernel + ": host array " + i + " changed");
  }

  /**
   * A loop whose iterations cannot keep Java's meaning when run at once is refused by every device,
   * the jvm reference included (which would otherwise give the sequential result), with the same
   * line, and no host array changes.
   */
  @ParameterizedTest
  @MethodSource("parallelMeaning")
  void parallelMeaningRefusedOnEveryDevice(String kernel) throws IOException {
    Expected x = expected(kernel, List.of());
    for (Device d : Devices.all()) {
      int[] in = new int[64], out = new int[64];
      for (int i = 0; i < 64; i++) in[i] = i;
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in, out);
      KernelCheck.addTask(g, "t", twoArrays(kernel), new Object[] {in, out}).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
        plan.withDevice(d);
        check(assertThrows(KernelCompilationException.class, plan::execute, d.id()), x);
      }
      assertArrayEquals(new int[64], out, d.id() + ": the host array changed");
    }
  }

  static Stream<String> parallelMeaning() {
    return Stream.of("privateArrayReadAfterLoop", "scalarCarried", "privateArrayCarried", "scalarReadAfterLoop");
  }

  /** A method reference to {@code m} of the right TaskN, through a tiny switch on its parameter types. */
  private static Serializable taskOf(Method m) {
    return switch (m.getName()) {
      case "virtualCall" -> (dev.loopjit.api.Task2<IntArray, int[]>) UnsupportedKernels::virtualCall;
      case "objectArrayParameter" -> (dev.loopjit.api.Task2<float[][], int[]>) UnsupportedKernels::objectArrayParameter;
      case "innerBoundDependsOnOuter" -> (dev.loopjit.api.Task3<int[], int[], Integer>) UnsupportedKernels::innerBoundDependsOnOuter;
      case "fourDeepNest" -> (dev.loopjit.api.Task3<int[], int[], Integer>) UnsupportedKernels::fourDeepNest;
      default -> twoArrays(m.getName());
    };
  }

  private static final Map<String, dev.loopjit.api.Task2<int[], int[]>> TWO_ARRAYS = Map.ofEntries(
      Map.entry("newObject", UnsupportedKernels::newObject), Map.entry("newInHelper", UnsupportedKernels::newInHelper),
      Map.entry("interfaceCall", UnsupportedKernels::interfaceCall), Map.entry("throwException", UnsupportedKernels::throwException),
      Map.entry("tryCatch", UnsupportedKernels::tryCatch), Map.entry("instanceFieldRead", UnsupportedKernels::instanceFieldRead),
      Map.entry("instanceFieldWrite", UnsupportedKernels::instanceFieldWrite), Map.entry("staticFieldWrite", UnsupportedKernels::staticFieldWrite),
      Map.entry("synchronizedBlock", UnsupportedKernels::synchronizedBlock), Map.entry("recursionDirect", UnsupportedKernels::recursionDirect),
      Map.entry("recursionMutual", UnsupportedKernels::recursionMutual), Map.entry("string", UnsupportedKernels::string),
      Map.entry("lambda", UnsupportedKernels::lambda), Map.entry("arraySizeFromMemory", UnsupportedKernels::arraySizeFromMemory),
      Map.entry("arrayClone", UnsupportedKernels::arrayClone), Map.entry("objectArrayLocal", UnsupportedKernels::objectArrayLocal),
      Map.entry("jdkMethodThatThrows", UnsupportedKernels::jdkMethodThatThrows), Map.entry("printInKernel", UnsupportedKernels::printInKernel),
      Map.entry("returnInParallelLoop", UnsupportedKernels::returnInParallelLoop),
      Map.entry("privateArrayReadAfterLoop", UnsupportedKernels::privateArrayReadAfterLoop),
      Map.entry("scalarCarried", UnsupportedKernels::scalarCarried), Map.entry("privateArrayCarried", UnsupportedKernels::privateArrayCarried),
      Map.entry("scalarReadAfterLoop", UnsupportedKernels::scalarReadAfterLoop),
      Map.entry("swapInLoop", UnsupportedKernels::swapInLoop), Map.entry("arrayOfAnotherKind", UnsupportedKernels::arrayOfAnotherKind),
      Map.entry("longInductionVariable", UnsupportedKernels::longInductionVariable),
      Map.entry("stepNotLoopInvariant", UnsupportedKernels::stepNotLoopInvariant),
      Map.entry("printfString", UnsupportedKernels::printfString), Map.entry("printfMismatch", UnsupportedKernels::printfMismatch),
      Map.entry("float4Setter", UnsupportedKernels::float4Setter));

  private static Serializable twoArrays(String name) {
    dev.loopjit.api.Task2<int[], int[]> t = TWO_ARRAYS.get(name);
    assertNotNull(t, "UnsupportedKernelsTest.TWO_ARRAYS lacks " + name);
    return t;
  }

  /** An argument for a parameter type: arrays of 1024 positive ints (no kernel would fail on them), 31 for an int. */
  private static Object argument(Class<?> type) {
    int[] values = new int[1024];
    for (int i = 0; i < values.length; i++) values[i] = i + 1;
    if (type == int[].class) return values;
    if (type == IntArray.class) return IntArray.fromArray(values);
    if (type == int.class) return 31;
    if (type == float[][].class) return new float[2][3];
    throw new AssertionError("no argument for " + type);
  }

  private static Object copy(Object a) {
    return switch (a) {
      case int[] x -> x.clone();
      case IntArray x -> x.toArray();
      default -> a;
    };
  }
}
