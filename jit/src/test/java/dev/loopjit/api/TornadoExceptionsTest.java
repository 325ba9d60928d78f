// TornadoVM's exception types: programs that catch them compile after the import rename, and catch what LoopJIT throws.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.compiler.Compiler;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Target;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class TornadoExceptionsTest {
  static void scale(FloatArray a) {
    for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, a.get(i) * 2);
  }

  static void allocates(FloatArray a) {
    for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, new java.util.ArrayList<Float>().size());
  }

  static void doubles(DoubleArray a) {
    for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, a.get(i) * 0.5);
  }

  /** TornadoVM's idiom: try-with-resources with a catch of the plan's exception; it compiles, and a closed plan throws it. */
  @Test
  void aTornadoVmPlanBlockCompilesAndItsCatchCatchesAClosedPlan() {
    FloatArray a = FloatArray.fromElements(1, 2);
    ExecutionPlan kept = null;
    try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").task("t", TornadoExceptionsTest::scale, a)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot()).withDevice(Devices.jvm())) {
      plan.execute();
      kept = plan;
    } catch (TornadoExecutionPlanException e) {
      throw new AssertionError("nothing failed", e);
    }
    assertEquals(4f, a.get(1));
    ExecutionPlan closed = kept;
    TornadoExecutionPlanException e = assertThrows(TornadoExecutionPlanException.class, closed::execute);
    assertInstanceOf(IllegalStateException.class, e, "still the IllegalStateException it was");
    assertEquals("this ExecutionPlan was closed", e.getReason());
  }

  @Test
  void aRefusedKernelIsATornadoCompilationException() {
    for (Device d : Devices.all()) {
      TaskGraph g = new TaskGraph("g").task("t", TornadoExceptionsTest::allocates, new FloatArray(2));
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        TornadoCompilationException e = assertThrows(TornadoCompilationException.class, p::execute);
        assertInstanceOf(KernelCompilationException.class, e, d.id());
        assertTrue(e.getMessage().contains("TornadoExceptionsTest.allocates (TornadoExceptionsTest.java:"), e.getMessage());
      }
    }
  }

  /** A device without fp64 (here a target that declares none): TornadoVM's exception, which is LoopJIT's too. */
  @Test
  void doublesOnADeviceWithoutFp64AreTornadoDeviceFp64NotSupported() {
    Target noFp64 = Target.of("opencl").withFp64(false);
    MethodRef m = MethodRef.of(TornadoExceptionsTest.class, "doubles", "(Ldev/loopjit/types/DoubleArray;)V");
    TornadoDeviceFP64NotSupported e = assertThrows(TornadoDeviceFP64NotSupported.class, () -> Compiler.compile(m, noFp64));
    assertInstanceOf(KernelCompilationException.class, e);
    assertTrue(e.getMessage().contains("'double' is used, but this device has no double precision (fp64)"), e.getMessage());
    assertEquals("doubles", e.methodName());
  }
}
