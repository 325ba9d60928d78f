// The settings a backend and the compiler see: a snapshot the runtime takes at the edge and passes down.
package dev.loopjit.spi;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * LoopJIT's settings as one immutable value. The runtime reads them (system properties, then
 * environment variables) when a plan opens a device, and hands this snapshot to the backend and,
 * through it, to the compiler; nothing below the runtime reads the environment itself. Keys are
 * the part after {@code loopjit.} ({@code "fastMath"}, {@code "opencl.library"}).
 *
 * @param values every setting that is set, by key
 */
public record Options(Map<String, String> values) {
  /** No setting: every default. */
  public static final Options DEFAULTS = new Options(Map.of());

  public Options {
    values = Map.copyOf(values);
  }

  /** The value of {@code key}, or null. */
  public String get(String key) {
    return values.get(key);
  }

  /** The value of {@code key}, or {@code otherwise}. */
  public String get(String key, String otherwise) {
    return values.getOrDefault(key, otherwise);
  }

  /** Whether {@code key} is {@code true}. */
  public boolean flag(String key) {
    return Boolean.parseBoolean(values.get(key));
  }

  /**
   * {@code loopjit.lanes}: on CPU OpenCL devices, the iterations of the innermost {@code @Parallel}
   * dimension one work-item computes side by side where the kernel allows it (the {@code coarsen}
   * pass); a power of two, default {@link #DEFAULT_LANES}; 1 turns it off.
   */
  public int lanes() {
    String v = values.get("lanes");
    if (v == null || v.isBlank()) return DEFAULT_LANES;
    int n;
    try {
      n = Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("loopjit.lanes must be a power of two from 1 to 64, not \"" + v + "\"");
    }
    if (n < 1 || n > 64 || Integer.bitCount(n) != 1) throw new IllegalArgumentException("loopjit.lanes must be a power of two from 1 to 64, not " + n);
    return n;
  }

  /** Lanes per work-item on CPU devices unless {@code loopjit.lanes} says otherwise (docs/performance-log.md, "coarsening"). */
  public static final int DEFAULT_LANES = 16;

  /** {@code loopjit.fastMath}: relax strict Java float semantics. */
  public boolean fastMath() {
    return flag("fastMath");
  }

  /** {@code loopjit.boundsChecks}: generated code checks array indices as Java does (default); {@code false} turns the checks off. */
  public boolean boundsChecks() {
    return !"false".equalsIgnoreCase(values.getOrDefault("boundsChecks", "true").trim());
  }

  /**
   * {@code loopjit.signedIndices}: a kernel whose accesses the host proves at launch computes their
   * indices as plain signed int (default); {@code false} keeps Java's wrap-around arithmetic there.
   */
  public boolean signedIndices() {
    return !"false".equalsIgnoreCase(values.getOrDefault("signedIndices", "true").trim());
  }

  /**
   * {@code loopjit.vectorLanes}: jvm-mt runs float lane iterations with the Vector API where the JVM
   * has it (default); {@code false} keeps them scalar.
   */
  public boolean vectorLanes() {
    return !"false".equalsIgnoreCase(values.getOrDefault("vectorLanes", "true").trim());
  }

  /** The stages {@code loopjit.dump} names ({@code ir}, a pass, {@code opencl}, {@code ptx}, {@code spirv}, {@code all}). */
  public Set<String> dump() {
    String v = values.get("dump");
    return v == null ? Set.of() : Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet());
  }

  /** Whether {@code stage} is to be printed. */
  public boolean dump(String stage) {
    Set<String> d = dump();
    return d.contains(stage) || d.contains("all");
  }

  /** The kernel cache directory ({@code loopjit.cacheDir}, default {@code ~/.cache/loopjit}), or null when it is {@code off}. */
  public Path cacheDir() {
    String v = values.get("cacheDir");
    if ("off".equals(v)) return null;
    return v != null ? Path.of(v) : Path.of(System.getProperty("user.home"), ".cache", "loopjit");
  }

  /** A copy with {@code key} set to {@code value} (null removes it). */
  public Options with(String key, String value) {
    java.util.HashMap<String, String> m = new java.util.HashMap<>(values);
    if (value == null) m.remove(key);
    else m.put(key, value);
    return new Options(m);
  }
}
