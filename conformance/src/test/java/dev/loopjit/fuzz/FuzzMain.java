// The command line of scripts/fuzz: SEED COUNT, or SEED --minutes M; prints what ran where and every problem found.
package dev.loopjit.fuzz;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code FuzzMain SEED COUNT} runs the kernels of seeds SEED..SEED+COUNT-1; {@code FuzzMain SEED
 * --minutes M} runs from SEED until M minutes have passed; {@code FuzzMain SEED COUNT --minutes M}
 * stops at whichever comes first. Every device of {@link Devices#all()}
 * is compared with the jvm (scripts/fuzz adds the simulated CUDA device); with {@code -Dfuzz.spirv=true}
 * every OpenCL device also runs each kernel built from SPIR-V ({@link Where}). Reproducers go to
 * {@code -Dfuzz.out} (default {@code target/fuzz}). Exits with 1 when a problem was found.
 * The last line says which seed comes next, so a long run can continue where one stopped.
 */
public final class FuzzMain {
  private FuzzMain() {}

  public static void main(String[] args) {
    boolean timed = args.length == 4 && args[2].equals("--minutes") || args.length == 3 && args[1].equals("--minutes");
    if (args.length != 2 && !timed) {
      System.err.println("usage: FuzzMain SEED COUNT | FuzzMain SEED --minutes M | FuzzMain SEED COUNT --minutes M");
      System.exit(2);
    }
    long seed = Long.parseLong(args[0]);
    long count = args[1].equals("--minutes") ? Long.MAX_VALUE - seed : Long.parseLong(args[1]);
    Instant deadline = timed ? Instant.now().plus(Duration.ofSeconds((long) (Double.parseDouble(args[args.length - 1]) * 60)))
        : Instant.MAX;
    List<Device> devices = Devices.all();
    List<Where> places = Where.of(devices, Boolean.getBoolean("fuzz.spirv"));
    System.out.println("fuzzing from seed " + seed + " on "
        + (Boolean.getBoolean("fuzz.compileOnly") ? OfflineCheck.PLACES : places.stream().map(Where::id).toList()));
    Path out = Path.of(System.getProperty("fuzz.out", "target/fuzz"));
    Fuzzer f = new Fuzzer(places, out, Duration.ofSeconds(Long.getLong("fuzz.limitSeconds", 120)), System.out,
        Integer.getInteger("fuzz.minimiseAttempts", 400), Integer.getInteger("fuzz.reproducersPerProblem", 2));
    Fuzzer.Stats s = f.run(seed, count, deadline);
    System.out.println(s.summary());
    for (String e : s.invalidExamples) System.out.println("  (not a test: " + e.lines().findFirst().orElse("") + ")");
    System.out.println("next seed: " + s.nextSeed);
    // for scripts/fuzz, which adds up its chunks
    StringBuilder totals = new StringBuilder("TOTALS kernels=" + s.kernels + " invalid=" + (s.invalid + s.rejectedByJavac));
    s.runsByDevice.forEach((d, n) -> totals.append(' ').append(d).append('=').append(n));
    System.out.println(totals);
    s.problems.forEach((sig, seeds) -> System.out.println("PROBLEM " + seeds.size() + " " + sig));
    System.exit(s.problems.isEmpty() ? 0 : 1);
  }
}
