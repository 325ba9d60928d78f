// TornadoVM's DataRange: part of an array copied back on demand, the host's other elements untouched, on every device and across devices.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class DataRangeTest {
  static void fill(FloatArray a, float v) {
    for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, v + i);
  }

  static void copy(FloatArray a, FloatArray b) {
    for (@Parallel int i = 0; i < b.getSize(); i++) b.set(i, a.get(i) * 2f);
  }

  @Test
  void onlyTheRangeComesBack() {
    for (Device d : Devices.all()) {
      FloatArray a = new FloatArray(8);
      TaskGraph g = new TaskGraph("r").task("fill", DataRangeTest::fill, a, 10f).transferToHost(DataTransferMode.UNDER_DEMAND, a);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        ExecutionResult r = plan.execute();
        assertTrue(r.isReady());
        a.init(-1f);
        DataRange range = new DataRange(a);
        r.transferToHost(range.withOffset(2).withSize(3));
        assertArrayEquals(new float[] {-1, -1, 12, 13, 14, -1, -1, -1}, a.toArray(), d.id());
        r.transferToHost(range.withOffset(6).withSize(-1).withSize(2));
        assertArrayEquals(new float[] {-1, -1, 12, 13, 14, -1, 16, 17}, a.toArray(), d.id());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.transferToHost(new DataRange(a).withOffset(7).withSize(2)));
        assertEquals("DataRange of 2 elements at 7 is outside FloatArray[8]", e.getMessage());
      }
    }
  }

  @Test
  void aRangeOfAnArrayOnAnotherDevice() {
    FloatArray a = new FloatArray(4), b = new FloatArray(4);
    TaskGraph g = new TaskGraph("m").task("fill", DataRangeTest::fill, a, 1f).task("copy", DataRangeTest::copy, a, b)
        .transferToHost(DataTransferMode.UNDER_DEMAND, b);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withDevice("m.copy", Devices.get("jvm-mt"))) {
      ExecutionResult r = plan.execute();
      r.transferToHost(new DataRange(b).withOffset(1));
      assertArrayEquals(new float[] {0, 4, 6, 8}, b.toArray());
    }
  }
}
