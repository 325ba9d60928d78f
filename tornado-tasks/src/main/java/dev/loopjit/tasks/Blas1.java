// BLAS-1 over vectors: scal, and the reductions dot, asum and nrm2 (a @Reduce sum of squares, then a square root on the device).
package dev.loopjit.tasks;

import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.types.FloatArray;

/**
 * Single-precision BLAS level 1 over {@code FloatArray}s of length N; {@code axpy} is
 * {@link Blas#saxpy}. Each reduction comes twice: with {@code @Reduce}, and {@code …Sequential},
 * one loop in index order without {@code @Parallel} — one work-item on a device, the reference.
 * The {@code @Reduce} kernels give each work-item a run of {@link #CHUNK} elements, summed in a
 * local, and reduce the runs' sums: on a device the runs' sums are combined by a work-group tree
 * and atomic adds, so the result differs from Java's in the last bits (and from one run to the
 * next). One element per work-item — the textbook {@code @Reduce} loop — is ~15× slower on PoCL,
 * where every group of 256 elements pays a tree of barriers and an atomic update.
 * A reduction adds into {@code out[0]}, as the Java loop does: clear it first ({@link #zero}, or
 * use the graphs of {@link Graphs}, which do).
 *
 * <pre>{@code
 * new TaskGraph("norm").task("zero", Blas1::zero, r).task("ss", Blas1::sumOfSquares, x, r).task("sqrt", Blas1::sqrt, r)
 * }</pre>
 */
public final class Blas1 {
  /** Elements per work-item in the {@code @Reduce} kernels. */
  public static final int CHUNK = 1024;

  private Blas1() {}

  /** {@code x = alpha·x}. x: (N) */
  public static void scal(float alpha, FloatArray x) {
    for (@Parallel int i = 0; i < x.getSize(); i++) x.set(i, alpha * x.get(i));
  }

  /** {@code out[0] += Σ x[i]·y[i]}. x, y: (N), out: (1) */
  public static void dot(FloatArray x, FloatArray y, @Reduce FloatArray out) {
    for (@Parallel int c = 0; c < (x.getSize() + CHUNK - 1) / CHUNK; c++) {
      int end = Math.min(x.getSize(), (c + 1) * CHUNK);
      float acc = 0f;
      for (int i = c * CHUNK; i < end; i++) acc += x.get(i) * y.get(i);
      out.set(0, out.get(0) + acc);
    }
  }

  /** {@link #dot} in index order, one work-item: the reference. x, y: (N), out: (1) */
  public static void dotSequential(FloatArray x, FloatArray y, FloatArray out) {
    float acc = out.get(0);
    for (int i = 0; i < x.getSize(); i++) acc += x.get(i) * y.get(i);
    out.set(0, acc);
  }

  /** {@code out[0] += Σ |x[i]|}. x: (N), out: (1) */
  public static void asum(FloatArray x, @Reduce FloatArray out) {
    for (@Parallel int c = 0; c < (x.getSize() + CHUNK - 1) / CHUNK; c++) {
      int end = Math.min(x.getSize(), (c + 1) * CHUNK);
      float acc = 0f;
      for (int i = c * CHUNK; i < end; i++) acc += Math.abs(x.get(i));
      out.set(0, out.get(0) + acc);
    }
  }

  /** {@link #asum} in index order, one work-item: the reference. x: (N), out: (1) */
  public static void asumSequential(FloatArray x, FloatArray out) {
    float acc = out.get(0);
    for (int i = 0; i < x.getSize(); i++) acc += Math.abs(x.get(i));
    out.set(0, acc);
  }

  /**
   * {@code out[0] += Σ x[i]²}: nrm2 before its square root ({@link #sqrt}). Unlike reference BLAS it
   * does not rescale, so it overflows to infinity for |x| beyond about 1.8e19. x: (N), out: (1)
   */
  public static void sumOfSquares(FloatArray x, @Reduce FloatArray out) {
    for (@Parallel int c = 0; c < (x.getSize() + CHUNK - 1) / CHUNK; c++) {
      int end = Math.min(x.getSize(), (c + 1) * CHUNK);
      float acc = 0f;
      for (int i = c * CHUNK; i < end; i++) acc += x.get(i) * x.get(i);
      out.set(0, out.get(0) + acc);
    }
  }

  /** {@link #sumOfSquares} in index order, one work-item: the reference. x: (N), out: (1) */
  public static void sumOfSquaresSequential(FloatArray x, FloatArray out) {
    float acc = out.get(0);
    for (int i = 0; i < x.getSize(); i++) acc += x.get(i) * x.get(i);
    out.set(0, acc);
  }

  /** {@code r[0] = √r[0]}, one work-item: turns a sum of squares into nrm2 without a trip to the host. r: (1) */
  public static void sqrt(FloatArray r) {
    r.set(0, (float) Math.sqrt(r.get(0)));
  }

  /** {@code r[0] = 0}, one work-item: clears a reduction's output before it runs again. r: (1) */
  public static void zero(FloatArray r) {
    r.set(0, 0f);
  }
}
