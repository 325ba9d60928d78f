// The on-disk kernel cache every backend shares: the generated source and the device binary, by key.
package dev.loopjit.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Files under {@code Settings.cacheDir()/<backend>}: {@code KEY.<source>} (the generated code, for
 * reading and to rule out a hash collision) and {@code KEY.<binary>} (what the driver built), where
 * KEY is the SHA-256 of everything that decides the binary. Files are written to a temporary name
 * and moved into place, so a concurrent process never reads half a file; a cache that cannot be
 * read or written only costs a build.
 */
public final class DiskCache {
  private static final System.Logger LOG = System.getLogger("dev.loopjit.runtime");

  private final Path dir;
  private final String sourceSuffix, binarySuffix;

  private DiskCache(Path dir, String sourceSuffix, String binarySuffix) {
    this.dir = dir;
    this.sourceSuffix = sourceSuffix;
    this.binarySuffix = binarySuffix;
  }

  /** The cache of {@code backend} ({@code "opencl"}, {@code "cuda"}), or null when the cache is off. */
  public static DiskCache of(String backend, String sourceSuffix, String binarySuffix) {
    Path root = Settings.cacheDir();
    return root == null ? null : new DiskCache(root.resolve(backend), sourceSuffix, binarySuffix);
  }

  /** SHA-256 of the parts, each NUL-terminated, in hex. */
  public static String key(String... parts) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        sha.update(part.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  /** The binary stored for {@code key} when its source is {@code source}, or null. */
  public byte[] read(String key, String source) {
    Path bin = binary(key), text = dir.resolve(key + sourceSuffix);
    try {
      if (!Files.isRegularFile(bin) || !Files.isRegularFile(text)) return null;
      if (!Files.readString(text, StandardCharsets.UTF_8).equals(source)) return null;
      byte[] b = Files.readAllBytes(bin);
      return b.length == 0 ? null : b;
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "cannot read cached kernel " + bin + ": " + e);
      return null;
    }
  }

  /** Stores the source and its binary for {@code key}. */
  public void write(String key, String source, byte[] binary) {
    if (binary == null || binary.length == 0) return;
    try {
      Files.createDirectories(dir);
      write(key + sourceSuffix, source.getBytes(StandardCharsets.UTF_8));
      write(key + binarySuffix, binary);
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot write the kernel cache in " + dir + ": " + e);
    }
  }

  /** Where the binary of {@code key} lives (for messages and tests). */
  public Path binary(String key) {
    return dir.resolve(key + binarySuffix);
  }

  private void write(String name, byte[] bytes) throws IOException {
    Path tmp = Files.createTempFile(dir, name, ".tmp");
    try {
      Files.write(tmp, bytes);
      Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
