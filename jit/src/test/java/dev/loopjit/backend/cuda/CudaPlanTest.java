// The plan features on the (simulated) CUDA device: one plan over it and the jvm, TornadoVM's reductions, batches; equal to the jvm alone.
package dev.loopjit.backend.cuda;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.Devices;
import dev.loopjit.api.MultiDeviceTest;
import org.junit.jupiter.api.Test;

class CudaPlanTest {
  @Test
  void theJvmAndCudaInOnePlan() {
    assumeTrue(Devices.all().stream().anyMatch(d -> d.id().equals("cuda:0")), "no CUDA device in this run");
    MultiDeviceTest.checkEveryPair();
    MultiDeviceTest.checkBadIndexOnEveryOtherDevice();
  }

  @Test
  void tornadoVmsReductionsOnCuda() {
    assumeTrue(Devices.all().stream().anyMatch(d -> d.id().equals("cuda:0")), "no CUDA device in this run");
    dev.loopjit.api.ReduceResetTest.checkEveryDevice();
  }

  @Test
  void batchesOnCuda() {
    assumeTrue(Devices.all().stream().anyMatch(d -> d.id().equals("cuda:0")), "no CUDA device in this run");
    dev.loopjit.api.BatchTest.checkEveryDevice();
  }
}
