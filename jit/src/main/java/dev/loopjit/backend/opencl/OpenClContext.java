// One device's process-wide OpenCL state: its cl_context, the programs built for it and its pool of free buffers.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.loopjit.spi.BufferPool;
import dev.loopjit.spi.DeviceContext;
import dev.loopjit.spi.ProgramCache;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Shared by every plan (every {@link OpenClRuntime}) on one device, so that a second plan finds
 * the programs and the buffers the first one left: cl_program and cl_mem objects belong to a
 * context. It lives as long as the process; each runtime has its own command queue and kernels.
 */
final class OpenClContext extends DeviceContext<MemorySegment, MemorySegment> {
  /** The process's OpenCL bindings (loaded once). */
  private final OpenCl cl = OpenCl.get();
  private final OpenClDevice device;

  private OpenClContext(OpenClDevice device, MemorySegment handle) {
    super(handle);
    this.device = device;
  }

  /**
   * The cache files are {@code opencl/KEY.cl} (or {@code KEY.spvasm}, a SPIR-V module's
   * disassembly) and {@code opencl/KEY.bin}; the key includes the language, the build options (the
   * bridge's among them) and the device's name, version, driver and platform version.
   */
  @Override
  protected ProgramCache<MemorySegment> newPrograms() {
    return new ProgramCache<>(new OpenClPrograms(cl, this), "opencl", language -> language.equals("spirv") ? ".spvasm" : ".cl", ".bin",
        List.of(device.name(), device.deviceVersion(), device.driver(), device.platformVersion()));
  }

  @Override
  protected BufferPool<MemorySegment> newPool() {
    return new BufferPool<>(new Buffers(), device.toString(), device.memoryBytes(), device.maxAllocationBytes());
  }

  static OpenClContext create(OpenClDevice device) {
    OpenCl cl = OpenCl.get();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment devices = a.allocate(ADDRESS);
      devices.set(ADDRESS, 0, device.handle());
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment ctx = cl.createContext(MemorySegment.NULL, 1, devices, err);
      OpenCl.check(err.get(JAVA_INT, 0), "clCreateContext on " + device);
      return new OpenClContext(device, ctx);
    }
  }

  /** A new in-order command queue with profiling on; the caller releases it. */
  MemorySegment createQueue() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment q = cl.createCommandQueue(handle(), device.handle(), OpenCl.QUEUE_PROFILING_ENABLE, err);
      OpenCl.check(err.get(JAVA_INT, 0), "clCreateCommandQueue on " + device);
      return q;
    }
  }

  OpenClDevice device() {
    return device;
  }

  /**
   * A new buffer with {@code flags} ({@code host}: the host memory for CL_MEM_USE_HOST_PTR, or
   * NULL), or null when the device is out of memory.
   */
  MemorySegment tryCreate(long flags, long bytes, MemorySegment host) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment mem = cl.createBuffer(handle(), flags, bytes, host, err);
      int code = err.get(JAVA_INT, 0);
      if (code == OpenCl.SUCCESS) return mem;
      if (code == -4 || code == -5 || code == -6 || code == -61) return null;   // the out-of-memory codes
      throw new OpenClException(code, "clCreateBuffer of " + bytes + " bytes on " + device);
    }
  }

  /** CL_MEM_READ_WRITE buffers for the pool. */
  private final class Buffers implements BufferPool.Driver<MemorySegment> {
    @Override
    public MemorySegment allocate(long bytes) {
      return tryCreate(OpenCl.MEM_READ_WRITE, bytes, MemorySegment.NULL);
    }

    @Override
    public void free(MemorySegment mem) {
      OpenCl.check(cl.releaseMemObject(mem), "clReleaseMemObject");
    }

    @Override
    public RuntimeException outOfMemory(String message) {
      return new OpenClException(-61, message);
    }
  }
}
