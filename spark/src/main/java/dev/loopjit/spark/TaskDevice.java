// Which LoopJIT device a Spark task runs its kernels on: the one asked for, else the GPU Spark assigned the task, else the best.
package dev.loopjit.spark;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import java.util.Map;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;

/**
 * The device of the running Spark task. With GPU scheduling
 * ({@code spark.task.resource.gpu.amount=1} and a discovery script on the executors) Spark gives
 * each task a GPU address; that address {@code N} is LoopJIT's {@code cuda:N}. A GPU that LoopJIT
 * cannot see fails the task with a message naming it: no silent fallback to the CPU.
 */
final class TaskDevice {
  private TaskDevice() {}

  /** {@code requested} (a device id) when not null, else the task's GPU, else {@link Devices#best()}. */
  static Device of(String requested) {
    if (requested != null) return Devices.get(requested);
    TaskContext task = TaskContext.get();
    if (task != null) {
      Map<String, ResourceInformation> resources = task.resourcesJMap();
      ResourceInformation gpu = resources == null ? null : resources.get("gpu");
      if (gpu != null && gpu.addresses().length > 0) {
        String id = "cuda:" + gpu.addresses()[0];
        for (Device d : Devices.all()) if (d.id().equals(id)) return d;
        throw new IllegalStateException("Spark gave task " + task.taskAttemptId() + " (partition " + task.partitionId() + ") GPU "
            + gpu.addresses()[0] + ", but LoopJIT sees no " + id + " on this executor (devices: " + Devices.all().stream().map(Device::id).toList()
            + "); check the CUDA driver, or name a device with .device(...)");
      }
    }
    return Devices.best();
  }
}
