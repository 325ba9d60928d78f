// Writes a problem the fuzzer found as one self-contained Java file: the kernel, its arguments as literals, and a main that compares.
package dev.loopjit.fuzz;

import dev.loopjit.fuzz.FuzzKernel.Param;
import dev.loopjit.fuzz.FuzzKernel.Role;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.NativeArray;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * A reproducer needs only LoopJIT on the class path:
 * {@code java --enable-native-access=ALL-UNNAMED -cp loopjit-jit.jar Repro_123.java opencl:0} runs
 * the kernel on the jvm and on the device and prints every array that differs. Arrays are written
 * out element by element (floats by their bits when they are not plain numbers), so nothing
 * depends on the fuzzer's random numbers.
 */
final class Reproducer {
  private Reproducer() {}

  /** The source of class {@code name} (default package) reproducing {@code finding} of kernel {@code k}. */
  static String source(FuzzKernel k, String name, Differential.Finding finding) {
    FuzzKernel renamed = k.withName(name);
    String kernelClass = renamed.source();
    // the generated class, minus its package and the TASK field, plus a main
    String body = kernelClass.substring(kernelClass.indexOf("public final class"));
    body = body.substring(0, body.lastIndexOf("  public static final java.io.Serializable TASK"));
    StringBuilder s = new StringBuilder();
    s.append("// A problem found by the LoopJIT differential fuzzer (scripts/fuzz), minimised.\n");
    s.append("// Seed ").append(k.seed()).append(", shape ").append(k.shape()).append(", ").append(k.n()).append(" work-item(s).\n");
    for (String line : finding.detail().lines().limit(12).toList()) s.append("// ").append(line).append('\n');
    s.append("// Run: java --enable-native-access=ALL-UNNAMED -cp <loopjit-jit.jar> ").append(name).append(".java [device]\n\n");
    s.append("import dev.loopjit.api.*;\nimport dev.loopjit.types.*;\nimport java.util.Arrays;\n\n");
    s.append(body);
    s.append("  static Object[] arguments() {\n    return new Object[] {\n");
    Object[] args = k.arguments();
    for (int i = 0; i < args.length; i++)
      s.append("      ").append(literal(k.params().get(i), args[i])).append(i + 1 < args.length ? ",\n" : "\n");
    s.append("    };\n  }\n\n");
    s.append("  static Object[] run(String device) {\n");
    s.append("    Object[] a = arguments();\n");
    s.append("    Object[] arrays = Arrays.stream(a).filter(x -> x != null && (x.getClass().isArray() || x instanceof NativeArray)).toArray();\n");
    s.append("    TaskGraph g = new TaskGraph(\"repro\").transferToDevice(DataTransferMode.EVERY_EXECUTION, arrays)\n");
    s.append("        .task(\"k\", ").append(name).append("::kernel");
    for (int i = 0; i < args.length; i++) s.append(", (").append(k.params().get(i).boxedType()).append(") a[").append(i).append(']');
    s.append(")\n        .transferToHost(DataTransferMode.EVERY_EXECUTION, arrays);\n");
    s.append("    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {\n");
    s.append("      plan.withDevice(Devices.get(device.replace(\"+spirv\", \"\")));\n");
    s.append("      if (device.endsWith(\"+spirv\")) plan.withSetting(\"opencl.program\", \"spirv\").withSetting(\"spirv.bridge\", \"llvm-spirv\");\n");
    if (k.localSize() > 0)
      s.append("      plan.withGridScheduler(new GridScheduler(\"repro.k\", new WorkerGrid1D(").append(k.globalSize())
          .append(").setLocalWork(").append(k.localSize()).append(", 1, 1)));\n");
    s.append("      plan.execute();\n    }\n    return a;\n  }\n\n");
    s.append("  public static void main(String[] args) {\n");
    String device = finding.device().startsWith("compile:ptx") ? "cuda:0" : finding.device().startsWith("compile:spirv") ? "opencl:0+spirv"
        : finding.device().startsWith("compile:") ? "opencl:0" : finding.device();
    s.append("    String device = args.length > 0 ? args[0] : \"").append(device).append("\";\n");
    s.append("    Object[] expected = run(\"jvm\"), actual = run(device);\n");
    s.append("    String[] names = {");
    for (int i = 0; i < args.length; i++) s.append(i == 0 ? "" : ", ").append('"').append(k.params().get(i).name()).append('"');
    s.append("};\n");
    s.append("    boolean same = true;\n");
    s.append("    for (int i = 0; i < expected.length; i++) {\n");
    s.append("      String e = show(expected[i]), d = show(actual[i]);\n");
    s.append("      if (e == null || e.equals(d)) continue;\n");
    s.append("      same = false;\n");
    s.append("      System.out.println(names[i] + \" differs\\n  jvm:    \" + e + \"\\n  \" + device + \": \" + d);\n");
    s.append("    }\n");
    s.append("    System.out.println(same ? \"same results on jvm and \" + device : \"differences above\");\n");
    s.append("  }\n\n");
    s.append("  /** An array's elements (floats by Arrays.toString: NaNs alike, -0.0 apart), or null for a scalar. */\n");
    s.append("  static String show(Object x) {\n");
    s.append("    if (x instanceof NativeArray n) {\n");
    s.append("      try { x = n.getClass().getMethod(\"toArray\").invoke(n); } catch (ReflectiveOperationException e) { throw new IllegalStateException(e); }\n");
    s.append("    }\n");
    s.append("    if (x == null || !x.getClass().isArray()) return null;\n");
    s.append("    StringBuilder b = new StringBuilder(\"[\");\n");
    s.append("    for (int i = 0; i < java.lang.reflect.Array.getLength(x); i++) b.append(i == 0 ? \"\" : \", \").append(java.lang.reflect.Array.get(x, i));\n");
    s.append("    return b.append(']').toString();\n");
    s.append("  }\n}\n");
    return s.toString();
  }

  private static String literal(Param p, Object v) {
    return switch (p.role()) {
      case CONTEXT -> "new KernelContext()";
      case SCALAR, COUNT, DIM, LOW -> p.type().literal(v);
      case OUTPUT, SINK, ATOMIC -> {
        int n = v instanceof NativeArray na ? (int) na.getSize() : Array.getLength(v);
        yield p.half() ? "new HalfFloatArray(" + n + ")" : p.offHeap() ? "new " + FuzzKernel.offHeapClass(p.type()) + "(" + n + ")"
            : "new " + p.type().java + "[" + n + "]";
      }
      case INPUT, REDUCE -> {
        Object plain = v;
        if (v instanceof HalfFloatArray h) plain = h.toArray();
        else if (v instanceof NativeArray n) plain = toArray(n);
        JType t = p.half() ? JType.FLOAT : p.type();
        List<String> elements = new ArrayList<>();
        for (int i = 0; i < Array.getLength(plain); i++) elements.add(t.literal(Array.get(plain, i)));
        String array = "new " + t.java + "[] {" + String.join(", ", elements) + "}";
        yield p.half() ? "HalfFloatArray.fromArray(" + array + ")" : p.offHeap() ? FuzzKernel.offHeapClass(p.type()) + ".fromArray(" + array + ")" : array;
      }
    };
  }

  private static Object toArray(NativeArray n) {
    try {
      return n.getClass().getMethod("toArray").invoke(n);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  static boolean isResult(Param p) {
    return p.role() == Role.OUTPUT || p.role() == Role.SINK || p.role() == Role.REDUCE;
  }
}
