// The front end's own samples, run on every device and compared with the JVM.
package dev.loopjit.compiler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SamplesTest {
  private static void each(java.util.function.Consumer<Device> check) {
    for (Device d : Devices.all()) check.accept(d);
  }

  @Test
  void saxpyEqualsJava() {
    int n = 1031;
    FloatArray x = new FloatArray(n), y0 = new FloatArray(n);
    Random r = new Random(1);
    for (int i = 0; i < n; i++) { x.set(i, r.nextFloat()); y0.set(i, r.nextFloat()); }
    FloatArray want = FloatArray.fromArray(y0.toArray());
    Samples.saxpy(2.5f, x, want);
    each(d -> {
      FloatArray y = FloatArray.fromArray(y0.toArray());
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, x, y)
          .task("t", Samples::saxpy, 2.5f, x, y).transferToHost(DataTransferMode.EVERY_EXECUTION, y);
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        p.execute();
      }
      assertArrayEquals(want.toArray(), y.toArray(), d.id());
    });
  }

  @Test
  void matmulControlReverseCallsEqualJava() {
    int n = 37;
    float[] a = new float[n * n], b = new float[n * n];
    Random r = new Random(2);
    for (int i = 0; i < a.length; i++) { a[i] = r.nextFloat(); b[i] = r.nextFloat(); }
    float[] want = new float[n * n];
    Samples.matmul(a, b, want, n);
    int[] cx = new int[257], wantCy = new int[257], rin = new int[101], wantR = new int[101];
    for (int i = 0; i < cx.length; i++) cx[i] = r.nextInt(12);
    for (int i = 0; i < rin.length; i++) rin[i] = r.nextInt(300) - 100;
    Samples.control(cx, wantCy);
    Samples.reverse(rin, wantR, rin.length);
    IntArray calls0 = new IntArray(300);
    for (int i = 0; i < 300; i++) calls0.set(i, r.nextInt() >> r.nextInt(30));
    IntArray wantCalls = IntArray.fromArray(calls0.toArray());
    Samples.calls(wantCalls);
    each(d -> {
      float[] c = new float[n * n];
      int[] cy = new int[257], rout = new int[101];
      IntArray calls = IntArray.fromArray(calls0.toArray());
      TaskGraph g = new TaskGraph("g")
          .task("mm", Samples::matmul, a, b, c, n)
          .task("ctl", Samples::control, cx, cy)
          .task("rev", Samples::reverse, rin, rout, rin.length)
          .task("calls", Samples::calls, calls)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, c, cy, rout, calls);
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        p.execute();
      }
      assertArrayEquals(want, c, d.id());
      assertArrayEquals(wantCy, cy, d.id());
      assertArrayEquals(wantR, rout, d.id());
      assertArrayEquals(wantCalls.toArray(), calls.toArray(), d.id());
    });
  }

  @Test
  void localMemoryReductionEqualsJava() {
    int n = 1000, groups = (n + 63) / 64;
    FloatArray in = new FloatArray(n);
    for (int i = 0; i < n; i++) in.set(i, i % 17);
    each(d -> {
      FloatArray out = new FloatArray(groups);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
          .task("r", Samples::reduceGroups, new KernelContext(), in, out)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)
          .withGridScheduler(new GridScheduler("g.r", new WorkerGrid1D(n).setLocalWork(64, 1, 1)))) {
        p.execute();
      }
      float total = 0;
      for (int i = 0; i < groups; i++) total += out.get(i);
      float want = 0;
      for (int i = 0; i < n; i++) want += in.get(i);
      assertEquals(want, total, 0f, d.id());
    });
  }
}
