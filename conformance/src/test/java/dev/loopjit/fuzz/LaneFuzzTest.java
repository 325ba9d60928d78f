// Random kernels in the coarsen pass's shapes on every device (LaneFuzz): equal to the jvm, and some of them coarsened on a CPU.
package dev.loopjit.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dlanefuzz.seed=S -Dlanefuzz.count=N} runs another stretch (default: 24 kernels from seed 1);
 * each kernel runs on the jvm and every device, every result compared bit for bit.
 */
class LaneFuzzTest {
  @Test
  void randomKernelsInTheCoarsenShapesGiveTheJvmsResultsOnEveryDevice() {
    long seed = Long.getLong("lanefuzz.seed", 1);
    int count = Integer.getInteger("lanefuzz.count", 24);
    LaneFuzz.Result r = LaneFuzz.run(seed, count);
    assertTrue(r.problems().isEmpty(), r.problems().size() + " problem(s); the first:\n" + (r.problems().isEmpty() ? "" : r.problems().get(0)));
    boolean cpu = Devices.all().stream().anyMatch(d -> d.id().startsWith("opencl") && d.kind() == Device.Kind.CPU);
    if (cpu) assertTrue(r.coarsened() > 0, "no kernel of " + r.kernels() + " was coarsened: the test would not test the coarsen pass");
    System.out.println("lane fuzz: " + r.kernels() + " kernels from seed " + seed + ", " + r.coarsened() + " coarsened runs, no problem");
  }
}
