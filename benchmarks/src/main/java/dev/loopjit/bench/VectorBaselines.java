// The hand-written Vector API baseline (one thread, SIMD, no FMA): what a Java programmer gets with jdk.incubator.vector.
package dev.loopjit.bench;

import dev.loopjit.types.FloatArray;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The workloads written by hand with the Vector API, on one thread, each lane rounding as Java's
 * {@code float} does ({@code mul} then {@code add}, never FMA). Vector add, saxpy, matmul and dense
 * keep every output's order of additions, so they are bit-identical to the sequential loop; the
 * matrix-vector product adds each row in lanes and then across them, which changes the order, so
 * it is checked against an error bound ({@link MatVec.Data#bound}). Needs
 * {@code --add-modules jdk.incubator.vector} (the benchmarks' forks add it).
 */
final class VectorBaselines {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private VectorBaselines() {}

  static void vectorAdd(FloatArray a, FloatArray b, FloatArray c) {
    MemorySegment sa = a.getSegment(), sb = b.getSegment(), sc = c.getSegment();
    int n = c.getSize(), i = 0;
    for (int upper = S.loopBound(n); i < upper; i += S.length()) {
      long at = (long) i * 4;
      FloatVector.fromMemorySegment(S, sa, at, ORDER).add(FloatVector.fromMemorySegment(S, sb, at, ORDER)).intoMemorySegment(sc, at, ORDER);
    }
    for (; i < n; i++) c.set(i, a.get(i) + b.get(i));
  }

  static void saxpy(float alpha, FloatArray x, FloatArray y) {
    MemorySegment sx = x.getSegment(), sy = y.getSegment();
    int n = y.getSize(), i = 0;
    for (int upper = S.loopBound(n); i < upper; i += S.length()) {
      long at = (long) i * 4;
      FloatVector.fromMemorySegment(S, sx, at, ORDER).mul(alpha).add(FloatVector.fromMemorySegment(S, sy, at, ORDER)).intoMemorySegment(sy, at, ORDER);
    }
    for (; i < n; i++) y.set(i, alpha * x.get(i) + y.get(i));
  }

  static void gemv(FloatArray a, FloatArray x, FloatArray y, int rows, int cols) {
    MemorySegment sa = a.getSegment(), sx = x.getSegment();
    int upper = S.loopBound(cols);
    for (int i = 0; i < rows; i++) {
      FloatVector acc = FloatVector.zero(S);
      long row = (long) i * cols * 4;
      int j = 0;
      for (; j < upper; j += S.length())
        acc = acc.add(FloatVector.fromMemorySegment(S, sa, row + (long) j * 4, ORDER).mul(FloatVector.fromMemorySegment(S, sx, (long) j * 4, ORDER)));
      float sum = acc.reduceLanes(VectorOperators.ADD);
      for (; j < cols; j++) sum += a.get(i * cols + j) * x.get(j);
      y.set(i, sum);
    }
  }

  /** Row by row, four vectors of C's row at a time: c[i, j…] += a[i, k] · b[k, j…] for k in order. */
  static void gemm(FloatArray a, FloatArray b, FloatArray c, int n) {
    MemorySegment sb = b.getSegment(), sc = c.getSegment();
    int l = S.length(), block = 4 * l;
    for (int i = 0; i < n; i++) {
      int j = 0;
      for (; j + block <= n; j += block) {
        FloatVector c0 = FloatVector.zero(S), c1 = c0, c2 = c0, c3 = c0;
        for (int k = 0; k < n; k++) {
          FloatVector aik = FloatVector.broadcast(S, a.get(i * n + k));
          long at = ((long) k * n + j) * 4;
          c0 = c0.add(aik.mul(FloatVector.fromMemorySegment(S, sb, at, ORDER)));
          c1 = c1.add(aik.mul(FloatVector.fromMemorySegment(S, sb, at + 4L * l, ORDER)));
          c2 = c2.add(aik.mul(FloatVector.fromMemorySegment(S, sb, at + 8L * l, ORDER)));
          c3 = c3.add(aik.mul(FloatVector.fromMemorySegment(S, sb, at + 12L * l, ORDER)));
        }
        long out = ((long) i * n + j) * 4;
        c0.intoMemorySegment(sc, out, ORDER);
        c1.intoMemorySegment(sc, out + 4L * l, ORDER);
        c2.intoMemorySegment(sc, out + 8L * l, ORDER);
        c3.intoMemorySegment(sc, out + 12L * l, ORDER);
      }
      for (; j < n; j++) {
        float acc = 0f;
        for (int k = 0; k < n; k++) acc += a.get(i * n + k) * b.get(k * n + j);
        c.set(i * n + j, acc);
      }
    }
  }

  /** W transposed once per call (its time included), then lanes over the outputs: y[b, o…] = bias[o…] + Σ_i x[b, i] · wᵀ[i, o…], summed from the bias. */
  static void dense(FloatArray x, FloatArray w, FloatArray bias, FloatArray y, int batch, int in, int out) {
    float[] wt = new float[in * out];
    for (int o = 0; o < out; o++) for (int i = 0; i < in; i++) wt[i * out + o] = w.get(o * in + i);
    float[] acc = new float[out];
    int upper = S.loopBound(out);
    for (int b = 0; b < batch; b++) {
      for (int o = 0; o < out; o++) acc[o] = bias.get(o);
      for (int i = 0; i < in; i++) {
        FloatVector xbi = FloatVector.broadcast(S, x.get(b * in + i));
        int o = 0;
        for (; o < upper; o += S.length())
          FloatVector.fromArray(S, acc, o).add(xbi.mul(FloatVector.fromArray(S, wt, i * out + o))).intoArray(acc, o);
        for (; o < out; o++) acc[o] += x.get(b * in + i) * wt[i * out + o];
      }
      for (int o = 0; o < out; o++) y.set(b * out + o, acc[o]);
    }
  }
}
