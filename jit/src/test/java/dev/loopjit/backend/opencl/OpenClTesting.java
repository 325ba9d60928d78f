// Shared test plumbing: the first OpenCL device (or an honest skip), graphs of one task, and runs on opencl and on the jvm.
package dev.loopjit.backend.opencl;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.Engine;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.Profile;
import dev.loopjit.runtime.Backends;
import dev.loopjit.runtime.GraphRunner;
import dev.loopjit.runtime.GraphSpec;
import dev.loopjit.runtime.Settings;
import dev.loopjit.spi.Backend;
import dev.loopjit.spi.TaskSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

final class OpenClTesting {
  private OpenClTesting() {}

  /** The opencl backend as ServiceLoader found it. */
  static Backend backend() {
    return Backends.all().stream().filter(b -> b.name().equals("opencl")).findFirst()
        .orElseThrow(() -> new AssertionError("the opencl backend is not registered in META-INF/services"));
  }

  /** opencl:0, or a skip saying why there is none (no libOpenCL, no ICD). */
  static OpenClDevice device() {
    Backend b = backend();
    assumeTrue(!b.devices(Settings.options()).isEmpty(), () -> "no OpenCL device: " + b.problem());
    return (OpenClDevice) b.devices(Settings.options()).get(0);
  }

  /** A task of {@code code} on {@code args}, in graph "g". */
  static TaskSpec task(String id, Serializable code, Object... args) {
    return TaskSpec.of("g", id, code, args);
  }

  /** A graph that copies {@code in} to the device and {@code out} back, both with {@code mode}, around one task. */
  static GraphSpec graph(TaskSpec task, DataTransferMode mode, Object[] in, Object[] out) {
    List<GraphSpec.Transfer> toDevice = new ArrayList<>(), toHost = new ArrayList<>();
    toDevice.addAll(GraphSpec.transfers("g", "transferToDevice", mode, in));
    toHost.addAll(GraphSpec.transfers("g", "transferToHost", mode, out));
    return new GraphSpec("g", toDevice, List.of(task), toHost);
  }

  static Profile execute(Engine.Executor p, GraphSpec g, boolean profile) {
    return execute(p, g, profile, new GridScheduler());
  }

  static Profile execute(Engine.Executor p, GraphSpec g, boolean profile, GridScheduler scheduler) {
    return p.execute(List.of(g), new Engine.ExecutionOptions(profile, scheduler));
  }

  /** A plan on the jvm reference. */
  static Engine.Executor jvm() {
    Device d = Devices.jvm();
    return new GraphRunner(Backends.of(d).open(d, Settings.options()));
  }

  /** A plan on {@code device} whose kernels come from the handwritten OpenCL C. */
  static Engine.Executor opencl(OpenClDevice device) {
    return new GraphRunner(new OpenClRuntime(device, HandwrittenKernels.SOURCE, Settings.options()));
  }
}
