import dev.loopjit.api.*;
import dev.loopjit.types.FloatArray;

public class Saxpy {
  static void saxpy(float a, FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, a * x.get(i) + y.get(i));
  }

  public static void main(String[] args) {
    FloatArray x = new FloatArray(1 << 20), y = new FloatArray(1 << 20);
    x.init(1f);
    TaskGraph g = new TaskGraph("step")
        .transferToDevice(DataTransferMode.FIRST_EXECUTION, x)     // copied once, stays resident
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, y)
        .task("saxpy", Saxpy::saxpy, 2f, x, y)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      ExecutionResult r = plan.withDevice(Devices.best()).withProfiler().execute();
      System.out.println(r.profile());                             // compile, copy and kernel times
    }
  }
}
