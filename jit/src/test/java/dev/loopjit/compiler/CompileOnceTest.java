// A new size never recompiles; a second plan finds its kernels in the cache; fallback only when asked, and said.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompileOnceTest {
  static void scale(FloatArray x, float k) {
    for (@Parallel int i = 0; i < x.getSize(); i++) x.set(i, x.get(i) * k);
  }

  static void allocates(float[] x) {
    for (@Parallel int i = 0; i < x.length; i++) x[i] = new float[] {x[i]}.length + Float.valueOf(x[i]).hashCode();
  }

  private static List<Device> devices() {
    return Devices.all().stream().filter(d -> !d.id().equals("jvm")).toList();
  }

  private static ExecutionResult run(Device d, FloatArray x) {
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, x)
        .task("scale", CompileOnceTest::scale, x, 3f).transferToHost(DataTransferMode.EVERY_EXECUTION, x);
    try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)) {
      return p.execute();
    }
  }

  @Test
  void newSizesAndNewPlansDoNotRecompile() {
    for (Device d : devices()) {
      run(d, new FloatArray(10));                       // may compile (or find the kernel on disk)
      for (int n : new int[] {1, 7, 1000, 4099, 65537}) {
        FloatArray x = new FloatArray(n);
        x.init(2f);
        ExecutionResult r = run(d, x);
        assertEquals(0, r.profile().kernelsCompiled(), d.id() + " recompiled for size " + n);
        for (int i = 0; i < n; i++) assertEquals(6f, x.get(i), d.id());
      }
    }
  }

  @Test
  void secondExecutionOfAPlanCompilesNothing() {
    for (Device d : devices()) {
      FloatArray x = new FloatArray(33);
      x.init(1f);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, x)
          .task("scale", CompileOnceTest::scale, x, 2f).transferToHost(DataTransferMode.EVERY_EXECUTION, x);
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        p.execute();
        ExecutionResult second = p.execute();
        assertEquals(0, second.profile().kernelsCompiled());
        assertEquals(0, second.profile().compileNanos(), "the plan keeps its kernels");
      }
      assertEquals(4f, x.get(32));
    }
  }

  @Test
  void unsupportedCodeFailsBeforeAnythingRunsUnlessFallbackIsAsked() {
    for (Device d : devices()) {
      float[] x = {1, 2, 3};
      float[] y = {5, 6, 7};
      TaskGraph g = new TaskGraph("g")
          .task("first", CompileOnceTest::scale, FloatArray.fromArray(y), 2f)
          .task("bad", CompileOnceTest::allocates, x)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, x);
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        KernelCompilationException e = assertThrows(KernelCompilationException.class, p::execute);
        assertTrue(e.getMessage().contains("CompileOnceTest.allocates (CompileOnceTest.java:"), e.getMessage());
        assertEquals("allocates", e.methodName());
        assertArrayEquals(new float[] {1, 2, 3}, x, "no host array changes when a plan fails to compile");
      }
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d).withFallback(Devices.jvm())) {
        ExecutionResult r = p.execute();
        assertTrue(r.fellBack());
        assertEquals("jvm", r.device().id());
        assertTrue(r.fallbackReason().contains("allocates"));
        assertEquals(3f + 1065353216f, x[0], 1f, "ran on the JVM");
      }
    }
  }

  @Test
  void noFallbackWithoutAFailure() {
    for (Device d : devices()) {
      ExecutionResult r = run(d, new FloatArray(4));
      assertFalse(r.fellBack());
      assertEquals(d.id(), r.device().id());
    }
  }

  @Test
  void dumpPrintsTheIrAfterEachPass() {
    PrintStream saved = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setProperty("loopjit.dump", "ir,parallel");
    try {
      System.setOut(new PrintStream(buf, true));
      Compiler.lower(MethodRef.of(CompileOnceTest.class, "scale", "(Ldev/loopjit/types/FloatArray;F)V"), Target.offline("opencl", ""), null,
          dev.loopjit.runtime.Settings.options().dump(), true);
    } finally {
      System.setOut(saved);
      System.clearProperty("loopjit.dump");
    }
    String out = buf.toString();
    assertTrue(out.contains("// ---- ir ----"), out);
    assertTrue(out.contains("// ---- parallel ----"), out);
    assertTrue(out.contains("global_id(0) < count_x"), out);
    assertFalse(out.contains("// ---- inline ----"), out);
  }
}
