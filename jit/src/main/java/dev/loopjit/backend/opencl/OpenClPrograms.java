// How OpenCL builds and loads programs for the shared program cache: from source, and from a cached device binary.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.backend.spirv.SpirvBridge;
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
record OpenClPrograms(OpenCl cl, OpenClContext context) implements ProgramCache.Driver<MemorySegment> {
  /** PoCL's own cache, where LoopJIT chose it, emptied: nothing it made from a bad binary survives the rebuild. */
  @Override
  public void forgetDriverCache() {
    DriverCacheDir.forget();
  }

  /**
   * OpenCL C through clCreateProgramWithSource; a SPIR-V module through clCreateProgramWithIL, or,
   * when the options carry the bridge's {@code -x spir}, translated to SPIR 1.2 bitcode by
   * llvm-spirv-15 and given to clCreateProgramWithBinary ({@link ProgramForm}).
   */
  @Override
  public ProgramCache.Compiled<MemorySegment> compile(DeviceCode code, String options, boolean wantBinary) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment program;
      if (code.binary() == null) {
        MemorySegment strings = a.allocate(ADDRESS);
        strings.set(ADDRESS, 0, a.allocateFrom(code.text()));
        program = cl.createProgramWithSource(context.handle(), 1, strings, MemorySegment.NULL, err);
        OpenCl.check(err.get(JAVA_INT, 0), "clCreateProgramWithSource");
      } else if (options.startsWith(SpirvBridge.BUILD_OPTIONS)) {
        byte[] bitcode;
        try {
          bitcode = SpirvBridge.toBitcode(code.binary());
        } catch (IllegalStateException e) {
          throw new BuildFailure(SpirvBridge.PACKAGE + " failed", e.getMessage());
        }
        program = withBinary(bitcode, err, a);
        if (err.get(JAVA_INT, 0) != OpenCl.SUCCESS)
          throw new BuildFailure(OpenClException.name(err.get(JAVA_INT, 0)), "clCreateProgramWithBinary refused the SPIR bitcode");
      } else {
        program = cl.createProgramWithIL(context.handle(), a.allocateFrom(JAVA_BYTE, code.binary()), code.binary().length, err);
        if (err.get(JAVA_INT, 0) != OpenCl.SUCCESS)
          throw new BuildFailure(OpenClException.name(err.get(JAVA_INT, 0)), "clCreateProgramWithIL refused the module");
      }
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
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment program = withBinary(binary, err, a);
      int rc = err.get(JAVA_INT, 0);
      if (rc == OpenCl.SUCCESS) {
        rc = cl.buildProgram(program, 1, devices(a), a.allocateFrom(options));
        if (rc == OpenCl.SUCCESS) return program;
        cl.releaseProgram(program);
      }
      throw new BuildFailure(OpenClException.name(rc), "");
    }
  }

  /** clCreateProgramWithBinary of one binary for the context's device; the error code goes to {@code err}. */
  private MemorySegment withBinary(byte[] binary, MemorySegment err, Arena a) {
    MemorySegment pointers = a.allocate(ADDRESS);
    pointers.set(ADDRESS, 0, a.allocateFrom(JAVA_BYTE, binary));
    MemorySegment lengths = a.allocate(JAVA_LONG);
    lengths.set(JAVA_LONG, 0, binary.length);
    return cl.createProgramWithBinary(context.handle(), 1, devices(a), lengths, pointers, a.allocate(JAVA_INT), err);
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
