// The seeded differential fuzz run of the test suite: generated kernels on the jvm and on this execution's devices agree.
package dev.loopjit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.testing.KernelCheck;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The same seeds every time, so a failure here is a regression with a reproducer in
 * {@code target/fuzz-test/}, and a few kernels from a seed of the day. Runs in every Surefire
 * execution: against PoCL in the default one (few kernels: each costs PoCL a build of half a
 * second or more), against the simulated CUDA
 * device in {@code simulated-cuda} (more: a kernel costs it about a tenth of that), and against
 * PoCL with every kernel built from SPIR-V in {@code opencl-spirv}. Long runs are
 * {@code scripts/fuzz}. {@code -Dfuzz.count} and {@code -Dfuzz.seed} change the run.
 */
class FuzzTest {
  @Test
  void seededKernelsGiveTheJvmsResultsOnEveryDevice() {
    KernelCheck.checkRequiredDevices();
    boolean opencl = Devices.all().stream().anyMatch(d -> d.backend().equals("opencl"));
    run(Long.getLong("fuzz.seed", 0L), Integer.getInteger("fuzz.count", opencl ? 32 : 200));
  }

  /**
   * A short run from a seed that changes every day (UTC), so CI explores new kernels as time goes
   * on; a failure names the seed, and {@code scripts/fuzz SEED COUNT} shows it again.
   */
  @Test
  void kernelsOfTodaysSeedGiveTheJvmsResultsOnEveryDevice() {
    KernelCheck.checkRequiredDevices();
    boolean opencl = Devices.all().stream().anyMatch(d -> d.backend().equals("opencl"));
    run(dailySeed(LocalDate.now(ZoneOffset.UTC)), opencl ? 16 : 60);
  }

  /** The day's first seed: far from the fixed run's, a new stretch of 100,000 each day. */
  static long dailySeed(LocalDate day) {
    return 1_000_000_000L + day.toEpochDay() * 100_000L;
  }

  private static void run(long seed, int count) {
    List<Device> devices = Devices.all();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    Fuzzer f = new Fuzzer(Where.of(devices, false), Path.of("target", "fuzz-test"), Duration.ofSeconds(60),
        new PrintStream(log, true, StandardCharsets.UTF_8), 150, 1);
    Fuzzer.Stats s = f.run(seed, count, Instant.MAX);
    String report = "seeds " + seed + " to " + (seed + count - 1) + " (scripts/fuzz " + seed + " " + count + "): " + s.summary() + "\n"
        + log.toString(StandardCharsets.UTF_8) + String.join("\n", s.invalidExamples);
    assertEquals(0, s.invalid + s.rejectedByJavac, "the generator made kernels that are no test:\n" + report);
    assertEquals(count, s.kernels, report);
    assertTrue(s.problems.isEmpty(), "devices disagree with the jvm:\n" + report);
    // only ACROSS kernels pass values between iterations; a refusal of any other is a false one
    assertEquals(s.refusedEverywhere, s.refusedByShape.getOrDefault("ACROSS", 0L), "kernels refused that keep Java's meaning:\n" + report);
    for (Device d : devices) assertEquals(count, s.runsByDevice.getOrDefault(d.id(), 0L), d.id() + " did not run every kernel: " + report);
  }
}
