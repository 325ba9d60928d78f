// A training step on an OpenCL device built from SPIR-V gives the parameters it gives built from OpenCL C.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.backend.spirv.SpirvBridge;
import dev.loopjit.testing.KernelCheck;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpirvParityTest {
  private static final List<String> SETTINGS = List.of("loopjit.opencl.program", "loopjit.spirv.bridge");

  /** Ten Adam steps of the toy model on {@code d}, with the program form {@code program}; the parameters after them. */
  private static float[] train(Device d, String program) {
    Map<String, String> saved = new HashMap<>();
    for (String k : SETTINGS) saved.put(k, System.getProperty(k));
    System.setProperty("loopjit.opencl.program", program);
    System.setProperty("loopjit.spirv.bridge", "llvm-spirv");   // used only where the device takes no SPIR-V itself
    try {
      Dataset[] tt = ToyProblem.trainAndTest(5);
      Sequential m = ToyProblem.model().initialize(7);
      int[] order = new int[tt[0].size()];
      Random r = new Random(3);
      for (int i = 0; i < order.length; i++) order[i] = r.nextInt(order.length);
      try (TrainingStep step = m.trainingStep(tt[0], 32, Loss.BCE_WITH_LOGITS, Optimizer.adam(1e-2f), d)) {
        for (int s = 0; s < 10; s++) step.run(order, s * 32, 32);
        step.pullParameters();
      }
      return m.parameters().toArray();
    } finally {
      for (String k : SETTINGS) {
        if (saved.get(k) == null) System.clearProperty(k);
        else System.setProperty(k, saved.get(k));
      }
    }
  }

  @Test
  void spirvAndOpenClCTrainTheSameParameters() {
    KernelCheck.checkRequiredDevices();
    List<Device> opencl = Devices.all().stream().filter(d -> d.backend().equals("opencl")).toList();
    assumeTrue(!opencl.isEmpty(), "no OpenCL device");
    assumeTrue(SpirvBridge.problem() == null, SpirvBridge.problem());
    for (Device d : opencl) {
      float[] source = train(d, "source"), spirv = train(d, "spirv");
      assertEquals(source.length, spirv.length);
      // Same driver, same operations in the same order, no contraction in either: the same bits.
      for (int i = 0; i < source.length; i++)
        assertEquals(Float.floatToIntBits(source[i]), Float.floatToIntBits(spirv[i]),
            "parameter " + i + " on " + d.id() + ": OpenCL C " + source[i] + ", SPIR-V " + spirv[i]);
    }
  }
}
