// A device's measured limits for Profile: from memory, then from the disk cache, else measured once by the probes and kept.
package dev.loopjit.runtime;

import dev.loopjit.api.Device;
import dev.loopjit.api.Profile;
import dev.loopjit.spi.Options;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link Profile.Limits} of each device: measured once by {@link Probes} (seconds), then
 * kept in memory (per cache directory) and on disk as {@code <cacheDir>/limits/<key>.properties}, the key a hash of what
 * identifies the device (backend, name, driver version, compute units, memory), so a program's
 * second run, or any other program on the machine, reads them back. {@code loopjit.probe=off}
 * never measures (cached limits are still read); {@code loopjit.cacheDir=off} keeps them in
 * memory only. A file is written whole (a temporary file moved into place) or not at all.
 */
public final class DeviceLimits {
  private static final Map<String, Profile.Limits> MEMORY = new ConcurrentHashMap<>();
  private static final ThreadLocal<Boolean> MEASURING = ThreadLocal.withInitial(() -> false);

  private DeviceLimits() {}

  /** The device's limits: cached, or measured now unless {@code probe=off}; null when not known. */
  public static Profile.Limits of(Device device, Options options) {
    String key = options.cacheDir() + "|" + key(device);
    Profile.Limits l = MEMORY.get(key);
    if (l != null) return withId(l, device);
    l = read(file(options, key(device)));
    if (l != null) {
      MEMORY.put(key, l);
      return withId(l, device);
    }
    if ("off".equals(options.get("probe")) || MEASURING.get()) return null;
    synchronized (DeviceLimits.class) {
      l = MEMORY.get(key);
      return l != null ? withId(l, device) : measure(device, options);
    }
  }

  /** Measures the device now and keeps the result (in memory, and on disk unless the cache is off). */
  public static synchronized Profile.Limits measure(Device device, Options options) {
    Profile.Limits l;
    MEASURING.set(true);
    try {
      l = Probes.measure(device);
    } finally {
      MEASURING.set(false);
    }
    MEMORY.put(options.cacheDir() + "|" + key(device), l);
    write(file(options, key(device)), device, l);
    return l;
  }

  /** Forgets the limits held in memory (tests: the next lookup reads the disk cache). */
  static void forgetInMemory() {
    MEMORY.clear();
  }

  /** Where the limits of the device with {@code key} are kept, or null when the cache is off. */
  static Path file(Options options, String key) {
    Path dir = options.cacheDir();
    return dir == null ? null : dir.resolve("limits").resolve(key + ".properties");
  }

  /** A stable name for the device: a hash of backend, name, driver version, compute units and memory. */
  static String key(Device d) {
    String id = d.backend() + "\n" + d.name() + "\n" + d.driverVersion() + "\n" + d.computeUnits() + "\n" + d.memoryBytes();
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
      return d.backend() + "-" + HexFormat.of().formatHex(h, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Profile.Limits withId(Profile.Limits l, Device d) {
    return l.device().equals(d.id()) ? l : new Profile.Limits(d.id(), l.copyGigabytesPerSecond(), l.gigaflopsPerSecond(), l.measured());
  }

  private static Profile.Limits read(Path file) {
    if (file == null || !Files.isRegularFile(file)) return null;
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
      double copy = Double.parseDouble(p.getProperty("copyGigabytesPerSecond"));
      double flops = Double.parseDouble(p.getProperty("gigaflopsPerSecond"));
      if (!(copy > 0) || !(flops > 0)) return null;
      return new Profile.Limits(p.getProperty("device", "?"), copy, flops, p.getProperty("measured", "?"));
    } catch (IOException | RuntimeException e) {
      return null;   // unreadable or half-understood: measure again
    }
  }

  private static void write(Path file, Device d, Profile.Limits l) {
    if (file == null) return;
    Path tmp = null;
    try {
      Files.createDirectories(file.getParent());
      tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
      Properties p = new Properties();
      p.setProperty("device", d.id());
      p.setProperty("name", d.name());
      p.setProperty("driverVersion", d.driverVersion());
      p.setProperty("copyGigabytesPerSecond", Double.toString(l.copyGigabytesPerSecond()));
      p.setProperty("gigaflopsPerSecond", Double.toString(l.gigaflopsPerSecond()));
      p.setProperty("measured", l.measured());
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        p.store(w, "LoopJIT device limits, measured by the built-in probes (delete to measure again)");
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      // The cache is an optimisation: the limits are still in memory; leave no partial file behind.
      try {
        if (tmp != null) Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // nothing more to do
      }
    }
  }
}
