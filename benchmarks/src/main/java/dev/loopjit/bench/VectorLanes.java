// JMH: jvm-mt's float lanes as Vector API vectors or scalar (loopjit.vectorLanes), side by side on the naive matmul workload.
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Not part of the default {@code scripts/bench} run: {@code scripts/bench VectorLanes -p device=jvm-mt}.
 * {@link MatMul}'s kernel, inputs resident, with the setting on and off in one run; each plan checked
 * bit for bit against plain Java before it is timed ({@link DevicePlan#open}).
 */
@State(Scope.Benchmark)
public class VectorLanes extends Timed {
  @State(Scope.Benchmark)
  public static class Plan extends DevicePlan {
    @Param({"true", "false"})
    public String vectorLanes;

    @Setup
    public void setup(MatMul.Data d) {
      setting("vectorLanes", vectorLanes);
      open(d, Transfers.RESIDENT);
    }
  }

  @Benchmark
  public ExecutionResult kernelOnly(Plan p) {
    return p.execute();
  }
}
