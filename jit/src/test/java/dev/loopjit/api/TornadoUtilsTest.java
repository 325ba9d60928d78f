// TornadoVM's helper classes its examples call: QuantizationUtils' int8 dot products and TornadoMath of vectors in kernels, ChromeEventTracer on the host.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.types.Float16;
import dev.loopjit.types.Float2;
import dev.loopjit.types.Float4;
import dev.loopjit.types.Float8;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.Int8Array;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;

class TornadoUtilsTest {
  static void quantised(Int8Array w, Int8Array x, IntArray packed, IntArray dots, FloatArray scaled) {
    for (@Parallel int r = 0; r < dots.getSize(); r++) {
      int acc = 0;
      for (int j = 0; j < 16; j += 4) acc = QuantizationUtils.dp4a(w, (long) r * 16 + j, x, j, acc);
      acc = QuantizationUtils.dp4a_packed(packed.get(r), packed.get(r + 1), acc);
      dots.set(r, acc);
      scaled.set(r, QuantizationUtils.dequantizeFusedResult(acc, 0.02f, 0.5f));
    }
  }

  static void trig(FloatArray in, FloatArray out) {
    for (@Parallel int i = 0; i < in.getSize() / 16; i++) {
      float a = in.get(16 * i);
      Float2 c2 = TornadoMath.cos(new Float2(a, a + 1));
      Float4 s4 = TornadoMath.sin(new Float4(a, a * 2, a * 3, a * 4));
      Float8 c8 = TornadoMath.cos(new Float8(a, 1, 2, 3, 4, 5, 6, a));
      Float16 s16 = TornadoMath.sin(new Float16(a, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, a));
      out.set(i, c2.getY() + s4.getW() + c8.getS7() + s16.getS15() + s16.getS3());
    }
  }

  @Test
  void quantisedDotProductsAndVectorTrigonometryOnEveryDeviceEqualJava() {
    int rows = 64;
    Int8Array w = new Int8Array(rows * 16), x = new Int8Array(16);
    for (int i = 0; i < w.getSize(); i++) w.set(i, (byte) (i * 37 - 100));
    for (int i = 0; i < x.getSize(); i++) x.set(i, (byte) (i * 91 + 3));
    IntArray packed = new IntArray(rows + 1);
    for (int i = 0; i < packed.getSize(); i++) packed.set(i, i * 0x9E3779B9);
    IntArray wantDots = new IntArray(rows);
    FloatArray wantScaled = new FloatArray(rows), in = new FloatArray(rows * 16), wantTrig = new FloatArray(rows);
    for (int i = 0; i < in.getSize(); i++) in.set(i, i * 0.37f - 50f);
    quantised(w, x, packed, wantDots, wantScaled);
    trig(in, wantTrig);
    for (Device d : Devices.all()) {
      IntArray dots = new IntArray(rows);
      FloatArray scaled = new FloatArray(rows), out = new FloatArray(rows);
      TaskGraph g = new TaskGraph("u").transferToDevice(DataTransferMode.EVERY_EXECUTION, w, x, packed, in)
          .task("q", TornadoUtilsTest::quantised, w, x, packed, dots, scaled).task("t", TornadoUtilsTest::trig, in, out)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, dots, scaled, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      assertArrayEquals(wantDots.toArray(), dots.toArray(), d.id());
      assertArrayEquals(wantScaled.toArray(), scaled.toArray(), d.id());
      assertArrayEquals(wantTrig.toArray(), out.toArray(), d.id());
    }
    assertEquals(1 * 5 + 2 * 6 + 3 * 7 + 4 * 8 + 10, QuantizationUtils.dp4a_packed(0x04030201, 0x08070605, 10));
    assertEquals(-1 * 2 + 7, QuantizationUtils.dp4a_packed(0xFF, 0x02, 7));   // signed bytes
  }

  @Test
  void theChromeTracerDoesNothingUnlessEnabled() {
    assertEquals(false, ChromeEventTracer.isEnabled());
    ChromeEventTracer.enqueueTaskIfEnabled("nothing", 0, 10);
    assertEquals(42, (int) ChromeEventTracer.trace("value", () -> 42));
    assertEquals("chrome.json", ChromeEventTracer.getChromeEventTracerFileName());
  }
}
