// TornadoVM's device lookup over Devices: TornadoRuntimeProvider.getTornadoRuntime().getBackend(i).getDevice(j), ExecutionPlan.getDevice(i, j).
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TornadoLookupTest {
  static void addOne(int[] a) {
    for (@Parallel int i = 0; i < a.length; i++) a[i] += 1;
  }

  @Test
  void backendZeroDeviceZeroIsTheBestAndEveryDeviceIsListedOnce() {
    TornadoRuntime rt = TornadoRuntimeProvider.getTornadoRuntime();
    assertEquals(Devices.best().id(), rt.getDefaultDevice().id());
    assertEquals(Devices.best().id(), rt.getBackend(0).getDevice(0).id());
    assertEquals(Devices.best().id(), ExecutionPlan.getDevice(0, 0).id());
    List<String> listed = new ArrayList<>();
    for (int b = 0; b < rt.getNumBackends(); b++) {
      TornadoBackend backend = rt.getBackend(b);
      assertTrue(backend.getNumDevices() > 0, backend.getName());
      assertSame(backend.getDevice(0), backend.getDefaultDevice());
      for (int d = 0; d < backend.getNumDevices(); d++) {
        Device device = backend.getDevice(d);
        assertEquals(backend.getName(), device.backend());
        assertEquals(b, device.getBackendIndex());
        listed.add(device.id());
      }
    }
    assertEquals(Devices.all().stream().map(Device::id).sorted().toList(), listed.stream().sorted().toList(), "each device once");
  }

  @Test
  void aTornadoDeviceHasTornadoVmsGettersAndRunsAPlan() {
    for (Device d : Devices.all()) {
      TornadoDevice t = d;
      assertEquals(d.name(), t.getDeviceName());
      assertEquals(d.describe(), t.getDescription());
      assertEquals(d.backend(), t.getPlatformName());
      assertEquals(d.memoryBytes(), t.getMaxGlobalMemory());
      assertEquals(d.localMemoryBytes(), t.getDeviceLocalMemorySize());
      assertEquals(d.maxAllocationBytes(), t.getMaxAllocMemory());
      if (d.backend().equals("opencl")) assertTrue(t.getMaxAllocMemory() > 0 && t.getMaxAllocMemory() <= d.memoryBytes(), d.id());   // CL_DEVICE_MAX_MEM_ALLOC_SIZE
      assertEquals(d.computeUnits(), t.getAvailableProcessors());
      assertEquals(switch (d.kind()) { case GPU -> TornadoDeviceType.GPU; case CPU -> TornadoDeviceType.CPU;
        case ACCELERATOR -> TornadoDeviceType.ACCELERATOR; case JVM -> TornadoDeviceType.JAVA; }, t.getDeviceType());
      int[] a = {1, 2, 3};
      TornadoFunctions.Task1<int[]> addOne = TornadoLookupTest::addOne;   // TornadoVM's name for a task's type
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
          .task("t", addOne, a).transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot())) {
        plan.withDevice(t).execute();
        assertEquals(d.id(), plan.device().id());
      }
      assertArrayEquals(new int[] {2, 3, 4}, a, d.id());
    }
  }

  @Test
  void anIndexThereIsNotIsRefusedNamingWhatThereIs() {
    TornadoRuntime rt = TornadoRuntimeProvider.getTornadoRuntime();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rt.getBackend(rt.getNumBackends()));
    assertTrue(e.getMessage().contains("no backend " + rt.getNumBackends()) && e.getMessage().contains(Devices.best().id()), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ExecutionPlan.getDevice(0, 99));
    assertTrue(e.getMessage().contains("has no device 99") && e.getMessage().contains(Devices.best().id()), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> rt.getBackend(-1));
  }
}
