import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.tasks.Blas3;
import dev.loopjit.tasks.Graphs;
import dev.loopjit.types.FloatArray;

public class LibraryExample {
  public static void main(String[] args) {
    int m = 300, n = 200, k = 100;
    FloatArray a = new FloatArray(m * k), b = new FloatArray(k * n), c = new FloatArray(m * n);
    a.init(1f);
    b.init(0.5f);

    // A ready-made graph: the fastest @Parallel gemm, inputs in and c out on every execution.
    try (ExecutionPlan plan = new ExecutionPlan(Graphs.gemm(a, b, c, m, n, k))) {
      plan.withDevice(Devices.best()).execute();
    }

    // A graph of your own, here with the local-memory KernelContext kernel, which needs its grid.
    FloatArray tiled = new FloatArray(m * n);
    TaskGraph g = new TaskGraph("mm")
        .transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
        .task("gemm", Blas3::gemmTiled, new KernelContext(), a, b, tiled, m, n, k)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, tiled);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(Devices.best()).withGridScheduler(new GridScheduler("mm.gemm", Blas3.tiledGrid(m, n))).execute();
    }

    // Any kernel called directly is the plain Java reference.
    FloatArray reference = new FloatArray(m * n);
    Blas3.gemmNaive(a, b, reference, m, n, k);
    System.out.println(c.get(0) + " " + tiled.get(0) + " " + reference.get(0));   // 50.0 50.0 50.0
  }
}
