// KernelCode, the public inspect API: each target's code for a kernel, with no device, from the recipe the runtime uses.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.backend.cuda.Ptxas;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class KernelCodeTest {
  static void saxpy(float a, FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, a * x.get(i) + y.get(i));
  }

  static float smooth(float v) {
    return (float) (Math.exp(v) + Math.pow(v, 3));
  }

  /** Math functions PTX has no exact instruction for, behind a helper: the dump once refused what the runtime compiled. */
  static void mathInHelper(FloatArray in, FloatArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) out.set(i, smooth(in.get(i)));
  }

  @Test
  void everyTargetPrintsItsCode() {
    assertTrue(KernelCode.of(KernelCodeTest::saxpy, "opencl").text().contains("__kernel void KernelCodeTest_saxpy("));
    assertTrue(KernelCode.of(KernelCodeTest::saxpy, "ptx").text().contains(".target sm_90"));
    assertTrue(KernelCode.of(KernelCodeTest::saxpy, "ptx:sm_80").text().contains(".target sm_80"));
    assertTrue(KernelCode.of(KernelCodeTest::saxpy, "ir").text().contains("void KernelCodeTest_saxpy("));
    assertTrue(KernelCode.of(KernelCodeTest::saxpy, "ir:parse").text().contains("for (;;)"), "the loop before the parallel pass");
    assertEquals("opencl", KernelCode.of(KernelCodeTest::saxpy, "opencl").target());
  }

  @Test
  void ptxOfMathThroughAHelperAssembles() {
    String ptx = KernelCode.of(KernelCodeTest::mathInHelper, "ptx:sm_90").text();
    assertTrue(ptx.contains(".entry KernelCodeTest_mathInHelper"), ptx);
    if (Ptxas.present()) {
      Ptxas.Result r = Ptxas.assemble(ptx, "sm_90");
      assertTrue(r.ok(), r.output());
    }
  }

  @Test
  void anUnknownTargetOrPassSaysWhatThereIs() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelCode.of(KernelCodeTest::saxpy, "metal"));
    assertTrue(e.getMessage().contains("opencl") && e.getMessage().contains("ptx"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> KernelCode.of(KernelCodeTest::saxpy, "ir:nosuchpass"));
    assertTrue(e.getMessage().contains("inline") && e.getMessage().contains("parallel"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> KernelCode.of(KernelCodeTest::saxpy, "ptx:volta"));
    assertTrue(e.getMessage().contains("sm_80"), e.getMessage());
  }
}
