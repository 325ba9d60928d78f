// Which arrays a CPU OpenCL device uses in place (CL_MEM_USE_HOST_PTR): nothing moves for inputs and outputs copied every execution.
package dev.loopjit.backend.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Profile;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class ZeroCopyTest {
  static void add(FloatArray a, FloatArray b, FloatArray c) {
    for (@Parallel int i = 0; i < c.getSize(); i++) c.set(i, a.get(i) + b.get(i));
  }

  static void accumulate(FloatArray a, FloatArray c) {
    for (@Parallel int i = 0; i < c.getSize(); i++) c.set(i, c.get(i) + a.get(i));
  }

  private static FloatArray ramp(int n, float step) {
    FloatArray a = new FloatArray(n);
    for (int i = 0; i < n; i++) a.set(i, i * step);
    return a;
  }

  @Test
  void anOutputCopiedBackEveryExecutionIsUsedInPlace() {
    OpenClDevice d = OpenClTesting.device();
    assumeTrue(d.sharesHostMemory(), "in place only where the device computes in host memory");
    int n = 4099;
    FloatArray a = ramp(n, 1), b = ramp(n, 2), c = new FloatArray(n);
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
        .task("add", ZeroCopyTest::add, a, b, c).transferToHost(DataTransferMode.EVERY_EXECUTION, c);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d).withProfiler()) {
      Profile p = plan.execute().profile();
      assertEquals(0, p.bytesIn() + p.bytesOut(), "nothing copied");
      for (int i = 0; i < n; i++) assertEquals(3f * i, c.get(i));
      a.set(7, 100f);   // a host change between executions is seen by the next one
      p = plan.execute().profile();
      assertEquals(0, p.bytesIn() + p.bytesOut(), "nothing copied the second time either");
      assertEquals(100f + 14f, c.get(7));
    }
  }

  @Test
  void anOutputTheKernelAlsoReadsIsCopied() {
    OpenClDevice d = OpenClTesting.device();
    int n = 1000;
    FloatArray a = ramp(n, 1), c = ramp(n, 1);
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
        .task("acc", ZeroCopyTest::accumulate, a, c).transferToHost(DataTransferMode.EVERY_EXECUTION, c);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d).withProfiler()) {
      Profile first = plan.execute().profile();
      assertEquals(4L * n, first.bytesIn(), "c goes in once, on first use; a is in place");
      assertEquals(4L * n, first.bytesOut());
      c.set(0, -1f);                     // resident on the device: this host write is not seen
      plan.execute();
      float[] expected = new float[n];
      for (int i = 0; i < n; i++) expected[i] = 3f * i;
      assertArrayEquals(expected, c.toArray());
    }
  }

  @Test
  void anOutputAlsoAskedForOnDemandIsNotInPlace() {
    OpenClDevice d = OpenClTesting.device();
    int n = 1000;
    FloatArray a = ramp(n, 1), b = ramp(n, 1), c = new FloatArray(n);
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
        .task("add", ZeroCopyTest::add, a, b, c).transferToHost(DataTransferMode.UNDER_DEMAND, c);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d).withProfiler()) {
      var r = plan.execute();
      assertEquals(0f, c.get(5), "the kernel wrote a device buffer, not the host array");
      r.transferToHost(c);
      assertEquals(10f, c.get(5));
    }
  }
}
