// One device's process-wide OpenCL state: its cl_context, the programs built for it and its pool of free buffers.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Shared by every plan (every {@link OpenClRuntime}) on one device, so that a second plan finds
 * the programs and the buffers the first one left: cl_program and cl_mem objects belong to a
 * context. It lives as long as the process; each runtime has its own command queue and kernels.
 */
final class OpenClContext {
  private final OpenCl cl;
  private final OpenClDevice device;
  private final MemorySegment handle;
  private final ProgramCache programs;
  private final SpirvPrograms spirv;
  private final BufferPool pool;

  private OpenClContext(OpenCl cl, OpenClDevice device, MemorySegment handle) {
    this.cl = cl;
    this.device = device;
    this.handle = handle;
    this.programs = new ProgramCache(cl, this);
    this.spirv = new SpirvPrograms(cl, this);
    this.pool = new BufferPool(cl, this);
  }

  static OpenClContext create(OpenCl cl, OpenClDevice device) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment devices = a.allocate(ADDRESS);
      devices.set(ADDRESS, 0, device.handle());
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment ctx = cl.createContext(MemorySegment.NULL, 1, devices, err);
      OpenCl.check(err.get(JAVA_INT, 0), "clCreateContext on " + device);
      return new OpenClContext(cl, device, ctx);
    }
  }

  /** A new in-order command queue with profiling on; the caller releases it. */
  MemorySegment createQueue() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment q = cl.createCommandQueue(handle, device.handle(), OpenCl.QUEUE_PROFILING_ENABLE, err);
      OpenCl.check(err.get(JAVA_INT, 0), "clCreateCommandQueue on " + device);
      return q;
    }
  }

  OpenClDevice device() {
    return device;
  }

  MemorySegment handle() {
    return handle;
  }

  /** Programs built for this device: in memory for the process, on disk across processes. */
  ProgramCache programs() {
    return programs;
  }

  /** Programs built from SPIR-V modules for this device (see {@link ProgramForm}). */
  SpirvPrograms spirv() {
    return spirv;
  }

  /** Device buffers released by earlier plans, ready for reuse. */
  BufferPool pool() {
    return pool;
  }
}
