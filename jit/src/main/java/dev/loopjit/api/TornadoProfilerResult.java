// TornadoVM's TornadoProfilerResult: the getters of an execution's profile under TornadoVM's names; every Profile is one.
package dev.loopjit.api;

/**
 * What {@code executionResult.getProfilerResult()} gives a TornadoVM program: {@link Profile}
 * implements it, all times in nanoseconds. The dispatch times are the host's time in the calls that
 * hand copies and launches to the driver; on the {@code jvm} devices, which do the work in the call,
 * they include the work.
 */
public interface TornadoProfilerResult {
  long getTotalTime();

  long getCompileTime();

  long getTornadoCompilerTime();

  long getDriverInstallTime();

  long getDataTransfersTime();

  long getDeviceWriteTime();

  long getDeviceReadTime();

  long getDeviceKernelTime();

  String getProfileLog();

  /** Host time handing copies to the driver. */
  long getDataTransferDispatchTime();

  /** Host time handing launches to the driver. */
  long getKernelDispatchTime();

  /** The plan's device memory when the execution ended, in bytes (under the profiler; else 0). */
  long getTotalDeviceMemoryUsage();

  /** Bytes copied host to device. */
  long getTotalBytesCopyIn();

  /** Bytes copied device to host. */
  long getTotalBytesCopyOut();

  /** Both ways' bytes. */
  default long getTotalBytesTransferred() {
    return getTotalBytesCopyIn() + getTotalBytesCopyOut();
  }

  /** Prints the profile to standard output. */
  default void dumpProfiles() {
    System.out.println(this);
  }
}
