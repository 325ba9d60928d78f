// bfloat16 and 8-bit floats (BFloat16Array, FP8Array, BFloat16, FP8): exact conversions on the host, the same bits from every device.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.BFloat16;
import dev.loopjit.types.BFloat16Array;
import dev.loopjit.types.FP8;
import dev.loopjit.types.FP8Array;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class LowPrecisionArraysTest {
  /** Decode every bfloat16 and both 8-bit formats, and encode floats back, in one kernel. */
  static void convert(BFloat16Array bf, FP8Array fp, FloatArray floats, FloatArray decoded, BFloat16Array bfOut, FP8Array e4m3, FP8Array e5m2) {
    for (@Parallel int i = 0; i < floats.getSize(); i++) {
      decoded.set(i, BFloat16.bf16ToFloat(bf.get(i)) + FP8.e4m3ToFloat(fp.get(i & 255)) * 0.5f + FP8.e5m2ToFloat(fp.get((i * 7) & 255)));
      bfOut.set(i, BFloat16.bf16FromFloat(floats.get(i)));
      e4m3.set(i, FP8.e4m3FromFloat(floats.get(i)));
      e5m2.set(i, FP8.e5m2FromFloat(floats.get(i)));
    }
  }

  /** The arrays' own converting getters and setters in a kernel (PoCL once read BFloat16Array.getFloat's bits as the value, silently). */
  static void viaTheArrays(BFloat16Array bf, FP8Array fp, FloatArray floats, FloatArray decoded, BFloat16Array bfOut, FP8Array e4m3, FP8Array e5m2) {
    for (@Parallel int i = 0; i < floats.getSize(); i++) {
      decoded.set(i, bf.getFloat(i) + fp.getE4M3(i & 255) * 0.5f + fp.getE5M2((i * 7) & 255));
      bfOut.setFloat(i, floats.get(i));
      e4m3.setE4M3(i, floats.get(i));
      e5m2.setE5M2(i, floats.get(i));
    }
  }

  @Test
  void everyDeviceGivesJavasBits() {
    int n = 65536;
    BFloat16Array bf = new BFloat16Array(n);
    for (int i = 0; i < n; i++) bf.set(i, (short) i);
    FP8Array fp = new FP8Array(256);
    for (int i = 0; i < 256; i++) fp.set(i, (byte) i);
    FloatArray floats = new FloatArray(n);
    java.util.Random r = new java.util.Random(5);
    for (int i = 0; i < n; i++)
      floats.set(i, switch (i % 5) {
        case 0 -> Float.intBitsToFloat(r.nextInt());   // every exponent, NaNs and infinities
        case 1 -> (r.nextFloat() - 0.5f) * 1000f;
        case 2 -> (r.nextFloat() - 0.5f) * 1e-3f;
        case 3 -> (r.nextFloat() - 0.5f) * 1.2e5f;
        default -> BFloat16.bf16ToFloat((short) i) + Math.ulp(BFloat16.bf16ToFloat((short) i)) * (i % 3 - 1);   // near ties
      });
    FloatArray want = new FloatArray(n);
    BFloat16Array wantBf = new BFloat16Array(n);
    FP8Array want4 = new FP8Array(n), want5 = new FP8Array(n);
    convert(bf, fp, floats, want, wantBf, want4, want5);
    for (Device d : Devices.all()) {
      FloatArray decoded = new FloatArray(n);
      BFloat16Array bfOut = new BFloat16Array(n);
      FP8Array e4 = new FP8Array(n), e5 = new FP8Array(n);
      FloatArray decoded2 = new FloatArray(n);
      BFloat16Array bfOut2 = new BFloat16Array(n);
      FP8Array e42 = new FP8Array(n), e52 = new FP8Array(n);
      TaskGraph g = new TaskGraph("lp").transferToDevice(DataTransferMode.EVERY_EXECUTION, bf, fp, floats)
          .task("convert", LowPrecisionArraysTest::convert, bf, fp, floats, decoded, bfOut, e4, e5)
          .task("arrays", LowPrecisionArraysTest::viaTheArrays, bf, fp, floats, decoded2, bfOut2, e42, e52)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, decoded, bfOut, e4, e5, decoded2, bfOut2, e42, e52);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      String on = " on " + d.id();
      float[] w = want.toArray(), got = decoded.toArray(), got2 = decoded2.toArray();
      for (int i = 0; i < n; i++) assertEquals(Float.floatToIntBits(w[i]), Float.floatToIntBits(got[i]), "element " + i + on);
      for (int i = 0; i < n; i++) assertEquals(Float.floatToIntBits(w[i]), Float.floatToIntBits(got2[i]), "element " + i + " via the arrays" + on);
      assertArrayEquals(wantBf.toArray(), bfOut.toArray(), on);
      assertArrayEquals(want4.toArray(), e4.toArray(), on);
      assertArrayEquals(want5.toArray(), e5.toArray(), on);
      assertArrayEquals(wantBf.toArray(), bfOut2.toArray(), on);
      assertArrayEquals(want4.toArray(), e42.toArray(), on);
      assertArrayEquals(want5.toArray(), e52.toArray(), on);
    }
  }

  static void halvesInBytes(dev.loopjit.types.ByteArray q, FloatArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) out.set(i, q.getHalfFloat(2 * i).getFloat32());
  }

  /** A ByteArray's halves are a host call: every device refuses the kernel alike (PoCL once read one byte as the half's value, silently). */
  @Test
  void aByteArraysHalvesAreRefusedInKernelsEverywhere() {
    dev.loopjit.types.ByteArray q = new dev.loopjit.types.ByteArray(16);
    q.setHalfFloat(2, new dev.loopjit.types.HalfFloat(1.5f));
    assertEquals(1.5f, q.getHalfFloat(2).getFloat32());
    for (Device d : Devices.all()) {
      FloatArray out = new FloatArray(8);
      TaskGraph g = new TaskGraph("h").task("t", LowPrecisionArraysTest::halvesInBytes, q, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        KernelCompilationException e = org.junit.jupiter.api.Assertions.assertThrows(KernelCompilationException.class, plan::execute, d.id());
        assertTrue(e.getMessage().contains("ByteArray.getHalfFloat runs on the host only"), e.getMessage());
      }
    }
  }

  @Test
  void conversionsAreExactOnTheHost() {
    for (int b = 0; b < 65536; b++) {
      float f = BFloat16.bf16ToFloat((short) b), bits = Float.intBitsToFloat(b << 16);
      assertEquals(Float.floatToIntBits(bits), Float.floatToIntBits(f));
      if (!Float.isNaN(f) && f != 0f) assertEquals((short) b, BFloat16.bf16FromFloat(f), "bfloat16 " + b);
    }
    assertEquals((short) 0x3F80, BFloat16.bf16FromFloat(1.0f));
    assertEquals((short) 0x3F80, BFloat16.bf16FromFloat(Float.intBitsToFloat(0x3F808000)));   // a tie goes to the even one
    assertEquals((short) 0x3F82, BFloat16.bf16FromFloat(Float.intBitsToFloat(0x3F818000)));
    assertEquals((short) 0x7F80, BFloat16.bf16FromFloat(Float.MAX_VALUE));
    assertEquals((short) 0x7FC0, BFloat16.bf16FromFloat(Float.NaN));
    assertEquals((short) 0, BFloat16.bf16FromFloat(-0f));
    for (int b = 0; b < 256; b++) {
      float e4 = FP8.e4m3ToFloat((byte) b), e5 = FP8.e5m2ToFloat((byte) b);
      if (!Float.isNaN(e4) && e4 != 0f) assertEquals((byte) b, FP8.e4m3FromFloat(e4), "e4m3 " + b);
      if (!Float.isNaN(e5) && e5 != 0f) assertEquals((byte) b, FP8.e5m2FromFloat(e5), "e5m2 " + b);
    }
    assertEquals(448f, FP8.e4m3ToFloat((byte) 0x7E));
    assertTrue(Float.isNaN(FP8.e4m3ToFloat((byte) 0x7F)));
    assertEquals(0.001953125f, FP8.e4m3ToFloat((byte) 0x01));
    assertEquals(448f, FP8.e4m3ToFloat(FP8.e4m3FromFloat(Float.POSITIVE_INFINITY)));
    assertEquals(-448f, FP8.e4m3ToFloat(FP8.e4m3FromFloat(-1e6f)));
    assertEquals(57344f, FP8.e5m2ToFloat(FP8.e5m2FromFloat(61439f)));
    assertEquals(Float.POSITIVE_INFINITY, FP8.e5m2ToFloat(FP8.e5m2FromFloat(61440f)));   // half a step past the largest: a tie, to the even infinity
    assertEquals(1.25f, FP8.e4m3ToFloat(FP8.e4m3FromFloat(1.1875f)));   // a tie between 1.125 (0x39) and 1.25 (0x3A): to the even code
  }
}
