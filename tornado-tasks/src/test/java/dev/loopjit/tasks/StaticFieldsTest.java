// A kernel that reads a static field that is not final: its value at each launch, as Java reads it, on every device.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;

/**
 * TornadoVM programs keep settings in static fields ({@code static float alpha = 2f;}). A static
 * field that is not final is an argument of the kernel that the host reads at each launch (as an
 * instance field of an instance-method kernel is): change it and the next {@code execute()} sees the
 * new value, with no recompilation. One read in a static helper of the program counts too. A static
 * final field is a constant, compiled in; a static array that is not final is refused on every
 * device alike (a kernel could not tell which array it holds).
 */
class StaticFieldsTest {
  static float alpha = 2f;
  static int offset = 1;
  static short small = -3;
  static float[] table = {1, 2, 3};

  static float shifted(float x) {
    return x + offset + small;
  }

  static void axpy(FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < x.getSize(); i++) y.set(i, alpha * x.get(i) + shifted(y.get(i)));
  }

  static void readsAnArray(IntArray a) {
    for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, (int) table[i % 3]);
  }

  @Test
  void aStaticFieldIsReadAtEachLaunchOnEveryDevice() {
    KernelCheck.of("axpy", StaticFieldsTest::axpy).args(() -> {
      Inputs in = new Inputs(11);
      return new Object[] {in.floatArray(1000, -1, 1), in.floatArray(1000, -1, 1)};
    }).run();
    for (Device d : Devices.all()) {
      FloatArray x = FloatArray.fromElements(1, 2, 3), y = new FloatArray(3);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, x, y).task("t", StaticFieldsTest::axpy, x, y)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
      float keepAlpha = alpha;
      int keepOffset = offset;
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        p.execute();
        assertEquals(2f * 3 + 0 + 1 - 3, y.get(2), d.id() + ": alpha 2, offset 1");
        alpha = 10f;
        offset = 100;
        y.set(2, 0f);
        var r = p.execute();
        assertEquals(10f * 3 + 0 + 100 - 3, y.get(2), d.id() + ": the next execution reads the new values");
        assertEquals(0, r.profile().kernelsCompiled(), d.id() + ": without compiling again");
      } finally {
        alpha = keepAlpha;
        offset = keepOffset;
      }
    }
  }

  @Test
  void aStaticArrayThatIsNotFinalIsRefusedOnEveryDevice() {
    String jvm = null;
    for (Device d : Devices.all()) {
      IntArray a = new IntArray(4);
      TaskGraph g = new TaskGraph("g").task("t", StaticFieldsTest::readsAnArray, a);
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        String m = assertThrows(KernelCompilationException.class, p::execute).getMessage();
        assertTrue(m.contains("StaticFieldsTest.table (only static final arrays of primitives can be read)"), m);
        if (jvm == null) jvm = m;
        assertEquals(jvm, m, d.id() + " refuses it as the jvm does");
      }
    }
  }
}
