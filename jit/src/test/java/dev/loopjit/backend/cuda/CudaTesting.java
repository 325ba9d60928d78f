// Shared test plumbing: the first CUDA device (or an honest skip), graphs of one task, and runs on cuda and on the jvm.
package dev.loopjit.backend.cuda;

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

/**
 * The CUDA tests run wherever {@code libcuda.so.1} (the NVIDIA driver) sees a GPU and skip, saying
 * why, elsewhere. On a GPU host with no JDK: {@code scripts/bundle} here, copy
 * {@code dist/loopjit-linux-x64.tar.xz} there, unpack, then
 * {@code loopjit/bin/loopjit test --include-package dev.loopjit.backend.cuda}. A driver in another
 * place: {@code LOOPJIT_CUDA_LIBRARY=/path/to/libcuda.so.1}.
 */
final class CudaTesting {
  private CudaTesting() {}

  /** The cuda backend as ServiceLoader found it. */
  static Backend backend() {
    return Backends.all().stream().filter(b -> b.name().equals("cuda")).findFirst()
        .orElseThrow(() -> new AssertionError("the cuda backend is not registered in META-INF/services"));
  }

  /** cuda:0, or a skip saying why there is none (no NVIDIA driver, no GPU). */
  static CudaDevice device() {
    Backend b = backend();
    assumeTrue(!b.devices(Settings.options()).isEmpty(), () -> "no CUDA device: " + b.problem());
    return (CudaDevice) b.devices(Settings.options()).get(0);
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

  /** A plan on {@code device} whose kernels come from the handwritten PTX. */
  static Engine.Executor cuda(CudaDevice device) {
    return new GraphRunner(new CudaRuntime(device, HandwrittenPtx.SOURCE, Settings.options()));
  }
}
