// TornadoVM's array API on LoopJIT's off-heap arrays: concat, slice, from*Buffer, the header getters, initialize as a task on every device.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loopjit.types.ByteArray;
import dev.loopjit.types.CharArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloat;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.ShortArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import org.junit.jupiter.api.Test;

class ArrayApiTest {
  @Test
  void concatAndSliceCopy() {
    FloatArray a = FloatArray.fromElements(1f, 2f), b = FloatArray.fromElements(3f), c = FloatArray.concat(a, b, new FloatArray(0));
    assertArrayEquals(new float[] {1f, 2f, 3f}, c.toArray());
    assertArrayEquals(new float[] {1f, 2f, 3f, 1f, 2f}, new FloatArray(c, a).toArray());
    FloatArray s = c.slice(1, 2);
    assertArrayEquals(new float[] {2f, 3f}, s.toArray());
    s.set(0, 9f);
    assertEquals(2f, c.get(1), "a slice is a copy");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.slice(2, 2));
    assertEquals("a slice of 2 elements at 2 is outside an array of 3", e.getMessage());
    assertArrayEquals(new int[] {5, 6, 7}, IntArray.concat(IntArray.fromElements(5), IntArray.fromElements(6, 7)).toArray());
    assertArrayEquals(new double[] {2.5}, DoubleArray.fromElements(1.5, 2.5).slice(1, 1).toArray());
    assertArrayEquals(new long[] {1L, 2L}, LongArray.concat(LongArray.fromElements(1L), LongArray.fromElements(2L)).toArray());
    assertArrayEquals(new short[] {3}, ShortArray.fromElements((short) 4, (short) 3).slice(1, 1).toArray());
    assertArrayEquals(new byte[] {1, 2}, ByteArray.concat(ByteArray.fromElements((byte) 1), ByteArray.fromElements((byte) 2)).toArray());
    assertArrayEquals(new char[] {'b'}, CharArray.fromElements('a', 'b').slice(1, 1).toArray());
    assertEquals(1.5f, HalfFloatArray.concat(HalfFloatArray.fromArray(new float[] {0.5f}), HalfFloatArray.fromArray(new float[] {1.5f})).getFloat(1));
    assertEquals(c.getSegment(), c.getSegmentWithHeader());
    assertEquals(12, c.getNumBytesOfSegmentWithHeader());
  }

  @Test
  void buffersInEitherByteOrder() {
    ByteBuffer bytes = ByteBuffer.allocateDirect(12).order(ByteOrder.BIG_ENDIAN);
    FloatBuffer big = bytes.asFloatBuffer().put(new float[] {1f, 2f, 3f});
    big.position(1);
    assertArrayEquals(new float[] {2f, 3f}, FloatArray.fromFloatBuffer(big).toArray());
    assertEquals(1, big.position(), "the buffer is left as it was");
    assertArrayEquals(new int[] {4, 5}, IntArray.fromIntBuffer(java.nio.IntBuffer.wrap(new int[] {4, 5})).toArray());
    assertArrayEquals(new byte[] {7}, ByteArray.fromByteBuffer(ByteBuffer.wrap(new byte[] {7})).toArray());
  }

  @Test
  void initializeRunsAsATaskOnEveryDevice() {
    for (Device d : Devices.all()) {
      FloatArray f = new FloatArray(1000);
      IntArray i = new IntArray(77);
      DoubleArray x = new DoubleArray(5);
      HalfFloatArray half = new HalfFloatArray(9);
      TaskGraph g = new TaskGraph("init").task("f", FloatArray::initialize, f, 2.5f).task("i", IntArray::initialize, i, -3)
          .task("h", HalfFloatArray::initialize, half, new HalfFloat(-1.25f)).transferToHost(DataTransferMode.EVERY_EXECUTION, f, i, half);
      if (d.supportsFp64()) g.task("x", DoubleArray::initialize, x, 1e-3).transferToHost(DataTransferMode.EVERY_EXECUTION, x);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      for (int k = 0; k < 1000; k++) assertEquals(2.5f, f.get(k), d.id());
      for (int k = 0; k < 77; k++) assertEquals(-3, i.get(k), d.id());
      for (int k = 0; k < 9; k++) assertEquals(-1.25f, half.getFloat(k), d.id());
      if (d.supportsFp64()) for (int k = 0; k < 5; k++) assertEquals(1e-3, x.get(k), d.id());
    }
    FloatArray host = new FloatArray(3);
    FloatArray.initialize(host, 4f);
    assertArrayEquals(new float[] {4f, 4f, 4f}, host.toArray());
    HalfFloatArray h = new HalfFloatArray(2);
    HalfFloatArray.initialize(h, new HalfFloat(0.75f));
    assertEquals(0.75f, h.getFloat(1));
  }
}
