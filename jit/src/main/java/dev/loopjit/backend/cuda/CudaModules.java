// How CUDA loads modules for the shared program cache: PTX through the driver's JIT or linker, and cached cubins.
package dev.loopjit.backend.cuda;

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
 * The CUDA side of {@link ProgramCache}. With the disk cache on ({@code Options.cacheDir()/cuda}), PTX is compiled
 * to a cubin with the driver's linker ({@code cuLinkCreate}/{@code cuLinkAddData}/{@code cuLinkComplete})
 * and stored as {@code KEY.cubin} beside {@code KEY.ptx} (for reading), where KEY is the SHA-256 of
 * the PTX, the device's name and compute capability and the driver's CUDA version, so a driver
 * update never loads a stale cubin; a cubin that fails to load is relinked and overwritten. With
 * the disk cache off, {@code cuModuleLoadDataEx} compiles the PTX directly. Either way the JIT's
 * error and information logs are captured, so a PTX error reads like a compiler's. Files are
 * written to a temporary name and moved into place, so a concurrent process never reads half a file.
 */
record CudaModules(Cuda cuda, CudaContext context) implements ProgramCache.Driver<MemorySegment> {
  private static final int LOG_BYTES = 64 * 1024;
  /** Changes when what the files hold changes, so that old files are not read. */
  static final String FORMAT = "loopjit-cubin-1";

  @Override
  public ProgramCache.Compiled<MemorySegment> compile(DeviceCode code, String options, boolean wantBinary) {
    context.makeCurrent();
    if (!wantBinary) return new ProgramCache.Compiled<>(loadPtx(code.text()), null);
    byte[] cubin = link(code.text());
    return new ProgramCache.Compiled<>(loadCubin(cubin), cubin);
  }

  @Override
  public MemorySegment load(byte[] binary, String options) {
    context.makeCurrent();
    return loadCubin(binary);
  }

  @Override
  public void release(MemorySegment module) {
    context.makeCurrent();
    cuda.check(cuda.moduleUnload(module), "cuModuleUnload");
  }

  /** cuModuleLoadDataEx on NUL-terminated PTX: the driver compiles it for the context's device. */
  private MemorySegment loadPtx(String ptx) {
    try (Arena a = Arena.ofConfined()) {
      return load(a.allocateFrom(ptx), a);
    }
  }

  /** A cubin, with a NUL after it: the driver reads an image without a cubin's magic as PTX text, up to a NUL. */
  private MemorySegment loadCubin(byte[] cubin) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment image = a.allocate(cubin.length + 1L);
      MemorySegment.copy(cubin, 0, image, JAVA_BYTE, 0, cubin.length);
      return load(image, a);
    }
  }

  private MemorySegment load(MemorySegment image, Arena a) {
    JitLogs logs = new JitLogs(a);
    MemorySegment module = a.allocate(ADDRESS);
    int rc = cuda.moduleLoadDataEx(module, image, JitLogs.COUNT, logs.options, logs.values);
    if (rc != Cuda.SUCCESS) throw failure(rc, logs);
    return module.get(ADDRESS, 0);
  }

  /** PTX to a cubin for the current context's device, with the driver's linker. */
  @SuppressWarnings("restricted")   // the cubin is memory the link state owns, of the size the driver returns
  private byte[] link(String ptx) {
    try (Arena a = Arena.ofConfined()) {
      JitLogs logs = new JitLogs(a);   // must outlive the link state: the driver writes the logs into it
      MemorySegment state = a.allocate(ADDRESS);
      cuda.check(cuda.linkCreate(JitLogs.COUNT, logs.options, logs.values, state), "cuLinkCreate on " + context.device());
      MemorySegment link = state.get(ADDRESS, 0);
      try {
        MemorySegment text = a.allocateFrom(ptx);
        int rc = cuda.linkAddData(link, Cuda.JIT_INPUT_PTX, text, text.byteSize(), a.allocateFrom("kernel.ptx"));
        if (rc != Cuda.SUCCESS) throw failure(rc, logs);
        MemorySegment cubin = a.allocate(ADDRESS), size = a.allocate(JAVA_LONG);
        rc = cuda.linkComplete(link, cubin, size);
        if (rc != Cuda.SUCCESS) throw failure(rc, logs);
        return cubin.get(ADDRESS, 0).reinterpret(size.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
      } finally {
        cuda.linkDestroy(link);
      }
    }
  }

  private BuildFailure failure(int rc, JitLogs logs) {
    return new BuildFailure(CudaException.name(rc) + " (" + rc + ") on " + context.device().targetVariant() + ", "
        + context.device().driverVersion(), logs.text());
  }

  /**
   * The JIT options that capture the logs: each value is a {@code void*} slot holding a buffer's
   * address or, for a size, the number itself. The buffers are one byte longer than the driver is
   * told and zeroed, so the text is always terminated.
   */
  private static final class JitLogs {
    static final int COUNT = 4;
    final MemorySegment options, values, info, error;

    JitLogs(Arena a) {
      info = a.allocate(LOG_BYTES + 1);
      error = a.allocate(LOG_BYTES + 1);
      options = a.allocateFrom(JAVA_INT, Cuda.JIT_INFO_LOG_BUFFER, Cuda.JIT_INFO_LOG_BUFFER_SIZE_BYTES,
          Cuda.JIT_ERROR_LOG_BUFFER, Cuda.JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
      values = a.allocate(ADDRESS, COUNT);
      values.setAtIndex(ADDRESS, 0, info);
      values.setAtIndex(JAVA_LONG, 1, LOG_BYTES);
      values.setAtIndex(ADDRESS, 2, error);
      values.setAtIndex(JAVA_LONG, 3, LOG_BYTES);
    }

    /** The error log, then the information log, trimmed. */
    String text() {
      String e = error.getString(0).strip(), i = info.getString(0).strip();
      return e.isEmpty() ? i : i.isEmpty() ? e : e + "\n" + i;
    }
  }
}
