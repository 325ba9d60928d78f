// The two ways a device benchmark moves data: everything every execution, or inputs once and the result left on the device.
package dev.loopjit.bench;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.util.function.UnaryOperator;

/** How the graph of a device benchmark copies its arrays. */
enum Transfers {
  /** Inputs copied in and the output copied back on every execution: what a program that calls a kernel once per step pays. */
  EVERY_EXECUTION,
  /** Inputs copied on the first execution only and the output left on the device: the kernel and the launch alone. */
  RESIDENT;

  /** A graph named {@code name}: these transfers around {@code tasks}. {@code output} may also be an input. */
  TaskGraph around(String name, Object[] inputs, FloatArray output, UnaryOperator<TaskGraph> tasks) {
    TaskGraph g = new TaskGraph(name);
    if (this == EVERY_EXECUTION) {
      g.transferToDevice(DataTransferMode.EVERY_EXECUTION, inputs);
      return tasks.apply(g).transferToHost(DataTransferMode.EVERY_EXECUTION, output);
    }
    g.transferToDevice(DataTransferMode.FIRST_EXECUTION, inputs);
    return tasks.apply(g).transferToHost(DataTransferMode.UNDER_DEMAND, output);
  }

  /** Brings {@code output} to the host after {@code result}'s execution, where this mode left it on the device. */
  void readBack(ExecutionResult result, FloatArray output) {
    if (this == RESIDENT) result.transferToHost(output);
  }
}
