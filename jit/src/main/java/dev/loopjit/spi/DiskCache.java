// The on-disk kernel cache every backend shares: the generated code and the driver's binary, by key, checksummed.
package dev.loopjit.spi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Files under {@code Options.cacheDir()/<backend>}: {@code KEY<source>} (the generated code, for
 * reading and to rule out a hash collision) and {@code KEY<binary>} (what the driver built), where
 * KEY is the SHA-256 of everything that decides the binary. A binary file starts with a header
 * naming its key, its length and the SHA-256 of its bytes; a file whose header does not verify
 * (truncated, damaged, or another key's file copied over it) is deleted and reported as a miss, so
 * the driver is never handed a binary this cache did not write for that key. Files are written to
 * a temporary name and moved into place, so a concurrent process never reads half a file; a cache
 * that cannot be read or written only costs a build.
 */
public final class DiskCache {
  private static final System.Logger LOG = System.getLogger("dev.loopjit.spi");
  private static final String MAGIC = "LOOPJIT-CACHE 2";

  private final Path dir;
  private final String sourceSuffix, binarySuffix;

  private DiskCache(Path dir, String sourceSuffix, String binarySuffix) {
    this.dir = dir;
    this.sourceSuffix = sourceSuffix;
    this.binarySuffix = binarySuffix;
  }

  /** The cache of {@code backend} ({@code "opencl"}, {@code "cuda"}) under {@code options}' cache directory, or null when the cache is off. */
  public static DiskCache of(Options options, String backend, String sourceSuffix, String binarySuffix) {
    Path root = options.cacheDir();
    return root == null ? null : new DiskCache(root.resolve(backend), sourceSuffix, binarySuffix);
  }

  /** SHA-256 of the parts, each NUL-terminated, in hex. */
  public static String key(String... parts) {
    MessageDigest sha = sha256();
    for (String part : parts) {
      sha.update(part.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  /** The binary stored for {@code key} when its source is {@code source} and it verifies, or null (a file that does not verify is deleted). */
  public byte[] read(String key, String source) {
    return read(key, source, () -> {});
  }

  /** As {@link #read(String, String)}, running {@code onDamage} when a stored binary did not verify (and was deleted). */
  public byte[] read(String key, String source, Runnable onDamage) {
    Path bin = binary(key), text = source(key);
    try {
      if (!Files.isRegularFile(bin) || !Files.isRegularFile(text)) return null;
      if (!Files.readString(text, StandardCharsets.UTF_8).equals(source)) return null;
      byte[] payload = verified(key, Files.readAllBytes(bin));
      if (payload == null) {
        LOG.log(System.Logger.Level.WARNING, "cached binary " + bin + " is damaged or not the one for its key; deleted, rebuilding");
        delete(key);
        onDamage.run();
      }
      return payload;
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "cannot read cached kernel " + bin + ": " + e);
      return null;
    }
  }

  /** The payload of a stored file if its header names {@code key} and its length and checksum match, else null. */
  private static byte[] verified(String key, byte[] file) {
    String header = header(key, 0, "0".repeat(64));
    int end = indexOf(file, "\n\n".getBytes(StandardCharsets.US_ASCII));
    if (end < 0 || end > header.length() + 64) return null;
    String[] lines = new String(file, 0, end, StandardCharsets.US_ASCII).split("\n");
    if (lines.length != 4 || !lines[0].equals(MAGIC) || !lines[1].equals("key=" + key) || !lines[2].startsWith("bytes=")) return null;
    long length;
    try {
      length = Long.parseLong(lines[2].substring("bytes=".length()));
    } catch (RuntimeException e) {
      return null;
    }
    byte[] payload = Arrays.copyOfRange(file, end + 2, file.length);
    if (length != payload.length || payload.length == 0) return null;
    return lines[3].equals("sha256=" + HexFormat.of().formatHex(sha256().digest(payload))) ? payload : null;
  }

  private static String header(String key, long length, String sha) {
    return MAGIC + "\nkey=" + key + "\nbytes=" + length + "\nsha256=" + sha + "\n\n";
  }

  private static int indexOf(byte[] a, byte[] what) {
    outer:
    for (int i = 0; i + what.length <= a.length; i++) {
      for (int j = 0; j < what.length; j++) if (a[i + j] != what[j]) continue outer;
      return i;
    }
    return -1;
  }

  /** Stores the source and its binary for {@code key}. */
  public void write(String key, String source, byte[] binary) {
    if (binary == null || binary.length == 0) return;
    try {
      Files.createDirectories(dir);
      byte[] head = header(key, binary.length, HexFormat.of().formatHex(sha256().digest(binary))).getBytes(StandardCharsets.US_ASCII);
      byte[] file = Arrays.copyOf(head, head.length + binary.length);
      System.arraycopy(binary, 0, file, head.length, binary.length);
      write(key + sourceSuffix, source.getBytes(StandardCharsets.UTF_8));
      write(key + binarySuffix, file);
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot write the kernel cache in " + dir + ": " + e);
    }
  }

  /** Deletes what is stored for {@code key}. */
  public void delete(String key) {
    try {
      Files.deleteIfExists(binary(key));
      Files.deleteIfExists(source(key));
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "cannot delete cached kernel " + binary(key) + ": " + e);
    }
  }

  /** Where the binary of {@code key} lives (for messages and tests). */
  public Path binary(String key) {
    return dir.resolve(key + binarySuffix);
  }

  /** Where the source of {@code key} lives. */
  public Path source(String key) {
    return dir.resolve(key + sourceSuffix);
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
