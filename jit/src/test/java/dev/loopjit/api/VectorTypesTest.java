// TornadoVM's vector types (Float2…16, Int2…16, Double2…16 and their Vector collections) in kernels: every operation, on every device, equal to Java.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.Double2;
import dev.loopjit.types.Float16;
import dev.loopjit.types.Float3;
import dev.loopjit.types.Float4;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloat;
import dev.loopjit.types.Int2;
import dev.loopjit.types.Int3;
import dev.loopjit.types.Int4;
import dev.loopjit.types.Int8;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.VectorDouble2;
import dev.loopjit.types.VectorFloat16;
import dev.loopjit.types.VectorFloat3;
import dev.loopjit.types.VectorFloat4;
import dev.loopjit.types.VectorInt4;
import dev.loopjit.types.VectorInt8;
import org.junit.jupiter.api.Test;

public class VectorTypesTest {
  /** A helper taking two Float3 values (each its three floats) and returning a float. */
  static float spread(Float3 a, Float3 b) {
    return Float3.max(Float3.sub(a, b)) - Float3.min(a);
  }

  static void float3(VectorFloat3 a, VectorFloat3 b, VectorFloat3 out, FloatArray scalars) {
    for (@Parallel int i = 0; i < out.getLength(); i++) {
      Float3 x = a.get(i), y = b.get(i);
      Float3 c = Float3.add(Float3.cross(x, y), Float3.normalise(x));
      Float3 d = i % 2 == 0 ? Float3.clamp(c, -1f, 1f) : Float3.scaleByInverse(Float3.fract(c), 3f);
      out.set(i, Float3.mult(Float3.min(d, Float3.sqrt(Float3.mult(y, y))), new Float3(1f, x.getS1(), d.get(2))));
      scalars.set(i, Float3.length(x) + Float3.dot(x, y) + spread(x, y) + new Float3().getZ() + c.getX() * d.size());
    }
  }

  static void int8(VectorInt8 a, VectorInt8 b, VectorInt8 out, IntArray sums) {
    for (@Parallel int i = 0; i < out.getLength(); i++) {
      Int8 x = a.get(i);
      Int8 c = Int8.clamp(Int8.add(x, Int8.mult(b.get(i), 3)), -50, 50);
      out.set(i, Int8.inc(Int8.max(c, Int8.dec(x, 7)), x.getS7()));
      sums.set(i, Int8.sum(c) + Int8.max(c) - Int8.min(x) + Int8.dot(c, x) + c.get(5) + Int8.div(x, 3).getS2());
    }
  }

  static void double2(VectorDouble2 a, VectorDouble2 out, DoubleArray lengths) {
    for (@Parallel int i = 0; i < out.getLength(); i++) {
      Double2 x = a.get(i);
      out.set(i, Double2.add(Double2.floor(x), Double2.scale(Double2.sqrt(Double2.mult(x, x)), 0.5)));
      lengths.set(i, Double2.length(x) + Double2.sum(Double2.fract(x)) + x.getY());
    }
  }

  static void float16(VectorFloat16 a, FloatArray out) {
    for (@Parallel int i = 0; i < a.getLength(); i++) {
      Float16 x = a.get(i);
      Float16 y = Float16.div(Float16.sub(x, 2f), new Float16(1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f, 9f, 10f, 11f, 12f, 13f, 14f, 15f, 16f));
      out.set(i, Float16.dot(x, y) + Float16.max(y) + x.getS15() + y.get(3) + Float16.min(x, y).getS9() + a.vectorWidth());
    }
  }

  /** A float vector times an int one, each int promoted as Java promotes it. */
  static void mixed(VectorFloat4 a, VectorInt4 b, VectorFloat4 out) {
    for (@Parallel int i = 0; i < out.getLength(); i++) out.set(i, Float4.mult(a.get(i), b.get(i)));
  }

  static VectorFloat3 floats3(int n, int seed) {
    VectorFloat3 v = new VectorFloat3(n);
    for (int i = 0; i < n; i++) v.set(i, new Float3((i * 7 + seed) % 11 - 4.5f, (i * 3 + seed) % 5 + 0.25f, (i + seed) % 9 - 3f));
    return v;
  }

  static VectorInt8 ints8(int n, int seed) {
    VectorInt8 v = new VectorInt8(n);
    for (int i = 0; i < n; i++) v.set(i, new Int8(i - 9, seed, i % 5, -i, 3 * i, i ^ seed, 100 - i, i % 7 - 3));
    return v;
  }

  @Test
  void everyOperationOnEveryDeviceEqualsJava() {
    int n = 37;
    VectorFloat3 a = floats3(n, 1), b = floats3(n, 4), wantOut = new VectorFloat3(n);
    FloatArray wantScalars = new FloatArray(n);
    float3(a, b, wantOut, wantScalars);   // the kernel as Java runs it, on the host
    VectorInt8 ia = ints8(n, 2), ib = ints8(n, 5), wantInts = new VectorInt8(n);
    IntArray wantSums = new IntArray(n);
    int8(ia, ib, wantInts, wantSums);
    VectorDouble2 da = new VectorDouble2(n), wantDoubles = new VectorDouble2(n);
    for (int i = 0; i < n; i++) da.set(i, new Double2(i * 0.37 - 5, (i % 6) * 1.5 + 0.1));
    DoubleArray wantLengths = new DoubleArray(n);
    double2(da, wantDoubles, wantLengths);
    VectorFloat16 fa = new VectorFloat16(n);
    for (int i = 0; i < n * 16; i++) fa.getArray().set(i, (i * 13 % 29) - 14f);
    FloatArray want16 = new FloatArray(n);
    float16(fa, want16);

    VectorFloat4 ma = new VectorFloat4(n), wantMixed = new VectorFloat4(n);
    VectorInt4 mb = new VectorInt4(n);
    for (int i = 0; i < n * 4; i++) {
      ma.getArray().set(i, i * 0.37f - 3f);
      mb.getArray().set(i, (i * 7919) % 100_003 - 50_000);   // large ints: the float conversion rounds, as Java's does
    }
    mixed(ma, mb, wantMixed);

    for (Device d : Devices.all()) {
      VectorFloat4 mixedOut = new VectorFloat4(n);
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("m").task("mixed", VectorTypesTest::mixed, ma, mb, mixedOut)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, mixedOut).snapshot()).withDevice(d)) {
        plan.execute();
      }
      assertArrayEquals(wantMixed.getArray().toArray(), mixedOut.getArray().toArray(), d.id() + ": Float4 times Int4");
      VectorFloat3 out = new VectorFloat3(n);
      FloatArray scalars = new FloatArray(n), out16 = new FloatArray(n);
      VectorInt8 ints = new VectorInt8(n);
      IntArray sums = new IntArray(n);
      VectorDouble2 doubles = new VectorDouble2(n);
      DoubleArray lengths = new DoubleArray(n);
      TaskGraph g = new TaskGraph("v").task("f3", VectorTypesTest::float3, a, b, out, scalars).task("i8", VectorTypesTest::int8, ia, ib, ints, sums)
          .task("f16", VectorTypesTest::float16, fa, out16)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out, scalars, ints, sums, out16);
      if (d.supportsFp64()) g.task("d2", VectorTypesTest::double2, da, doubles, lengths).transferToHost(DataTransferMode.EVERY_EXECUTION, doubles, lengths);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      assertArrayEquals(wantOut.getArray().toArray(), out.getArray().toArray(), d.id() + ": Float3");
      assertArrayEquals(wantScalars.toArray(), scalars.toArray(), d.id() + ": Float3 scalars");
      assertArrayEquals(wantInts.getArray().toArray(), ints.getArray().toArray(), d.id() + ": Int8");
      assertArrayEquals(wantSums.toArray(), sums.toArray(), d.id() + ": Int8 sums");
      assertArrayEquals(want16.toArray(), out16.toArray(), d.id() + ": Float16");
      if (d.supportsFp64()) {
        assertArrayEquals(wantDoubles.getArray().toArray(), doubles.getArray().toArray(), d.id() + ": Double2");
        assertArrayEquals(wantLengths.toArray(), lengths.toArray(), d.id() + ": Double2 lengths");
      }
    }
  }

  /** Setters on local vectors, in a loop and a branch, as Java changes the object. */
  static void setsInPlace(VectorFloat3 a, VectorInt4 b, FloatArray sums) {
    for (@Parallel int i = 0; i < a.getLength(); i++) {
      Float3 x = a.get(i);
      x.setX(x.getY() + 1f);
      if (i % 3 == 0) x.setS2(-x.getZ());
      Float3 acc = new Float3();
      for (int k = 0; k < 3; k++) {
        acc.set(0, acc.get(0) + x.get(1) * k);
        acc.set(2, acc.get(2) * 0.5f + x.get(2) * k);
        acc.setY(acc.getX() - acc.getY());
      }
      a.set(i, x);
      Int4 y = b.get(i);
      y.setX(i);
      y.setS1(i + 1);
      y.setW(y.getX() * 2);
      Int4 z = new Int4(9, 9, 9, 9);
      z.set(y);
      z.setY(7);
      Int4 w = z.duplicate();
      w.setZ(-1);
      z.setW(w.getZ() + z.getW());
      b.set(i, Int4.add(y, z));
      sums.set(i, acc.getX() + acc.getY() + acc.getZ());
    }
  }

  /** A setter on a vector another variable refers to: Java changes both. */
  static void setsAnAlias(VectorFloat3 a) {
    for (@Parallel int i = 0; i < a.getLength(); i++) {
      Float3 x = a.get(i);
      Float3 y = x;
      y.setX(1f);
      a.set(i, x);
    }
  }

  /** A setter on a helper's parameter: Java changes the caller's object. */
  static float bump(Float3 p) {
    p.setY(5f);
    return p.getY();
  }

  static void setsAParameter(VectorFloat3 a, FloatArray out) {
    for (@Parallel int i = 0; i < a.getLength(); i++) out.set(i, bump(a.get(i)));
  }

  /** A helper returning its parameter: Java's caller then holds the same object twice. */
  static Float3 same(Float3 p) {
    return p;
  }

  static void setsAResult(VectorFloat3 a) {
    for (@Parallel int i = 0; i < a.getLength(); i++) {
      Float3 x = a.get(i);
      Float3 y = same(x);
      y.setZ(2f);
      a.set(i, x);
    }
  }

  @Test
  void settersChangeALocalVectorOnEveryDeviceAsInJava() {
    int n = 19;
    VectorFloat3 want = floats3(n, 3);
    VectorInt4 wantInts = new VectorInt4(n);
    FloatArray wantSums = new FloatArray(n);
    setsInPlace(want, wantInts, wantSums);
    for (Device d : Devices.all()) {
      VectorFloat3 a = floats3(n, 3);
      VectorInt4 b = new VectorInt4(n);
      FloatArray sums = new FloatArray(n);
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("s").task("t", VectorTypesTest::setsInPlace, a, b, sums)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, a, b, sums).snapshot()).withDevice(d)) {
        plan.execute();
      }
      assertArrayEquals(want.getArray().toArray(), a.getArray().toArray(), d.id());
      assertArrayEquals(wantInts.getArray().toArray(), b.getArray().toArray(), d.id());
      assertArrayEquals(wantSums.toArray(), sums.toArray(), d.id());
    }
  }

  @Test
  void aSetterOnAVectorAnotherVariableMayShareIsRefusedOnEveryDevice() {
    for (Device d : Devices.all()) {
      TaskGraph alias = new TaskGraph("s").task("t", VectorTypesTest::setsAnAlias, new VectorFloat3(4));
      KernelCompilationException e = assertThrows(KernelCompilationException.class, () -> new ExecutionPlan(alias.snapshot()).withDevice(d).execute());
      assertTrue(e.getMessage().contains("instead of setX(…)") && e.getMessage().contains("may be the same object as another variable's"), e.getMessage());
      TaskGraph param = new TaskGraph("s").task("t", VectorTypesTest::setsAParameter, new VectorFloat3(4), new FloatArray(4));
      e = assertThrows(KernelCompilationException.class, () -> new ExecutionPlan(param.snapshot()).withDevice(d).execute());
      assertTrue(e.getMessage().contains("(VectorTypesTest.java:") && e.getMessage().contains("a helper's parameter"), e.getMessage());
      TaskGraph result = new TaskGraph("s").task("t", VectorTypesTest::setsAResult, new VectorFloat3(4));
      e = assertThrows(KernelCompilationException.class, () -> new ExecutionPlan(result.snapshot()).withDevice(d).execute());
      assertTrue(e.getMessage().contains("instead of setZ(…)"), e.getMessage());
    }
  }

  /** Vector and HalfFloat values as task arguments, each passed as its fields. */
  static void scaleBy(Float4 a, FloatArray out, Int3 b, HalfFloat h) {
    for (@Parallel int i = 0; i < out.getSize(); i++) out.set(i, Float4.dot(a, new Float4(i, 1f, 2f, 3f)) + (i % 2 == 0 ? b.getX() : b.getY()) * h.getFloat32() + a.getW());
  }

  @Test
  void vectorValuesAreTaskArgumentsOnEveryDeviceReadAtEachExecution() {
    int n = 10;
    for (Device d : Devices.all()) {
      Float4 a = new Float4(1f, 2f, 3f, 4f);
      Int3 b = new Int3(5, -6, 7);
      HalfFloat h = new HalfFloat(0.5f);
      FloatArray out = new FloatArray(n), want = new FloatArray(n);
      TaskGraph g = new TaskGraph("s").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b, h).task("t", VectorTypesTest::scaleBy, a, out, b, h)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
        scaleBy(a, want, b, h);
        assertArrayEquals(want.toArray(), out.toArray(), d.id());
        a.setW(-8f);
        b.setY(100);
        plan.execute();
        scaleBy(a, want, b, h);
        assertArrayEquals(want.toArray(), out.toArray(), d.id() + ", the values changed on the host");
      }
      TornadoRuntimeException e = assertThrows(TornadoRuntimeException.class, () -> new TaskGraph("s").transferToHost(DataTransferMode.EVERY_EXECUTION, a));
      assertTrue(e.getMessage().contains("a kernel takes its elements and cannot change the host's object"), e.getMessage());
    }
  }

  /** A helper returning a vector, with two returns. */
  static Float3 reflect(Float4 v, float limit) {
    Float3 d = new Float3(v.getX(), v.getY(), v.getZ());
    if (Float3.length(d) > limit) return Float3.scaleByInverse(d, Float3.length(d) / limit);
    d.setZ(-d.getZ());
    return d;
  }

  /** Helpers returning vectors, nested and in a loop. */
  static Int2 swap(Int2 a) {
    return new Int2(a.getY(), a.getX());
  }

  static void returnsVectors(VectorFloat4 in, VectorFloat3 out, VectorInt8 ints) {
    for (@Parallel int i = 0; i < in.getLength(); i++) {
      Float3 r = reflect(in.get(i), 4f);
      out.set(i, Float3.add(r, reflect(new Float4(1f, i, 2f, 0f), 2.5f)));
      Int2 p = new Int2(i, -i);
      for (int k = 0; k < 3; k++) p = swap(Int2.add(p, new Int2(k, 1)));
      ints.set(i, new Int8(p.getX(), p.getY(), swap(p).getX(), 0, 0, 0, 0, i));
    }
  }

  @Test
  void helpersReturnVectorsOnEveryDeviceAsInJava() {
    int n = 23;
    VectorFloat4 in = new VectorFloat4(n);
    for (int i = 0; i < n * 4; i++) in.getArray().set(i, (i * 7 % 13) - 6f);
    VectorFloat3 want = new VectorFloat3(n);
    VectorInt8 wantInts = new VectorInt8(n);
    returnsVectors(in, want, wantInts);
    for (Device d : Devices.all()) {
      VectorFloat3 out = new VectorFloat3(n);
      VectorInt8 ints = new VectorInt8(n);
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("r").task("t", VectorTypesTest::returnsVectors, in, out, ints)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out, ints).snapshot()).withDevice(d)) {
        plan.execute();
      }
      assertArrayEquals(want.getArray().toArray(), out.getArray().toArray(), d.id());
      assertArrayEquals(wantInts.getArray().toArray(), ints.getArray().toArray(), d.id());
    }
  }

  @Test
  void theHostTypesComputeAsTheirDocsSay() {
    Float3 a = new Float3(1f, 2f, 3f), b = new Float3(4f, 5f, 6f);
    assertEquals(new Float3(-3f, 6f, -3f), Float3.cross(a, b));
    assertEquals(32f, Float3.dot(a, b));
    assertEquals(3, a.size());
    assertEquals("[1.0, 2.0, 3.0]", a.toString());
    assertTrue(Float3.isEqual(a, a.duplicate()));
    Int8 i = new Int8(1, 2, 3, 4, 5, 6, 7, 8);
    assertEquals(36, Int8.sum(i));
    assertEquals(new Int8(2, 2, 3, 4, 5, 5, 5, 5), Int8.clamp(i, 2, 5));
    assertArrayEquals(new double[] {0.5, 0.25}, Double2.fract(new Double2(2.5, -0.75)).toArray());
  }
}
