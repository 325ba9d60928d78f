// The kernel parameter ABI without a device: what each KernelArg puts behind cuLaunchKernel's void** array.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.PooledBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KernelParamsTest {
  private static final Prim[] SCALARS = {Prim.BYTE, Prim.SHORT, Prim.CHAR, Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE, Prim.BOOLEAN};

  /** A kernel (float[] x, byte, short, char, int, long, float, double, boolean) with args x, x.length, each scalar, count 0 and 1. */
  private static KernelIR kernel() {
    List<KernelIR.Param> params = new ArrayList<>();
    List<KernelArg> args = new ArrayList<>();
    Var x = new Var("x", ArrayType.global(Prim.FLOAT));
    params.add(new KernelIR.Param(0, x, KernelIR.Param.Kind.ARRAY));
    args.add(new KernelArg.Array(0, x));
    args.add(new KernelArg.Length(0, new Var("x_length", Prim.INT)));
    for (int i = 0; i < SCALARS.length; i++) {
      Var v = new Var("s" + i, SCALARS[i]);
      params.add(new KernelIR.Param(i + 1, v, KernelIR.Param.Kind.SCALAR));
      args.add(new KernelArg.Scalar(i + 1, v));
    }
    args.add(new KernelArg.Count(0, new Var("n0", Prim.INT)));
    args.add(new KernelArg.Count(1, new Var("n1", Prim.INT)));
    return new KernelIR("k", Src.NONE, params, new Stmt.Block(List.of(), Src.NONE), new Launch.Loops(List.of()), args);
  }

  @SuppressWarnings("restricted")
  private static MemorySegment value(MemorySegment pointers, int i, long size) {
    return pointers.getAtIndex(ADDRESS, i).reinterpret(size);
  }

  @Test
  void everyArgumentIsPassedAsThePtxParameterOfItsType() {
    HostArray x = HostArray.of(new float[7]);
    PooledBuffer<Long> buffer = PooledBuffer.pooled(x, 0x7f00_dead_b000L, 28, null, () -> {});
    Object[] args = {buffer, (byte) -5, (short) -300, (char) 60000, 123456, 1L << 40, 1.5f, Math.PI, true};
    Grid grid = new Grid(2, new long[] {40, 50, 1}, null, new long[] {33, 44});
    try (Arena a = Arena.ofConfined()) {
      MemorySegment p = KernelParams.of(kernel(), args, grid, a, "g.t");
      assertEquals(12L * ADDRESS.byteSize(), p.byteSize(), "one pointer per argument");
      assertEquals(0x7f00_dead_b000L, value(p, 0, 8).get(JAVA_LONG, 0), "Array: the 64-bit device pointer");
      assertEquals(7, value(p, 1, 4).get(JAVA_INT, 0), "Length: elements, 32-bit");
      assertEquals(-5, value(p, 2, 4).get(JAVA_INT, 0), "byte: sign-extended to 32 bits");
      assertEquals(-300, value(p, 3, 4).get(JAVA_INT, 0), "short: sign-extended to 32 bits");
      assertEquals(60000, value(p, 4, 4).get(JAVA_INT, 0), "char: zero-extended to 32 bits");
      assertEquals(123456, value(p, 5, 4).get(JAVA_INT, 0));
      assertEquals(1L << 40, value(p, 6, 8).get(JAVA_LONG, 0));
      assertEquals(1.5f, value(p, 7, 4).get(JAVA_FLOAT, 0));
      assertEquals(Math.PI, value(p, 8, 8).get(JAVA_DOUBLE, 0));
      assertEquals(1, value(p, 9, 4).get(JAVA_INT, 0), "boolean: 0/1 in 32 bits");
      assertEquals(33, value(p, 10, 4).get(JAVA_INT, 0), "Count 0: the trip count, not the rounded grid");
      assertEquals(44, value(p, 11, 4).get(JAVA_INT, 0));
    }
  }

  @Test
  void valuesHaveTheWidthOfTheirParameter() {
    try (Arena a = Arena.ofConfined()) {
      long[] widths = new long[SCALARS.length];
      Object[] values = {(byte) 1, (short) 1, 'x', 1, 1L, 1f, 1d, false};
      for (int i = 0; i < SCALARS.length; i++) widths[i] = KernelParams.scalar(SCALARS[i], values[i], a, "g.t").byteSize();
      assertEquals(List.of(4L, 4L, 4L, 4L, 8L, 4L, 8L, 4L), java.util.Arrays.stream(widths).boxed().toList());
      assertEquals(0, KernelParams.scalar(Prim.BOOLEAN, false, a, "g.t").get(JAVA_INT, 0));
      assertEquals(0xFFFF, KernelParams.scalar(Prim.CHAR, '\uffff', a, "g.t").get(JAVA_INT, 0));
      assertEquals(-128, KernelParams.scalar(Prim.BYTE, (byte) -128, a, "g.t").get(JAVA_INT, 0));
    }
  }

  @Test
  void wrongArgumentsAreClearErrors() {
    HostArray x = HostArray.of(new float[7]);
    PooledBuffer<Long> buffer = PooledBuffer.pooled(x, 16L, 28, null, () -> {});
    Grid grid = new Grid(2, new long[] {1, 1, 1}, null, new long[] {1, 1});
    try (Arena a = Arena.ofConfined()) {
      Object[] nullScalar = {buffer, null, (short) 0, 'a', 0, 0L, 0f, 0d, false};
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelParams.of(kernel(), nullScalar, grid, a, "g.t"));
      assertTrue(e.getMessage().contains("g.t") && e.getMessage().contains("argument 1"), e.getMessage());
      Object[] hostArray = {new float[7], (byte) 0, (short) 0, 'a', 0, 0L, 0f, 0d, false};
      IllegalStateException s = assertThrows(IllegalStateException.class, () -> KernelParams.of(kernel(), hostArray, grid, a, "g.t"));
      assertTrue(s.getMessage().contains("should be a device buffer"), s.getMessage());
      assertThrows(IllegalStateException.class, () -> KernelParams.scalar(Prim.HALF, 1f, a, "g.t"));
    }
  }
}
