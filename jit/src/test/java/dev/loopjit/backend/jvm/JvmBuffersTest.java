// The jvm device's copies of off-heap arrays are freed when the plan releases them, not when the GC next runs.
package dev.loopjit.backend.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Devices;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.Options;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.VectorFloat4;
import org.junit.jupiter.api.Test;

class JvmBuffersTest {
  @Test
  void anOffHeapCopyIsFreedWhenReleased() {
    JvmRuntime jvm = new JvmRuntime(Devices.jvm(), Options.DEFAULTS);
    FloatArray host = FloatArray.fromElements(1f, 2f, 3f);
    DeviceBuffer b = jvm.allocate(HostArray.of(host), false);
    jvm.copyIn(b);
    FloatArray copy = (FloatArray) ((JvmRuntime.JvmBuffer) b).copy();
    assertArrayEquals(new float[] {1f, 2f, 3f}, copy.toArray());
    assertTrue(copy.getSegment().scope().isAlive());
    b.release();
    assertFalse(copy.getSegment().scope().isAlive(), "the copy's memory is freed at once");

    VectorFloat4 v = new VectorFloat4(2);
    DeviceBuffer vb = jvm.allocate(HostArray.of(v), false);
    VectorFloat4 vcopy = (VectorFloat4) ((JvmRuntime.JvmBuffer) vb).copy();
    vb.release();
    assertFalse(vcopy.getArray().getSegment().scope().isAlive(), "a collection's storage too");

    float[] heap = {4f};
    DeviceBuffer hb = jvm.allocate(HostArray.of(heap), false);
    hb.release();   // a heap copy is the GC's: nothing to free
  }
}
