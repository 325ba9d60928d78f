// JMH: tornado-tasks' activations over 16M floats — relu, sigmoid, tanh, gelu — as plain Java and kernel-only on each device.
package dev.loopjit.bench;

import dev.loopjit.tasks.Activations;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/** Inputs in [-6, 6), so that every branch of every function runs. */
public class LibraryActivations extends LibraryBenchmarks {
  @Param({"relu", "sigmoid", "tanh", "gelu"})
  public String kernel;

  @Param("16777216")
  public int n;

  @Setup
  public void setup() {
    FloatArray x = Workload.random(n, 61), y = new FloatArray(n);   // (n)
    for (int i = 0; i < n; i++) x.set(i, 6 * x.get(i));
    Object[] in = {x};
    use(switch (kernel) {
      case "relu" -> LibraryKernel.of("activation", in, y, () -> Activations.relu(x, y), g -> g.task("relu", Activations::relu, x, y));
      case "sigmoid" -> LibraryKernel.of("activation", in, y, () -> Activations.sigmoid(x, y), g -> g.task("sigmoid", Activations::sigmoid, x, y));
      case "tanh" -> LibraryKernel.of("activation", in, y, () -> Activations.tanh(x, y), g -> g.task("tanh", Activations::tanh, x, y));
      case "gelu" -> LibraryKernel.of("activation", in, y, () -> Activations.gelu(x, y), g -> g.task("gelu", Activations::gelu, x, y));
      default -> throw unknown(kernel);
    });
  }
}
