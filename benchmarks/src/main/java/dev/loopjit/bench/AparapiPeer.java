// Aparapi 3.0.2 as a peer in the same JMH run: the workloads' loops written its way, inputs resident on its OpenCL device.
package dev.loopjit.bench;

import com.aparapi.Kernel;
import com.aparapi.Range;
import dev.loopjit.types.FloatArray;
import java.util.function.Supplier;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Each workload's loop as an Aparapi {@link Kernel} (an anonymous subclass whose {@code run()} reads
 * {@code getGlobalId()}), over {@code float[]} copies of the workload's arrays: Aparapi takes heap
 * arrays. The kernel runs in Aparapi's explicit mode with the inputs put on its device once, so the
 * timed {@link Peer#run()} is the kernel and its launch, as LoopJIT's {@code kernelOnly}. Before
 * timing, the result is read back and compared with the sequential loop's, and the peer must have
 * run on OpenCL: a fallback to Aparapi's Java thread pool fails the benchmark rather than being timed
 * under Aparapi's name. Aparapi's OpenCL keeps the C defaults (FMA contraction allowed), so sums are
 * compared within a relative 1e-4, not bit for bit.
 */
final class AparapiPeer {
  /** A kernel ready to run, and how to read its result. */
  interface Peer {
    /** One execution on the device: what the benchmark times. */
    Kernel run();

    /** Reads the output back into {@code out}. */
    void result(FloatArray out);
  }

  private AparapiPeer() {}

  /** The peer {@code make} gives, run once and checked, when the running benchmark method is {@code aparapi}; else null. */
  static Peer forRunning(BenchmarkParams params, Workload w, Supplier<Peer> make) {
    String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
    if (!method.equals("aparapi")) return null;
    Peer p = make.get();
    Kernel k = p.run();
    if (!k.isRunningCL())
      throw new IllegalStateException("Aparapi did not run " + w.getClass().getName() + " on OpenCL (" + k.getTargetDevice() + ", mode "
          + k.getExecutionMode() + "): not timed");
    FloatArray got = new FloatArray(w.expected().getSize());
    p.result(got);
    FloatArray e = w.expected();
    for (int i = 0; i < e.getSize(); i++)
      if (!(Math.abs(e.get(i) - got.get(i)) <= 1e-4f * Math.max(1f, Math.abs(e.get(i)))))
        throw new IllegalStateException("Aparapi computed a wrong result for " + w.getClass().getName() + ": element " + i + " is " + got.get(i)
            + ", the sequential loop gives " + e.get(i));
    return p;
  }

  private static Peer resident(Kernel k, Range range, float[] out, float[]... inputs) {
    k.setExplicit(true);
    for (float[] in : inputs) k.put(in);
    k.put(out);
    return new Peer() {
      @Override
      public Kernel run() {
        return k.execute(range);
      }

      @Override
      public void result(FloatArray o) {
        k.get(out);
        o.getSegment().copyFrom(java.lang.foreign.MemorySegment.ofArray(out));
      }
    };
  }

  static Peer vectorAdd(FloatArray fa, FloatArray fb, int n) {
    final float[] a = fa.toHeapArray(), b = fb.toHeapArray(), c = new float[n];
    Kernel k = new Kernel() {
      @Override
      public void run() {
        int i = getGlobalId();
        c[i] = a[i] + b[i];
      }
    };
    return resident(k, Range.create(n), c, a, b);
  }

  static Peer saxpy(float alpha, FloatArray fx, FloatArray fy, int n) {
    final float[] x = fx.toHeapArray(), y = fy.toHeapArray();
    final float s = alpha;
    Kernel k = new Kernel() {
      @Override
      public void run() {
        int i = getGlobalId();
        y[i] = s * x[i] + y[i];
      }
    };
    return resident(k, Range.create(n), y, x);
  }

  static Peer gemv(FloatArray fa, FloatArray fx, int n) {
    final float[] a = fa.toHeapArray(), x = fx.toHeapArray(), y = new float[n];
    final int cols = n;
    Kernel k = new Kernel() {
      @Override
      public void run() {
        int i = getGlobalId();
        float sum = 0f;
        for (int j = 0; j < cols; j++) sum += a[i * cols + j] * x[j];
        y[i] = sum;
      }
    };
    return resident(k, Range.create(n), y, a, x);
  }

  static Peer gemm(FloatArray fa, FloatArray fb, int n) {
    final float[] a = fa.toHeapArray(), b = fb.toHeapArray(), c = new float[n * n];
    final int size = n;
    Kernel k = new Kernel() {
      @Override
      public void run() {
        int j = getGlobalId(0), i = getGlobalId(1);
        float acc = 0f;
        for (int p = 0; p < size; p++) acc += a[i * size + p] * b[p * size + j];
        c[i * size + j] = acc;
      }
    };
    return resident(k, Range.create2D(n, n), c, a, b);
  }

  static Peer dense(FloatArray fx, FloatArray fw, FloatArray fbias, int batch, int in, int out) {
    final float[] x = fx.toHeapArray(), w = fw.toHeapArray(), bias = fbias.toHeapArray(), y = new float[batch * out];
    final int inputs = in, outputs = out;
    Kernel k = new Kernel() {
      @Override
      public void run() {
        int o = getGlobalId(0), r = getGlobalId(1);
        float acc = bias[o];
        for (int i = 0; i < inputs; i++) acc += x[r * inputs + i] * w[o * inputs + i];
        y[r * outputs + o] = acc;
      }
    };
    return resident(k, Range.create2D(out, batch), y, x, w, bias);
  }
}
