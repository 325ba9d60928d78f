// PoCL's own kernel cache, kept under LoopJIT's cache directory so that a rebuild after damage starts clean.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.loopjit.spi.Options;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * PoCL keeps a cache of its own (compiled work-group functions, by a hash of the program) that
 * LoopJIT cannot verify: a damaged file there would survive LoopJIT's rebuild of a damaged binary.
 * So, before the OpenCL drivers load, LoopJIT points PoCL at {@code <cacheDir>/pocl}
 * ({@code POCL_CACHE_DIR}; with {@code loopjit.cacheDir=off}, {@code POCL_KERNEL_CACHE=0}: nothing on
 * disk), and when a binary of its own does not verify or load it empties that directory before
 * building again ({@link #forget}). A {@code POCL_CACHE_DIR} or {@code POCL_KERNEL_CACHE} already in
 * the environment is the user's choice and left alone; other drivers ignore both variables.
 */
final class DriverCacheDir {
  private static final System.Logger LOG = System.getLogger("dev.loopjit.opencl");
  /** The directory LoopJIT gave PoCL, or null when it chose none. */
  private static volatile Path chosen;
  private static boolean decided;

  private DriverCacheDir() {}

  /** Sets PoCL's cache directory from {@code options}' cache directory; once per process, before the drivers load. */
  static synchronized void beforeLoading(Options options) {
    if (decided) return;
    decided = true;
    try {
      if (getenv("POCL_CACHE_DIR") != null || getenv("POCL_KERNEL_CACHE") != null) return;
      Path root = options.cacheDir();
      if (root == null) {
        setenv("POCL_KERNEL_CACHE", "0");
        return;
      }
      Path dir = root.toAbsolutePath().resolve("pocl");
      Files.createDirectories(dir);
      setenv("POCL_CACHE_DIR", dir.toString());
      chosen = dir;
    } catch (Throwable e) {   // a libc without setenv, an unwritable directory: PoCL keeps its default
      LOG.log(System.Logger.Level.DEBUG, "PoCL's cache stays where PoCL puts it: " + e);
    }
  }

  /** Where PoCL caches when LoopJIT chose it, else null. */
  static Path chosen() {
    return chosen;
  }

  /**
   * Empties the directory LoopJIT gave PoCL: renamed aside first (a process reading it keeps its open
   * files; the next build makes a fresh one), then deleted. Nothing when LoopJIT chose none.
   */
  static void forget() {
    Path dir = chosen;
    if (dir == null || !Files.isDirectory(dir)) return;
    Path aside = dir.resolveSibling(dir.getFileName() + ".discarded-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    try {
      Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
      Files.createDirectories(dir);
      try (Stream<Path> all = Files.walk(aside)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
      }
      LOG.log(System.Logger.Level.INFO, "emptied PoCL's kernel cache " + dir + " before rebuilding a damaged binary");
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot empty PoCL's kernel cache " + dir + ": " + e);
    }
  }

  private static String getenv(String name) throws Throwable {
    Linker linker = Linker.nativeLinker();
    MethodHandle getenv = linker.downcallHandle(linker.defaultLookup().find("getenv").orElseThrow(), FunctionDescriptor.of(ADDRESS, ADDRESS));
    try (Arena a = Arena.ofConfined()) {
      MemorySegment v = (MemorySegment) getenv.invokeExact(a.allocateFrom(name));
      return v.equals(MemorySegment.NULL) ? null : v.reinterpret(Long.MAX_VALUE).getString(0);
    }
  }

  private static void setenv(String name, String value) throws Throwable {
    Linker linker = Linker.nativeLinker();
    MethodHandle setenv = linker.downcallHandle(linker.defaultLookup().find("setenv").orElseThrow(),
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    try (Arena a = Arena.ofConfined()) {
      int rc = (int) setenv.invokeExact(a.allocateFrom(name), a.allocateFrom(value), 0);   // 0: never overwrite
      if (rc != 0) throw new IllegalStateException("setenv(" + name + ") failed");
    }
  }
}
