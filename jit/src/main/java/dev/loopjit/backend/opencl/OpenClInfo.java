// Typed reads of OpenCL's info queries (platforms, devices, programs, kernels, events): the size-then-value dance in one place.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Info queries over {@link OpenCl}; each throws an {@link OpenClException} naming the query when it fails. */
final class OpenClInfo {
  private OpenClInfo() {}

  /** Every platform; empty when the ICD loader finds none. */
  static List<MemorySegment> platforms(OpenCl cl) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment n = a.allocate(JAVA_INT);
      int rc = cl.getPlatformIDs(0, MemorySegment.NULL, n);
      if (rc == OpenCl.PLATFORM_NOT_FOUND_KHR) return List.of();
      OpenCl.check(rc, "clGetPlatformIDs");
      int count = n.get(JAVA_INT, 0);
      if (count == 0) return List.of();
      MemorySegment ids = a.allocate(ADDRESS, count);
      OpenCl.check(cl.getPlatformIDs(count, ids, n), "clGetPlatformIDs");
      return handles(ids, Math.min(count, n.get(JAVA_INT, 0)));
    }
  }

  /** The devices of every type on {@code platform}; empty when it has none. */
  static List<MemorySegment> devices(OpenCl cl, MemorySegment platform) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment n = a.allocate(JAVA_INT);
      int rc = cl.getDeviceIDs(platform, OpenCl.DEVICE_TYPE_ALL, 0, MemorySegment.NULL, n);
      if (rc == OpenCl.DEVICE_NOT_FOUND) return List.of();
      OpenCl.check(rc, "clGetDeviceIDs");
      int count = n.get(JAVA_INT, 0);
      if (count == 0) return List.of();
      MemorySegment ids = a.allocate(ADDRESS, count);
      OpenCl.check(cl.getDeviceIDs(platform, OpenCl.DEVICE_TYPE_ALL, count, ids, n), "clGetDeviceIDs");
      return handles(ids, Math.min(count, n.get(JAVA_INT, 0)));
    }
  }

  private static List<MemorySegment> handles(MemorySegment array, int count) {
    List<MemorySegment> l = new ArrayList<>(count);
    for (int i = 0; i < count; i++) l.add(array.getAtIndex(ADDRESS, i));
    return List.copyOf(l);
  }

  /** A platform string (CL_PLATFORM_NAME, _VERSION, …). */
  static String platformString(OpenCl cl, MemorySegment platform, int param) {
    return string((size, value, ret) -> cl.getPlatformInfo(platform, param, size, value, ret), "clGetPlatformInfo");
  }

  /** A device string (CL_DEVICE_NAME, CL_DRIVER_VERSION, CL_DEVICE_EXTENSIONS, …); empty when the device lacks the query. */
  static String deviceString(OpenCl cl, MemorySegment device, int param) {
    try (Arena a = Arena.ofConfined()) {
      if (cl.getDeviceInfo(device, param, 0, MemorySegment.NULL, a.allocate(JAVA_LONG)) == -30) return "";
    }
    return string((size, value, ret) -> cl.getDeviceInfo(device, param, size, value, ret), "clGetDeviceInfo(0x" + Integer.toHexString(param) + ")");
  }

  /** A device value of type cl_uint or cl_bool; 0 when the device does not know the query (old or new versions). */
  static int deviceInt(OpenCl cl, MemorySegment device, int param) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment v = a.allocate(JAVA_INT);
      int rc = cl.getDeviceInfo(device, param, 4, v, MemorySegment.NULL);
      if (rc == -30) return 0;   // CL_INVALID_VALUE: a query this device's OpenCL version lacks
      OpenCl.check(rc, "clGetDeviceInfo(0x" + Integer.toHexString(param) + ")");
      return v.get(JAVA_INT, 0);
    }
  }

  /** A device value of type cl_ulong, size_t or a bitfield; 0 when the device does not know the query (old versions). */
  static long deviceLong(OpenCl cl, MemorySegment device, int param) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment v = a.allocate(JAVA_LONG);
      int rc = cl.getDeviceInfo(device, param, 8, v, MemorySegment.NULL);
      if (rc == -30) return 0;   // CL_INVALID_VALUE: a query this device's OpenCL version lacks
      OpenCl.check(rc, "clGetDeviceInfo(0x" + Integer.toHexString(param) + ")");
      return v.get(JAVA_LONG, 0);
    }
  }

  /** CL_DEVICE_MAX_WORK_ITEM_SIZES: one size_t per dimension. */
  static long[] deviceSizes(OpenCl cl, MemorySegment device, int param, int count) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment v = a.allocate(JAVA_LONG, count);
      OpenCl.check(cl.getDeviceInfo(device, param, 8L * count, v, MemorySegment.NULL), "clGetDeviceInfo(0x" + Integer.toHexString(param) + ")");
      return v.toArray(JAVA_LONG);
    }
  }

  /** The build log of {@code program} on {@code device}. */
  static String buildLog(OpenCl cl, MemorySegment program, MemorySegment device) {
    return string((size, value, ret) -> cl.getProgramBuildInfo(program, device, OpenCl.PROGRAM_BUILD_LOG, size, value, ret),
        "clGetProgramBuildInfo");
  }

  /** CL_KERNEL_WORK_GROUP_SIZE: the largest work-group this kernel can run with on {@code device}. */
  static long kernelWorkGroupSize(OpenCl cl, MemorySegment kernel, MemorySegment device) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment v = a.allocate(JAVA_LONG);
      OpenCl.check(cl.getKernelWorkGroupInfo(kernel, device, OpenCl.KERNEL_WORK_GROUP_SIZE, 8, v, MemorySegment.NULL),
          "clGetKernelWorkGroupInfo");
      return v.get(JAVA_LONG, 0);
    }
  }

  /** The device binary of a built single-device program. */
  static byte[] binary(OpenCl cl, MemorySegment program) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment sizes = a.allocate(JAVA_LONG);
      OpenCl.check(cl.getProgramInfo(program, OpenCl.PROGRAM_BINARY_SIZES, 8, sizes, MemorySegment.NULL), "clGetProgramInfo(BINARY_SIZES)");
      long n = sizes.get(JAVA_LONG, 0);
      if (n <= 0) return new byte[0];
      MemorySegment data = a.allocate(n);
      MemorySegment pointers = a.allocate(ADDRESS);
      pointers.set(ADDRESS, 0, data);
      OpenCl.check(cl.getProgramInfo(program, OpenCl.PROGRAM_BINARIES, ADDRESS.byteSize(), pointers, MemorySegment.NULL),
          "clGetProgramInfo(BINARIES)");
      return data.toArray(JAVA_BYTE);
    }
  }

  /** An event's profiling counter (CL_PROFILING_COMMAND_START/END) in nanoseconds, or -1 when unavailable. */
  static long profilingCounter(OpenCl cl, MemorySegment event, int param, Arena scratch) {
    MemorySegment v = scratch.allocate(JAVA_LONG);
    return cl.getEventProfilingInfo(event, param, 8, v, MemorySegment.NULL) == OpenCl.SUCCESS ? v.get(JAVA_LONG, 0) : -1;
  }

  @FunctionalInterface
  private interface Query {
    int call(long size, MemorySegment value, MemorySegment sizeRet);
  }

  private static String string(Query q, String what) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment len = a.allocate(JAVA_LONG);
      OpenCl.check(q.call(0, MemorySegment.NULL, len), what);
      long n = len.get(JAVA_LONG, 0);
      if (n <= 1) return "";
      MemorySegment v = a.allocate(n);
      OpenCl.check(q.call(n, v, MemorySegment.NULL), what);
      byte[] bytes = v.toArray(JAVA_BYTE);
      int end = 0;
      while (end < bytes.length && bytes[end] != 0) end++;
      return new String(bytes, 0, end, StandardCharsets.UTF_8).trim();
    }
  }
}
