// Built programs of one device, shared by its plans: in memory for the process, on disk as driver binaries across processes.
package dev.loopjit.spi;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The programs (OpenCL programs, CUDA modules, …; {@code P} is the driver's handle) a device has
 * built, by code and build options. In memory they live as long as the device's context; on disk,
 * under {@code Options.cacheDir()/<backend>}, as the driver's binary beside the code it came from
 * ({@link DiskCache}: checksummed and bound to its key, so a damaged or swapped file is deleted
 * and rebuilt, never handed to the driver). The key is the SHA-256 of the code, the options and
 * the device's identity (name, versions), so a driver update never loads a stale binary; a binary
 * the driver no longer loads is rebuilt and overwritten.
 */
public final class ProgramCache<P> {
  private static final System.Logger LOG = System.getLogger("dev.loopjit.spi");

  /** What the driver does for the cache. */
  public interface Driver<P> {
    /**
     * Builds {@code code} with {@code options}; when {@code wantBinary}, also returns the binary to
     * store (null if the driver will not give one). Throws {@link BuildFailure} when the driver refuses.
     */
    Compiled<P> compile(DeviceCode code, String options, boolean wantBinary);

    /** A program from a binary this cache stored; throws {@link BuildFailure} when it does not load. */
    P load(byte[] binary, String options);

    /** Releases a program. */
    void release(P program);

    /**
     * A stored binary was damaged or refused and is about to be rebuilt: forget whatever the driver
     * cached on its own that could come from it (PoCL's kernel cache), so the rebuild starts clean.
     */
    default void forgetDriverCache() {}
  }

  /** A program just built, and its binary for the disk (or null). */
  public record Compiled<P>(P program, byte[] binary) {}

  /** A program ready to make kernels from; {@code fromSource} when neither cache had it. */
  public record Built<P>(P program, boolean fromSource, long driverNanos) {}

  private final Driver<P> driver;
  private final String backend, binarySuffix;
  private final java.util.function.Function<String, String> sourceSuffix;
  private final List<String> deviceIdentity;
  private final Map<String, P> memory = new HashMap<>();

  /**
   * @param backend        the directory under the cache root, e.g. {@code "opencl"}
   * @param sourceSuffix   the file suffix of the code of a language, e.g. {@code ".cl"} for {@code "opencl"}
   * @param binarySuffix   the file suffix of the binary, e.g. {@code ".bin"}
   * @param deviceIdentity what of the device and driver decides the binary
   */
  public ProgramCache(Driver<P> driver, String backend, java.util.function.Function<String, String> sourceSuffix, String binarySuffix,
      List<String> deviceIdentity) {
    this.driver = driver;
    this.backend = backend;
    this.sourceSuffix = sourceSuffix;
    this.binarySuffix = binarySuffix;
    this.deviceIdentity = List.copyOf(deviceIdentity);
  }

  /** The program already built in this process for {@code code} and {@code options}, or null. */
  public synchronized P cached(DeviceCode code, String options) {
    return memory.get(memoryKey(code, options));
  }

  /** Loads the program from the disk cache or builds it, and keeps it in memory. Throws {@link BuildFailure}. */
  public Built<P> build(DeviceCode code, String options, Options settings) {
    long t0 = System.nanoTime();
    DiskCache disk = DiskCache.of(settings, backend, sourceSuffix.apply(code.language()), binarySuffix);
    String key = disk == null ? null : key(code, options);
    byte[] stored = disk == null ? null : disk.read(key, code.text(), driver::forgetDriverCache);
    P program = stored == null ? null : load(stored, options, disk, key);
    boolean fromSource = program == null;
    if (fromSource) {
      Compiled<P> c = driver.compile(code, options, disk != null);
      program = c.program();
      if (disk != null) disk.write(key, code.text(), c.binary());
    }
    long nanos = System.nanoTime() - t0;
    synchronized (this) {
      P other = memory.putIfAbsent(memoryKey(code, options), program);
      if (other != null) {   // another thread built it meanwhile: keep one
        driver.release(program);
        program = other;
      }
    }
    return new Built<>(program, fromSource, nanos);
  }

  /** Forgets (and releases) the programs held in memory, as a fresh process would start. */
  public synchronized void clearMemory() {
    for (P p : memory.values()) driver.release(p);
    memory.clear();
  }

  /** The disk-cache key: what decides the binary. */
  public String key(DeviceCode code, String options) {
    String[] parts = new String[deviceIdentity.size() + 3];
    parts[0] = code.language();
    parts[1] = code.binary() == null ? code.text() : HexFormat.of().formatHex(code.binary());
    parts[2] = options;
    for (int i = 0; i < deviceIdentity.size(); i++) parts[3 + i] = deviceIdentity.get(i);
    return DiskCache.key(parts);
  }

  private P load(byte[] binary, String options, DiskCache disk, String key) {
    try {
      return driver.load(binary, options);
    } catch (BuildFailure f) {
      LOG.log(System.Logger.Level.INFO, "cached binary " + disk.binary(key) + " does not load (" + f.code() + "); rebuilding");
      disk.delete(key);
      driver.forgetDriverCache();
      return null;
    }
  }

  private static String memoryKey(DeviceCode code, String options) {
    return code.language() + '\0' + options + '\0' + code.text() + (code.binary() == null ? "" : '\0' + DiskCache.key(HexFormat.of().formatHex(code.binary())));
  }
}
