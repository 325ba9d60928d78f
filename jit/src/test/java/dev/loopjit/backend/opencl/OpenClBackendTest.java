// Device discovery: ids, the Device fields, what the runtime reads, and a missing library reported rather than thrown.
package dev.loopjit.backend.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.runtime.Settings;
import dev.loopjit.spi.Backend;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenClBackendTest {
  @Test
  void devicesAreNumberedInOrderAndDescribeThemselves() {
    OpenClTesting.device();
    Backend b = OpenClTesting.backend();
    List<Device> devices = b.devices(Settings.options());
    assertNull(b.problem());
    for (int i = 0; i < devices.size(); i++) {
      Device d = devices.get(i);
      assertEquals("opencl:" + i, d.id());
      assertEquals("opencl", d.backend());
      assertSame(d, Devices.get(d.id()));
      assertFalse(d.name().isBlank(), "name");
      assertTrue(d.kind() != Device.Kind.JVM);
      assertTrue(d.computeUnits() >= 1, "compute units");
      assertTrue(d.memoryBytes() > 0, "global memory");
      assertTrue(d.localMemoryBytes() > 0, "local memory");
      assertTrue(d.maxWorkGroupSize() >= 1, "max work-group size");
      assertFalse(d.driverVersion().isBlank(), "driver version");
      assertTrue(d.describe().startsWith(d.id()));
    }
  }

  @Test
  void deviceFactsTheRuntimeNeeds() {
    OpenClDevice d = OpenClTesting.device();
    String ext = " " + d.extensions() + " ";
    if (ext.contains(" cl_khr_fp64 ")) assertTrue(d.supportsFp64());
    assertEquals(ext.contains(" cl_khr_fp16 "), d.supportsFp16());
    assertEquals(ext.contains(" cl_khr_int64_base_atomics "), d.int64Atomics());
    assertEquals(1, Integer.bitCount(d.baseAddressAlignment()), "alignment is a power of two: " + d.baseAddressAlignment());
    assertTrue(d.maxAllocationBytes() > 0 && d.maxAllocationBytes() <= d.memoryBytes());
    long[] items = d.maxWorkItemSizes();
    assertEquals(3, items.length);
    for (long s : items) assertTrue(s >= 1);
    assertTrue(d.driverVersion().contains(d.driver()) && d.driverVersion().contains(d.platformVersion()));
    assertFalse(d.platformName().isBlank());
    assertFalse(d.deviceVersion().isBlank());
    assertNotNull(d.ilVersion());
    if (d.kind() == Device.Kind.CPU) assertTrue(d.sharesHostMemory());
  }

  @Test
  void aMissingLibraryIsAProblemNotAnException() {
    String p = OpenCl.problemOf("libNoSuchOpenCL.so.1");
    assertNotNull(p);
    assertTrue(p.contains("libNoSuchOpenCL.so.1 not found") && p.contains("pocl-opencl-icd"), p);
  }

  @Test
  void errorCodesHaveTheirNames() {
    assertEquals("CL_INVALID_WORK_GROUP_SIZE", OpenClException.name(-54));
    assertEquals("CL_MEM_OBJECT_ALLOCATION_FAILURE", OpenClException.name(-4));
    OpenClException e = new OpenClException(-5, "clEnqueueNDRangeKernel of k");
    assertEquals("clEnqueueNDRangeKernel of k: CL_OUT_OF_RESOURCES (-5)", e.getMessage());
    assertTrue(e.outOfMemory());
  }
}
