// Whether this JVM chains signal handlers (libjsig.so preloaded), and the warning or refusal before a driver that needs it loads.
package dev.loopjit.spi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Signal chaining: OpenCL drivers such as PoCL (through LLVM) install their own SIGSEGV, SIGBUS
 * and SIGILL handlers over the JVM's, and the JVM, which uses those signals itself (implicit null
 * checks, safepoints), may then crash at any later point. The JDK's {@code lib/libjsig.so},
 * preloaded with {@code LD_PRELOAD}, chains the handlers so both work.
 *
 * <p>How this is detected: {@code dlsym(RTLD_DEFAULT, "sigaction")} is the {@code sigaction} a
 * driver loaded later would call; {@code dladdr} names the library that defines it. When that is a
 * {@code libjsig.so}, the handlers are chained. This is what a driver's own call will reach, so it
 * is truthful where the alternatives are not: {@code LD_PRELOAD} may name a file that the dynamic
 * loader could not load (it says so once and carries on), and a {@code libjsig.so} listed in
 * {@code /proc/self/maps} may have been loaded too late to take part. {@code /proc/self/maps} is
 * the fallback where the C library has no {@code dlsym}/{@code dladdr} to call.
 *
 * <p>{@link #beforeLoading} is called by a backend just before it makes the driver load: without
 * chaining it prints one warning on standard error with the exact fix, or, with
 * {@code loopjit.requireSignalChaining=true}, returns the refusal for the backend to report.
 */
public final class SignalChaining {
  /** The setting that turns the warning into a refusal. */
  public static final String REQUIRE = "requireSignalChaining";

  private static final AtomicBoolean WARNED = new AtomicBoolean();
  private static volatile State state;

  private SignalChaining() {}

  /**
   * What is known about this process.
   *
   * @param chained whether signal handlers are chained ({@code libjsig.so} is what {@code sigaction} resolves to)
   * @param known   whether that could be found out (false off Linux, or where neither {@code dlsym} nor {@code /proc} is there)
   * @param library the library {@code sigaction} comes from, when known
   */
  public record State(boolean chained, boolean known, String library) {}

  /** This process's state, found once. */
  public static State state() {
    State s = state;
    if (s == null) state = s = detect();
    return s;
  }

  /** The {@code libjsig.so} of the running JDK. */
  public static Path libjsig() {
    return Path.of(System.getProperty("java.home"), "lib", "libjsig.so");
  }

  /**
   * Called before a backend loads {@code driver} (which may install signal handlers). Returns null
   * when it may go on: chaining is on, or unknown, or off and not required (then a warning is
   * printed on standard error, once per process). Returns the refusal, for the backend's
   * {@code problem()}, when chaining is off and {@code loopjit.requireSignalChaining=true}.
   */
  public static String beforeLoading(String driver, Options options) {
    State s = state();
    if (s.chained() || !s.known()) return null;
    boolean refuse = options.flag(REQUIRE);
    String message = message(driver, refuse);
    if (refuse) {
      if (WARNED.compareAndSet(false, true)) System.err.println("LoopJIT: " + message);
      return message.replace("\n  ", " ");
    }
    if (WARNED.compareAndSet(false, true)) System.err.println("LoopJIT: warning: " + message);
    return null;
  }

  /** The message for a JVM without chaining about to load (or refusing to load) {@code driver}, in lines for standard error. */
  static String message(String driver, boolean refused) {
    String jsig = libjsig().toString();
    return (refused ? "refusing to load " + driver + " (loopjit.requireSignalChaining=true)" : "loading " + driver)
        + " in a JVM without signal chaining (" + jsig + " is not preloaded)."
        + "\n  OpenCL drivers such as PoCL install signal handlers over the JVM's, which can crash the JVM later (SIGSEGV, hs_err_pid files)."
        + "\n  Fix: start java with LD_PRELOAD=" + jsig + " and --enable-native-access=ALL-UNNAMED,"
        + "\n  or run the program with `scripts/loopjit run --class-path CP MAIN` (the bundle: `bin/loopjit run`);"
        + "\n  for Maven (Surefire, exec:java) and Gradle see docs/guide/use-it-in-your-project.md."
        + (refused ? "" : "\n  -Dloopjit.requireSignalChaining=true refuses to load the driver instead of warning.");
  }

  private static State detect() {
    if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) return new State(false, false, null);
    Optional<String> lib = sigactionLibrary();
    if (lib.isPresent()) return new State(lib.get().contains("libjsig"), true, lib.get());
    try {
      boolean mapped = Files.readAllLines(Path.of("/proc/self/maps")).stream().anyMatch(l -> l.endsWith("/libjsig.so"));
      return new State(mapped, true, mapped ? "libjsig.so (in /proc/self/maps)" : null);
    } catch (java.io.IOException | RuntimeException e) {
      return new State(false, false, null);
    }
  }

  /** The file of the library that defines the {@code sigaction} global lookup finds, or empty when that cannot be asked. */
  @SuppressWarnings("restricted")   // dlsym and dladdr from the C library: reading, not changing, the process
  private static Optional<String> sigactionLibrary() {
    try {
      Linker linker = Linker.nativeLinker();
      var libc = linker.defaultLookup();
      var dlsymAt = libc.find("dlsym");
      var dladdrAt = libc.find("dladdr");
      if (dlsymAt.isEmpty() || dladdrAt.isEmpty()) return Optional.empty();
      MethodHandle dlsym = linker.downcallHandle(dlsymAt.get(), FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
      MethodHandle dladdr = linker.downcallHandle(dladdrAt.get(), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
      try (Arena arena = Arena.ofConfined()) {
        // RTLD_DEFAULT is ((void *) 0) in glibc and musl: the global search order, LD_PRELOAD first.
        MemorySegment sym = (MemorySegment) dlsym.invokeExact(MemorySegment.NULL, arena.allocateFrom("sigaction"));
        if (sym.address() == 0) return Optional.empty();
        MemorySegment info = arena.allocate(4 * ADDRESS.byteSize(), ADDRESS.byteAlignment()); // Dl_info: fname, fbase, sname, saddr
        int found = (int) dladdr.invokeExact(sym, info);
        MemorySegment name = info.get(ADDRESS, 0);
        if (found == 0 || name.address() == 0) return Optional.empty();
        return Optional.of(name.reinterpret(4096).getString(0));
      }
    } catch (Throwable t) {
      return Optional.empty();
    }
  }
}
