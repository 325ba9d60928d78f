// TornadoVM's images, volumes and 4×4 matrices (ImageFloat…, VolumeShort2, Matrix4x4Float) and Byte/Short vectors in kernels, on every device equal to Java.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.Byte3;
import dev.loopjit.types.Byte4;
import dev.loopjit.types.Float3;
import dev.loopjit.types.Float4;
import dev.loopjit.types.Float8;
import dev.loopjit.types.ImageByte3;
import dev.loopjit.types.ImageByte4;
import dev.loopjit.types.ImageFloat;
import dev.loopjit.types.ImageFloat3;
import dev.loopjit.types.ImageFloat4;
import dev.loopjit.types.ImageFloat8;
import dev.loopjit.types.Matrix2DFloat;
import dev.loopjit.types.Matrix4x4Float;
import dev.loopjit.types.Short2;
import dev.loopjit.types.Short3;
import dev.loopjit.types.VolumeOps;
import dev.loopjit.types.VolumeShort2;
import org.junit.jupiter.api.Test;

class ImageTypesTest {
  /** Every pixel: a sum with its neighbour to the right (clamped), the images' whole API in one kernel. */
  static void pixels(ImageFloat a, ImageFloat b, ImageFloat3 f3, ImageFloat4 f4, ImageFloat8 f8, ImageFloat4 out4, ImageFloat8 out8) {
    for (@Parallel int y = 0; y < a.Y(); y++)
      for (@Parallel int x = 0; x < a.X(); x++) {
        int right = Math.min(x + 1, a.X() - 1);
        b.set(x, y, a.get(x, y) * 2f + a.get(right, y) + a.get(y * a.X() + x) / (f3.size() + 1));
        Float3 p = f3.get(x, y);
        Float4 q = Float4.add(f4.get(x, y), new Float4(p.getX(), p.getY(), p.getZ(), x));
        out4.set(y * out4.X() + x, Float4.mult(q, f4.get(right, y)));
        out8.set(x, y, Float8.add(f8.get(x, y), f8.get(right, Math.max(y - 1, 0))));
      }
  }

  /** Byte arithmetic as Java does it: on ints, each result narrowed to a byte. */
  static void bytes(ImageByte3 a, ImageByte4 b, ImageByte3 c, ImageByte4 d) {
    for (@Parallel int y = 0; y < a.Y(); y++)
      for (@Parallel int x = 0; x < a.X(); x++) {
        Byte3 p = a.get(x, y);
        c.set(x, y, Byte3.add(Byte3.mult(p, (byte) 3), new Byte3((byte) x, (byte) -y, (byte) (p.getZ() / 2))));
        Byte4 q = b.get(x, y);
        d.set(x, y, Byte4.clamp(Byte4.sub(Byte4.max(q, new Byte4((byte) 10, (byte) 20, (byte) 30, (byte) 40)), (byte) 100), (byte) -50, (byte) 90));
      }
  }

  /** A camera's pose and a volume: rows, columns, sub-vectors, a volume's trilinear samples and gradient, Short2 arithmetic. */
  static void volume(Matrix4x4Float pose, VolumeShort2 v, ImageFloat4 out, VolumeShort2 w, Matrix4x4Float camera) {
    camera.fill(0f);
    camera.set(0, 0, pose.get(5));
    camera.set(3, 3, 1f);
    for (@Parallel int y = 0; y < out.Y(); y++)
      for (@Parallel int x = 0; x < out.X(); x++) {
        Float3 p = new Float3(x * 0.37f, y * 0.29f, 0.8f);
        Float3 q = new Float3(Float3.dot(pose.row(0).asFloat3(), p), Float3.dot(pose.row(1).asFloat3(), p), pose.column(3).getHigh().getX());
        Float3 g = VolumeOps.grad(v, new Float3(2f, 2f, 2f), q);
        out.set(x, y, new Float4(VolumeOps.interp(v, new Float3(2f, 2f, 2f), q), g.getX(), g.getY() + dev.loopjit.types.FloatOps.sq(g.getZ()), q.getZ()));
        for (int z = 0; z < v.Z(); z++) {
          Short2 s = v.get(x % v.X(), y % v.Y(), z);
          Short3 t = Short3.mult(new Short3(s.getX(), s.getY(), (short) z), (short) 300);
          w.set(x % v.X(), y % v.Y(), z, Short2.clamp(Short2.add(s, new Short2(t.getX(), t.getZ())), (short) -30000, (short) 30000));
        }
      }
  }

  @Test
  void volumesAndSmallMatricesOnEveryDeviceEqualJava() {
    Matrix4x4Float pose = new Matrix4x4Float();
    fill(pose.getArray(), 7);
    VolumeShort2 v = new VolumeShort2(6, 5, 4);
    for (int i = 0; i < v.getArray().getSize(); i++) v.getArray().set(i, (short) (i * 977 - 20000));
    ImageFloat4 want = new ImageFloat4(6, 5);
    VolumeShort2 wantW = new VolumeShort2(6, 5, 4);
    Matrix4x4Float wantCamera = new Matrix4x4Float();
    volume(pose, v, want, wantW, wantCamera);
    for (Device d : Devices.all()) {
      ImageFloat4 out = new ImageFloat4(6, 5);
      VolumeShort2 w = new VolumeShort2(6, 5, 4);
      Matrix4x4Float camera = new Matrix4x4Float(), eye = new Matrix4x4Float();
      eye.fill(3f);
      TaskGraph g = new TaskGraph("vol").transferToDevice(DataTransferMode.EVERY_EXECUTION, pose, v, eye)
          .task("volume", ImageTypesTest::volume, pose, v, out, w, camera).task("fill", eye::fill, 0.5f)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out, w, camera, eye);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      String on = " on " + d.id();
      assertArrayEquals(want.getArray().toArray(), out.getArray().toArray(), on);
      assertArrayEquals(wantW.getArray().toArray(), w.getArray().toArray(), on);
      assertArrayEquals(wantCamera.getArray().toArray(), camera.getArray().toArray(), on);
      assertEquals(0.5f, eye.get(3, 3), on);
    }
  }

  private static void fill(dev.loopjit.types.FloatArray f, int seed) {
    for (int i = 0; i < f.getSize(); i++) f.set(i, ((i * 31 + seed) % 97) * 0.25f - 7f);
  }

  private static void fill(dev.loopjit.types.ByteArray f, int seed) {
    for (int i = 0; i < f.getSize(); i++) f.set(i, (byte) (i * 37 + seed));
  }

  @Test
  void everyImageOnEveryDeviceEqualsJava() {
    int w = 7, h = 5;
    ImageFloat a = new ImageFloat(w, h);
    ImageFloat3 f3 = new ImageFloat3(w, h);
    ImageFloat4 f4 = new ImageFloat4(w, h);
    ImageFloat8 f8 = new ImageFloat8(w, h);
    fill(a.getArray(), 1);
    fill(f3.getArray(), 2);
    fill(f4.getArray(), 3);
    fill(f8.getArray(), 4);
    ImageFloat wantB = new ImageFloat(w, h);
    ImageFloat4 want4 = new ImageFloat4(w, h);
    ImageFloat8 want8 = new ImageFloat8(w, h);
    pixels(a, wantB, f3, f4, f8, want4, want8);
    ImageByte3 b3 = new ImageByte3(w, h), want3 = new ImageByte3(w, h);
    ImageByte4 b4 = new ImageByte4(w, h), wantB4 = new ImageByte4(w, h);
    fill(b3.getArray(), 5);
    fill(b4.getArray(), 6);
    bytes(b3, b4, want3, wantB4);
    for (Device d : Devices.all()) {
      ImageFloat b = new ImageFloat(w, h);
      ImageFloat4 o4 = new ImageFloat4(w, h);
      ImageFloat8 o8 = new ImageFloat8(w, h);
      ImageByte3 c3 = new ImageByte3(w, h);
      ImageByte4 c4 = new ImageByte4(w, h);
      ImageFloat filled = new ImageFloat(w, h);
      ImageByte4 filledBytes = new ImageByte4(w, h);
      TaskGraph g = new TaskGraph("img").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, f3, f4, f8, b3, b4)
          .task("pixels", ImageTypesTest::pixels, a, b, f3, f4, f8, o4, o8).task("bytes", ImageTypesTest::bytes, b3, b4, c3, c4)
          .task("fill", filled::fill, 2.5f).task("fillBytes", filledBytes::fill, (byte) -7)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, b, o4, o8, c3, c4, filled, filledBytes);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      String on = " on " + d.id();
      assertArrayEquals(wantB.getArray().toArray(), b.getArray().toArray(), on);
      assertArrayEquals(want4.getArray().toArray(), o4.getArray().toArray(), on);
      assertArrayEquals(want8.getArray().toArray(), o8.getArray().toArray(), on);
      assertArrayEquals(want3.getArray().toArray(), c3.getArray().toArray(), on);
      assertArrayEquals(wantB4.getArray().toArray(), c4.getArray().toArray(), on);
      assertEquals(2.5f, filled.min(), on);
      assertEquals(2.5f, filled.max(), on);
      assertEquals(new Byte4((byte) -7, (byte) -7, (byte) -7, (byte) -7), filledBytes.get(w - 1, h - 1), on);
    }
  }

  @Test
  void pixelsAreRowsOfXOnTheHost() {
    ImageFloat i = new ImageFloat(new float[][] {{1, 2, 3}, {4, 5, 6}});   // two columns of three rows
    assertEquals(2, i.X());
    assertEquals(3, i.Y());
    assertEquals(6f, i.get(1, 2));
    assertEquals(6f, i.get(5));
    assertEquals(1f, i.min());
    assertEquals(6f, i.max());
    assertEquals(3.5f, i.mean());
    ImageFloat4 f = new ImageFloat4(3, 2);
    f.set(2, 1, new Float4(1, 2, 3, 4));
    assertEquals(new Float4(1, 2, 3, 4), f.get(5));
    assertEquals(6, f.size());
    assertEquals(f.get(2, 1), f.duplicate().get(2, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> f.get(3, 0));
    assertThrows(IllegalArgumentException.class, () -> new ImageFloat4(3, 2, new dev.loopjit.types.FloatArray(23)));
    assertEquals((byte) -36, Byte3.add(new Byte3((byte) 120, (byte) 0, (byte) 0), new Byte3((byte) 100, (byte) 0, (byte) 0)).getX());
  }

  /** A kernel writing a collection's storage, and the collection copied back: one memory, two objects: refused before anything runs. */
  static void ones(dev.loopjit.types.FloatArray f) {
    for (@Parallel int i = 0; i < f.getSize(); i++) f.set(i, 1f);
  }

  @Test
  void aCollectionAndItsStorageInOnePlanAreRefused() {
    Matrix2DFloat m = new Matrix2DFloat(4, 4);
    m.fill(100f);
    for (Device d : Devices.all()) {
      TaskGraph g = new TaskGraph("s").transferToDevice(DataTransferMode.FIRST_EXECUTION, m).task("t", ImageTypesTest::ones, m.getArray())
          .transferToHost(DataTransferMode.EVERY_EXECUTION, m);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, plan::execute, d.id());
        assertTrue(e.getMessage().contains("over the same memory") && e.getMessage().contains("Matrix2DFloat[16]"), e.getMessage());
      }
      assertEquals(100f, m.get(3, 3), d.id());   // nothing ran
    }
    // two arrays over one segment are refused alike
    dev.loopjit.types.FloatArray f = new dev.loopjit.types.FloatArray(8), view = dev.loopjit.types.FloatArray.fromSegmentShallow(f.getSegment().asSlice(8, 16));
    TaskGraph g = new TaskGraph("v").task("a", ImageTypesTest::ones, f).task("b", ImageTypesTest::ones, view).transferToHost(DataTransferMode.EVERY_EXECUTION, f, view);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      assertThrows(IllegalArgumentException.class, plan::execute);
    }
  }
}
