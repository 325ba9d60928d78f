// The host side of TornadoVM's API that LoopJIT takes as it is: shallow arrays over a segment, the arrays' common type, the plan's trace, the device's memory.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.TornadoNativeArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class TornadoCompatTest {
  static void twice(FloatArray a) {
    for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, a.get(i) * 2f);
  }

  @Test
  void aShallowArrayIsTheSegmentsMemory() {
    MemorySegment segment = Arena.ofAuto().allocate(TornadoNativeArray.ARRAY_HEADER + 4 * 5);
    for (int i = 0; i < 5; i++) segment.setAtIndex(ValueLayout.JAVA_FLOAT, i, i + 1f);
    FloatArray a = FloatArray.fromSegmentShallow(segment);
    assertEquals(5, a.getSize());
    a.set(0, 9f);
    assertEquals(9f, segment.getAtIndex(ValueLayout.JAVA_FLOAT, 0), "shared, not copied");
    try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("s").task("t", TornadoCompatTest::twice, a)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot()).withDevice(Devices.best())) {
      plan.execute();
    }
    assertEquals(4f, segment.getAtIndex(ValueLayout.JAVA_FLOAT, 1), "a kernel's result lands in the segment");
    TornadoNativeArray t = IntArray.fromSegmentShallow(Arena.ofAuto().allocate(12));
    assertEquals(3, t.getSize());
    assertEquals(12, t.getNumBytesOfSegmentWithHeader());
    assertEquals(4, t.getElementSize());
    assertEquals(0, TornadoNativeArray.ARRAY_HEADER);
  }

  @Test
  void thePlansTraceSaysWhatItRuns() {
    FloatArray a = new FloatArray(4);
    TaskGraph g = new TaskGraph("g").task("t", TornadoCompatTest::twice, a);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withProfiler()) {
      String trace = plan.getTraceExecutionPlan();
      assertEquals(trace, plan.getTraceExecutionPlan());
      assertTrue(trace.contains("graph g [t]") && trace.contains("devices [jvm]") && trace.contains("profiler"), trace);
    }
  }

  @Test
  void theDevicesMemoryAndTheRuntimesProperties() {
    Device d = Devices.best();
    assertEquals(d.memoryBytes(), d.getDeviceContext().getMemoryManager().getHeapSize());
    TornadoRuntimeProvider.setProperty("tornado.compat.test", "True");
    assertEquals("True", System.getProperty("tornado.compat.test"));
    System.clearProperty("tornado.compat.test");
    assertEquals(TornadoVMBackendType.JAVA, Devices.jvm().getTornadoVMBackend());
    assertEquals("OpenCL", TornadoVMBackendType.OPENCL.getName());
  }
}
