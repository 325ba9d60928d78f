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
    System.out.println("lane fuzz: " + r.kernels() + " kernels from seed " + seed + ", " + r.coarsened() + " coarsened runs (" + r.rows()
        + " in the rows form, " + r.blocks() + " with more than one block of k; " + r.fourRows() + " four rows at a time on jvm-mt), no problem");
  }

  /** {@code -Dlanefuzz.vectors.seed=S -Dlanefuzz.vectors.count=N}: float-only kernels, which jvm-mt runs as Vector API lanes (default: 16 from seed 1). */
  @Test
  void randomFloatKernelsGiveTheJvmsResultsWithJvmMtsVectorLanes() {
    long seed = Long.getLong("lanefuzz.vectors.seed", 1);
    int count = Integer.getInteger("lanefuzz.vectors.count", 16);
    LaneFuzz.Result r = LaneFuzz.run(seed, count, true);
    assertTrue(r.problems().isEmpty(), r.problems().size() + " problem(s); the first:\n" + (r.problems().isEmpty() ? "" : r.problems().get(0)));
    System.out.println("vector lane fuzz: " + r.kernels() + " kernels from seed " + seed + ", " + r.vectorised() + " vector runs on jvm-mt, "
        + r.fourRows() + " four rows at a time, no problem");
    if (Devices.all().stream().anyMatch(d -> d.id().equals("jvm-mt"))) {
      assertTrue(r.vectorised() > 0, "no kernel of " + r.kernels() + " ran as vectors on jvm-mt: the test would not test them");
      assertTrue(r.fourRows() > 0, "no kernel of " + r.kernels() + " ran four rows at a time on jvm-mt: the test would not test them");
    }
  }
}
