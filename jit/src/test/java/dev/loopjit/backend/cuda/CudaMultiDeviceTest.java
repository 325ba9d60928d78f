// One plan over the jvm and the (simulated) CUDA device: arrays moved between them, equal to the jvm alone.
package dev.loopjit.backend.cuda;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.Devices;
import dev.loopjit.api.MultiDeviceTest;
import org.junit.jupiter.api.Test;

class CudaMultiDeviceTest {
  @Test
  void theJvmAndCudaInOnePlan() {
    assumeTrue(Devices.all().stream().anyMatch(d -> d.id().equals("cuda:0")), "no CUDA device in this run");
    MultiDeviceTest.checkEveryPair();
    MultiDeviceTest.checkBadIndexOnEveryOtherDevice();
  }
}
