// TornadoVM's plan, result and profiler types after the import rename: TornadoExecutionPlan's calls, its kept results and warm-up, the device map, Int8Array in kernels on every device.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.ByteArray;
import dev.loopjit.types.HalfFloat;
import dev.loopjit.types.Int8Array;
import dev.loopjit.types.IntArray;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TornadoExecutionPlanTest {
  static void addOne(IntArray a) {
    for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, a.get(i) + 1);
  }

  static void widen(Int8Array in, IntArray out) {
    for (@Parallel int i = 0; i < in.getSize(); i++) {
      byte b = in.get(i);
      out.set(i, b * 3);
      in.set(i, (byte) (b + 100));
    }
  }

  @Test
  void everyCallOfExecutionPlanReturnsATornadoExecutionPlan() throws Exception {
    List<String> missing = new ArrayList<>();
    for (Method m : ExecutionPlan.class.getDeclaredMethods()) {
      if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers()) || m.getReturnType() != ExecutionPlan.class) continue;
      Method o = TornadoExecutionPlan.class.getMethod(m.getName(), m.getParameterTypes());
      if (o.getReturnType() != TornadoExecutionPlan.class) missing.add(m.getName());
    }
    assertEquals(List.of(), missing, "ExecutionPlan calls TornadoExecutionPlan does not return itself from");
  }

  @Test
  void aTornadoProgramsPlanRunsAndKeepsItsResults() throws Exception {
    IntArray a = new IntArray(8);
    TaskGraph g = new TaskGraph("s").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
        .task("t", TornadoExecutionPlanTest::addOne, a).transferToHost(DataTransferMode.EVERY_EXECUTION, a);
    try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
      TornadoExecutionPlan same = plan.withDevice(Devices.jvm()).withProfiler(ProfilerMode.SILENT).withWarmUpIterations(2);
      assertSame(plan, same);
      assertEquals(2, a.get(0), "two warm-up executions ran");
      TornadoExecutionResult r = plan.withGraph(0).execute();
      assertEquals(3, a.get(7));
      assertSame(r, plan.getPlanResult(2));
      TornadoProfilerResult p = r.getProfilerResult();
      assertEquals(32, p.getTotalBytesCopyIn());
      assertEquals(32, p.getTotalBytesCopyOut());
      assertEquals(64, p.getTotalBytesTransferred());
      assertTrue(p.getKernelDispatchTime() > 0 && p.getDataTransferDispatchTime() > 0, "timed under the profiler");
      assertEquals(plan.getCurrentDeviceMemoryUsage(), p.getTotalDeviceMemoryUsage());
      TornadoProfilerResult off = plan.withoutProfiler().execute().getProfilerResult();
      assertEquals(0, off.getKernelDispatchTime() + off.getDataTransferDispatchTime(), "not timed without it");
      plan.withProfiler();
      assertTrue(r.isReady());
      TornadoRuntimeException e = assertThrows(TornadoRuntimeException.class, () -> plan.getPlanResult(4));
      assertEquals("no execution result 4 in this plan: it ran 4 time(s)", e.getMessage());
      assertThrows(TornadoRuntimeException.class, () -> plan.withWarmUpIterations(-1));
      plan.withWarmUpTime(0);
      assertEquals(5, a.get(0), "a warm-up of 0 ms runs once");
      assertEquals(Devices.jvm(), plan.getDevice(0));
      assertThrows(TornadoRuntimeException.class, () -> plan.getDevice(1));
      plan.clearProfiles();
      assertThrows(TornadoRuntimeException.class, () -> plan.getPlanResult(0));
      plan.resetDevice().withStagedTransfers().withoutStagedTransfers();
      plan.execute();
      assertEquals(6, a.get(0));
      assertTrue(TornadoExecutionPlan.getTotalPlans() >= plan.getId());
    }
  }

  @Test
  void onlyTheLatestResultsAreKept() {
    IntArray a = new IntArray(1);
    try (TornadoExecutionPlan plan = new TornadoExecutionPlan(new TaskGraph("k").task("t", TornadoExecutionPlanTest::addOne, a).snapshot())) {
      plan.withDevice(Devices.jvm());
      for (int i = 0; i < TornadoExecutionPlan.RESULTS_KEPT + 3; i++) plan.execute();
      TornadoRuntimeException e = assertThrows(TornadoRuntimeException.class, () -> plan.getPlanResult(2));
      assertEquals("no execution result 2 in this plan: it ran 259 time(s) and keeps the results of executions 3 to 258", e.getMessage());
      plan.getPlanResult(3);
      plan.getPlanResult(258);
    }
  }

  @Test
  void theDeviceMapFindsDevicesByNameAndType() {
    TornadoDeviceMap map = TornadoExecutionPlan.getTornadoDeviceMap();
    assertEquals(TornadoRuntimeProvider.getTornadoRuntime().getNumBackends(), map.getNumBackends());
    assertEquals(Devices.all().size(), map.getAllBackends().stream().mapToInt(TornadoBackend::getNumDevices).sum());
    assertTrue(map.getDevicesByName(Devices.jvm().name().toUpperCase()).anyMatch(d -> d == Devices.jvm()));
    assertEquals(Devices.all().stream().filter(d -> d.getDeviceType() == TornadoDeviceType.JAVA).count(),
        map.getDevicesByType(TornadoDeviceType.JAVA).count());
    assertFalse(map.getBackendsWithDevicePredicate(d -> d == Devices.jvm()).isEmpty());
    assertEquals(Devices.jvm().name(), Devices.jvm().getPhysicalDevice().getDeviceName());
    assertEquals(TornadoVMBackendType.JAVA, map.getBackendsWithDevicePredicate(d -> d == Devices.jvm()).getFirst().getBackendType());
    assertThrows(TornadoBackendNotFound.class, () -> TornadoRuntimeProvider.getTornadoRuntime().getBackend(99));
    assertThrows(TornadoDeviceNotFound.class, () -> Devices.get("nowhere:7"));
    assertThrows(TornadoDeviceNotFound.class, () -> map.getAllBackends().getFirst().getDevice(99));
  }

  @Test
  void settingTheDefaultBackendMovesItFirst() {
    TornadoRuntime rt = TornadoRuntimeProvider.getTornadoRuntime();
    String before = System.getProperty("loopjit.device");
    try {
      int jvm = -1;
      for (int i = 0; i < rt.getNumBackends(); i++) if (rt.getBackend(i).getName().equals("jvm")) jvm = i;
      rt.setDefaultBackend(jvm);
      assertEquals(Devices.jvm(), rt.getDefaultDevice());
      assertEquals("jvm", rt.getBackend(0).getName());
      assertEquals(TornadoVMBackendType.JAVA, rt.getBackendType(0));
    } finally {
      if (before == null) System.clearProperty("loopjit.device");
      else System.setProperty("loopjit.device", before);
    }
  }

  @Test
  void int8ArraysRunOnEveryDevice() {
    byte[] values = {-128, -1, 0, 1, 27, 127, 100, -100};
    for (Device d : Devices.all()) {
      Int8Array in = Int8Array.fromArray(values);
      IntArray out = new IntArray(values.length);
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("i8").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
          .task("t", TornadoExecutionPlanTest::widen, in, out).transferToHost(DataTransferMode.EVERY_EXECUTION, in, out).snapshot())) {
        plan.withDevice(d).execute();
      }
      for (int i = 0; i < values.length; i++) {
        assertEquals(values[i] * 3, out.get(i), d.id() + " element " + i);
        assertEquals((byte) (values[i] + 100), in.get(i), d.id() + " element " + i);
      }
    }
  }

  @Test
  void aByteArrayHoldsHalves() {
    ByteArray b = new ByteArray(6);
    b.setHalfFloat(2, new HalfFloat(-1.5f));
    assertEquals(-1.5f, b.getHalfFloat(2).getFloat32());
    assertArrayEquals(new byte[] {0, 0, 0, (byte) 0xbe, 0, 0}, b.toArray(), "little-endian 0xbe00");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.getHalfFloat(3));
    assertEquals("a half-float is 2-byte aligned: byte index 3 is odd", e.getMessage());
    assertThrows(IndexOutOfBoundsException.class, () -> b.setHalfFloat(6, new HalfFloat(1f)));
  }
}
