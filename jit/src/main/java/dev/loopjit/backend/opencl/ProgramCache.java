// Built OpenCL programs of one device: in memory by (source, options) for the process, on disk as device binaries across processes.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.runtime.DiskCache;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Programs by source and build options. The disk cache lives under {@code Settings.cacheDir()/opencl}:
 * {@code KEY.cl} (the source, for reading) and {@code KEY.bin} (the device binary), where KEY is the
 * SHA-256 of the source, the options and the device's name, version, driver and platform version,
 * so a driver update never loads a stale binary. A binary that fails to load is rebuilt from source
 * and overwritten. Files are written to a temporary name and moved into place, so a concurrent
 * process never reads half a file.
 */
final class ProgramCache {
  private static final System.Logger LOG = System.getLogger("dev.loopjit.backend.opencl");

  /** A program ready for clCreateKernel; {@code fromSource} when neither cache had it. */
  record Built(MemorySegment program, boolean fromSource, long driverNanos) {}

  /** The driver refused the source; {@code log} is its build log. */
  static final class BuildFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int code;
    final String log;

    BuildFailure(int code, String log) {
      super(OpenClException.name(code) + "\n" + log);
      this.code = code;
      this.log = log;
    }
  }

  private final OpenCl cl;
  private final OpenClContext context;
  private final Map<String, MemorySegment> memory = new HashMap<>();

  ProgramCache(OpenCl cl, OpenClContext context) {
    this.cl = cl;
    this.context = context;
  }

  /** The program already built in this process for {@code source} and {@code options}, or null. */
  synchronized MemorySegment cached(String source, String options) {
    return memory.get(options + '\0' + source);
  }

  /** Loads the program from the disk cache or builds it from source, and keeps it in memory. Throws BuildFailure. */
  Built build(String source, String options) {
    long t0 = System.nanoTime();
    DiskCache disk = DiskCache.of("opencl", ".cl", ".bin");
    String key = disk == null ? null : key(source, options);
    byte[] cached = disk == null ? null : disk.read(key, source);
    MemorySegment program = cached == null ? null : loadBinary(cached, options, disk.binary(key));
    boolean fromSource = program == null;
    if (fromSource) {
      program = buildSource(source, options);
      if (disk != null) disk.write(key, source, binaryOf(program));
    }
    long nanos = System.nanoTime() - t0;
    synchronized (this) {
      MemorySegment other = memory.putIfAbsent(options + '\0' + source, program);
      if (other != null) {   // another thread built it meanwhile: keep one
        OpenCl.check(cl.releaseProgram(program), "clReleaseProgram");
        program = other;
      }
    }
    return new Built(program, fromSource, nanos);
  }

  /** Forgets (and releases) the programs held in memory, as a fresh process would; kernels made from them stay valid. */
  synchronized void clearMemory() {
    for (MemorySegment p : memory.values()) OpenCl.check(cl.releaseProgram(p), "clReleaseProgram");
    memory.clear();
  }

  private MemorySegment buildSource(String source, String options) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment strings = a.allocate(ADDRESS);
      strings.set(ADDRESS, 0, a.allocateFrom(source));
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment program = cl.createProgramWithSource(context.handle(), 1, strings, MemorySegment.NULL, err);
      OpenCl.check(err.get(JAVA_INT, 0), "clCreateProgramWithSource");
      int rc = cl.buildProgram(program, 1, devices(a), a.allocateFrom(options));
      if (rc != OpenCl.SUCCESS) {
        String log = OpenClInfo.buildLog(cl, program, context.device().handle());
        cl.releaseProgram(program);
        throw new BuildFailure(rc, log);
      }
      return program;
    }
  }

  /** A cached binary built into a program, or null when it no longer loads (a driver change the key missed). */
  private MemorySegment loadBinary(byte[] binary, String options, Path where) {
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
      LOG.log(System.Logger.Level.INFO, "cached OpenCL binary " + where + " does not load (" + OpenClException.name(rc)
          + "); rebuilding from source");
      return null;
    }
  }

  /** The program's device binary, or null when the driver will not give it. */
  private byte[] binaryOf(MemorySegment program) {
    try {
      return OpenClInfo.binary(cl, program);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot read the OpenCL program binary for the cache: " + e);
      return null;
    }
  }

  private MemorySegment devices(Arena a) {
    MemorySegment d = a.allocate(ADDRESS);
    d.set(ADDRESS, 0, context.device().handle());
    return d;
  }

  /** The disk-cache key: what decides the binary. */
  String key(String source, String options) {
    OpenClDevice d = context.device();
    return DiskCache.key(source, options, d.name(), d.deviceVersion(), d.driver(), d.platformVersion());
  }
}
