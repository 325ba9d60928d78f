// BLAS-1 over vectors: scal, and the reductions dot, asum and nrm2 (a @Reduce sum of squares, then a square root on the device).
package dev.loopjit.tasks;

import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.types.FloatArray;

/**
 * Single-precision BLAS level 1 over {@code FloatArray}s of length N; {@code axpy} is
 * {@link Blas#saxpy}. Each reduction comes twice: with {@code @Reduce} (a work-group tree and an
 * atomic combine on a device, so the additions run in another order and the result may differ
 * from Java's in the last bits, and from one run to the next), and {@code …Sequential}, the same
 * loop without {@code @Parallel} — one work-item on a device, the reference order everywhere.
 * A reduction adds into {@code out[0]}, as the Java loop does: clear it first ({@link #zero}, or
 * use the graphs of {@link Graphs}, which do).
 *
 * <pre>{@code
 * new TaskGraph("norm").task("zero", Blas1::zero, r).task("ss", Blas1::sumOfSquares, x, r).task("sqrt", Blas1::sqrt, r)
 * }</pre>
 */
public final class Blas1 {
  private Blas1() {}

  /** {@code x = alpha·x}. x: (N) */
  public static void scal(float alpha, FloatArray x) {
    for (@Parallel int i = 0; i < x.getSize(); i++) x.set(i, alpha * x.get(i));
  }

  /** {@code out[0] += Σ x[i]·y[i]}. x, y: (N), out: (1) */
  public static void dot(FloatArray x, FloatArray y, @Reduce FloatArray out) {
    for (@Parallel int i = 0; i < x.getSize(); i++) out.set(0, out.get(0) + x.get(i) * y.get(i));
  }

  /** {@link #dot} in index order, one work-item: the reference. x, y: (N), out: (1) */
  public static void dotSequential(FloatArray x, FloatArray y, FloatArray out) {
    float acc = out.get(0);
    for (int i = 0; i < x.getSize(); i++) acc += x.get(i) * y.get(i);
    out.set(0, acc);
  }

  /** {@code out[0] += Σ |x[i]|}. x: (N), out: (1) */
  public static void asum(FloatArray x, @Reduce FloatArray out) {
    for (@Parallel int i = 0; i < x.getSize(); i++) out.set(0, out.get(0) + Math.abs(x.get(i)));
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
    for (@Parallel int i = 0; i < x.getSize(); i++) out.set(0, out.get(0) + x.get(i) * x.get(i));
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
