// How OpenCL builds and loads programs for the shared program cache: from source, and from a cached device binary.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.spi.BuildFailure;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.ProgramCache;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The OpenCL side of {@link ProgramCache}: {@code clCreateProgramWithSource} + {@code clBuildProgram}
 * (the build log on failure), the device binary ({@code CL_PROGRAM_BINARIES}) for the disk, and
 * {@code clCreateProgramWithBinary} for a cached one.
 */
final class OpenClPrograms implements ProgramCache.Driver<MemorySegment> {
  private final OpenCl cl;
  private final OpenClContext context;

  OpenClPrograms(OpenCl cl, OpenClContext context) {
    this.cl = cl;
    this.context = context;
  }

  @Override
  public ProgramCache.Compiled<MemorySegment> compile(DeviceCode code, String options, boolean wantBinary) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment strings = a.allocate(ADDRESS);
      strings.set(ADDRESS, 0, a.allocateFrom(code.text()));
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment program = cl.createProgramWithSource(context.handle(), 1, strings, MemorySegment.NULL, err);
      OpenCl.check(err.get(JAVA_INT, 0), "clCreateProgramWithSource");
      int rc = cl.buildProgram(program, 1, devices(a), a.allocateFrom(options));
      if (rc != OpenCl.SUCCESS) {
        String log = OpenClInfo.buildLog(cl, program, context.device().handle());
        cl.releaseProgram(program);
        throw new BuildFailure(OpenClException.name(rc), log);
      }
      return new ProgramCache.Compiled<>(program, wantBinary ? binaryOf(program) : null);
    }
  }

  @Override
  public MemorySegment load(byte[] binary, String options) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment data = a.allocateFrom(JAVA_BYTE, binary);
      MemorySegment pointers = a.allocate(ADDRESS);
      pointers.set(ADDRESS, 0, data);
      MemorySegment lengths = a.allocate(JAVA_LONG);
      lengths.set(JAVA_LONG, 0, binary.length);
      MemorySegment status = a.allocate(JAVA_INT), err = a.allocate(JAVA_INT);
      MemorySegment program = cl.createProgramWithBinary(context.handle(), 1, devices(a), lengths, pointers, status, err);
      int rc = err.get(JAVA_INT, 0);
      if (rc == OpenCl.SUCCESS) {
        rc = cl.buildProgram(program, 1, devices(a), a.allocateFrom(options));
        if (rc == OpenCl.SUCCESS) return program;
        cl.releaseProgram(program);
      }
      throw new BuildFailure(OpenClException.name(rc), "");
    }
  }

  @Override
  public void release(MemorySegment program) {
    OpenCl.check(cl.releaseProgram(program), "clReleaseProgram");
  }

  /** The program's device binary, or null when the driver will not give it. */
  private byte[] binaryOf(MemorySegment program) {
    try {
      return OpenClInfo.binary(cl, program);
    } catch (RuntimeException e) {
      System.getLogger("dev.loopjit.backend.opencl").log(System.Logger.Level.WARNING,
          "cannot read the OpenCL program binary for the cache: " + e);
      return null;
    }
  }

  private MemorySegment devices(Arena a) {
    MemorySegment d = a.allocate(ADDRESS);
    d.set(ADDRESS, 0, context.device().handle());
    return d;
  }
}
