// Built OpenCL programs from SPIR-V modules of one device: clCreateProgramWithIL or the SPIR bridge, cached in memory and on disk.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.backend.spirv.SpirvBridge;
import dev.loopjit.backend.spirv.SpirvDisassembler;
import dev.loopjit.runtime.DiskCache;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * The SPIR-V counterpart of {@link ProgramCache}: programs by (form, module, build options). A
 * {@link ProgramForm#SPIRV_IL} module goes to clCreateProgramWithIL; a
 * {@link ProgramForm#SPIRV_BRIDGE} module is translated to SPIR 1.2 bitcode by {@link SpirvBridge}
 * and given to clCreateProgramWithBinary with {@code -x spir -spir-std=1.2} before the options.
 * The disk cache shares {@code Settings.cacheDir()/opencl} with OpenCL C programs: {@code KEY.spvasm}
 * (the module's disassembly, for reading) and {@code KEY.bin} (the device binary), where KEY is the
 * SHA-256 of the form, the module, the options and the device's name, version, driver and platform
 * version; so the same kernel built as OpenCL C, as SPIR-V or through the bridge never shares an
 * entry. A binary that no longer loads is rebuilt from the module.
 */
final class SpirvPrograms {
  private static final System.Logger LOG = System.getLogger("dev.loopjit.backend.opencl");

  private final OpenCl cl;
  private final OpenClContext context;
  private final Map<String, MemorySegment> memory = new HashMap<>();

  SpirvPrograms(OpenCl cl, OpenClContext context) {
    this.cl = cl;
    this.context = context;
  }

  private static String memoryKey(ProgramForm form, byte[] spv, String options) {
    return form + "\0" + options + "\0" + Base64.getEncoder().encodeToString(spv);
  }

  /** The program already built in this process, or null. */
  synchronized MemorySegment cached(ProgramForm form, byte[] spv, String options) {
    return memory.get(memoryKey(form, spv, options));
  }

  /**
   * Loads the program from the disk cache or builds it from the module, and keeps it in memory.
   * Throws {@link ProgramCache.BuildFailure} when the driver refuses the module (its build log),
   * IllegalStateException when the bridge's translator fails.
   */
  ProgramCache.Built build(ProgramForm form, byte[] spv, String options) {
    if (!form.isSpirv()) throw new IllegalArgumentException(form + " is not a SPIR-V form");
    long t0 = System.nanoTime();
    DiskCache disk = DiskCache.of("opencl", ".spvasm", ".bin");
    String text = disk == null ? null : SpirvDisassembler.disassemble(spv);
    String key = disk == null ? null : key(form, text, options);
    byte[] cached = disk == null ? null : disk.read(key, text);
    MemorySegment program = cached == null ? null : loadBinary(cached, buildOptions(form, options), disk.binary(key));
    boolean fromModule = program == null;
    if (fromModule) {
      program = form == ProgramForm.SPIRV_IL ? fromIl(spv, options) : fromSpir(SpirvBridge.toBitcode(spv), buildOptions(form, options));
      if (disk != null) disk.write(key, text, binaryOf(program));
    }
    long nanos = System.nanoTime() - t0;
    synchronized (this) {
      MemorySegment other = memory.putIfAbsent(memoryKey(form, spv, options), program);
      if (other != null) {
        OpenCl.check(cl.releaseProgram(program), "clReleaseProgram");
        program = other;
      }
    }
    return new ProgramCache.Built(program, fromModule, nanos);
  }

  /** The options given to clBuildProgram: the bridge's SPIR options first. */
  static String buildOptions(ProgramForm form, String options) {
    return form == ProgramForm.SPIRV_BRIDGE ? (SpirvBridge.BUILD_OPTIONS + " " + options).trim() : options;
  }

  /** Forgets (and releases) the programs held in memory, as a fresh process would. */
  synchronized void clearMemory() {
    for (MemorySegment p : memory.values()) OpenCl.check(cl.releaseProgram(p), "clReleaseProgram");
    memory.clear();
  }

  private MemorySegment fromIl(byte[] spv, String options) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment program = cl.createProgramWithIL(context.handle(), a.allocateFrom(JAVA_BYTE, spv), spv.length, err);
      int rc = err.get(JAVA_INT, 0);
      if (rc != OpenCl.SUCCESS) throw new ProgramCache.BuildFailure(rc, "clCreateProgramWithIL refused the module");
      return built(program, options, a);
    }
  }

  private MemorySegment fromSpir(byte[] bitcode, String options) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment status = a.allocate(JAVA_INT), err = a.allocate(JAVA_INT);
      MemorySegment program = cl.createProgramWithBinary(context.handle(), 1, devices(a), lengths(a, bitcode), pointers(a, bitcode), status, err);
      int rc = err.get(JAVA_INT, 0);
      if (rc != OpenCl.SUCCESS) throw new ProgramCache.BuildFailure(rc, "clCreateProgramWithBinary refused the SPIR bitcode");
      return built(program, options, a);
    }
  }

  private MemorySegment built(MemorySegment program, String options, Arena a) {
    int rc = cl.buildProgram(program, 1, devices(a), a.allocateFrom(options));
    if (rc == OpenCl.SUCCESS) return program;
    String log = OpenClInfo.buildLog(cl, program, context.device().handle());
    cl.releaseProgram(program);
    throw new ProgramCache.BuildFailure(rc, log);
  }

  /** A cached device binary built into a program, or null when it no longer loads. */
  private MemorySegment loadBinary(byte[] binary, String options, Path where) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment status = a.allocate(JAVA_INT), err = a.allocate(JAVA_INT);
      MemorySegment program = cl.createProgramWithBinary(context.handle(), 1, devices(a), lengths(a, binary), pointers(a, binary), status, err);
      int rc = err.get(JAVA_INT, 0);
      if (rc == OpenCl.SUCCESS) {
        rc = cl.buildProgram(program, 1, devices(a), a.allocateFrom(options));
        if (rc == OpenCl.SUCCESS) return program;
        cl.releaseProgram(program);
      }
      LOG.log(System.Logger.Level.INFO, "cached OpenCL binary " + where + " does not load (" + OpenClException.name(rc)
          + "); rebuilding from the SPIR-V module");
      return null;
    }
  }

  private byte[] binaryOf(MemorySegment program) {
    try {
      return OpenClInfo.binary(cl, program);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot read the OpenCL program binary for the cache: " + e);
      return null;
    }
  }

  private static MemorySegment lengths(Arena a, byte[] data) {
    MemorySegment l = a.allocate(JAVA_LONG);
    l.set(JAVA_LONG, 0, data.length);
    return l;
  }

  private static MemorySegment pointers(Arena a, byte[] data) {
    MemorySegment p = a.allocate(ADDRESS);
    p.set(ADDRESS, 0, a.allocateFrom(JAVA_BYTE, data));
    return p;
  }

  private MemorySegment devices(Arena a) {
    MemorySegment d = a.allocate(ADDRESS);
    d.set(ADDRESS, 0, context.device().handle());
    return d;
  }

  /** The disk-cache key: the form and everything else that decides the binary. */
  String key(ProgramForm form, String moduleText, String options) {
    OpenClDevice d = context.device();
    return DiskCache.key(form.name(), moduleText, options, d.name(), d.deviceVersion(), d.driver(), d.platformVersion());
  }
}
