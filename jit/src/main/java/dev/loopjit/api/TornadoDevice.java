// TornadoVM's device type, so that programs declaring TornadoDevice variables compile after the import rename: every Device is one.
package dev.loopjit.api;

/**
 * A {@link Device} under TornadoVM's name and getters, for programs written against TornadoVM:
 * {@code TornadoDevice d = TornadoExecutionPlan.getDevice(0, 0)} becomes
 * {@code TornadoDevice d = ExecutionPlan.getDevice(0, 0)}. Every {@link Device} is a
 * {@code TornadoDevice} and every {@code TornadoDevice} a {@code Device}; the getters read the
 * device's own facts.
 */
public sealed interface TornadoDevice permits Device {
  private Device device() {
    return (Device) this;
  }

  /** {@link Device#name()}. */
  default String getDeviceName() {
    return device().name();
  }

  /** {@link Device#describe()}. */
  default String getDescription() {
    return device().describe();
  }

  /** The backend: {@code "jvm"}, {@code "jvm-mt"}, {@code "opencl"} or {@code "cuda"}. */
  default String getPlatformName() {
    return device().backend();
  }

  /** {@link Device#kind()} as TornadoVM names it ({@code JAVA} for the JVM's). */
  default TornadoDeviceType getDeviceType() {
    return TornadoDeviceType.of(device().kind());
  }

  /** {@link Device#memoryBytes()}. */
  default long getMaxGlobalMemory() {
    return device().memoryBytes();
  }

  /** {@link Device#maxAllocationBytes()}. */
  default long getMaxAllocMemory() {
    return device().maxAllocationBytes();
  }

  /** {@link Device#localMemoryBytes()}. */
  default long getDeviceLocalMemorySize() {
    return device().localMemoryBytes();
  }

  /** {@link Device#computeUnits()}. */
  default int getAvailableProcessors() {
    return device().computeUnits();
  }

  /** The index of its backend in {@link TornadoRuntime#getBackend(int)}. */
  default int getBackendIndex() {
    return TornadoRuntime.INSTANCE.backendIndexOf(device());
  }

  /** What TornadoVM's {@code getDeviceContext()} gives: here, the device's memory manager only. */
  record DeviceContext(Device device) {
    /** The device's memory, as TornadoVM's memory manager describes it. */
    public MemoryManager getMemoryManager() {
      return new MemoryManager(device.memoryBytes());
    }
  }

  /** TornadoVM's memory manager of a device: its heap is the device's global memory here. */
  record MemoryManager(long heapSize) {
    /** Bytes of device memory a plan may use: the device's global memory ({@link Device#memoryBytes()}). */
    public long getHeapSize() {
      return heapSize;
    }
  }

  /** TornadoVM's {@code getDeviceContext()}, for {@code getDeviceContext().getMemoryManager().getHeapSize()}. */
  default DeviceContext getDeviceContext() {
    return new DeviceContext(device());
  }

  /** The kind of code the device runs, as TornadoVM names it: {@code OPENCL}, {@code PTX} (a CUDA device) or {@code JAVA}. */
  default TornadoVMBackendType getTornadoVMBackend() {
    return TornadoVMBackendType.of(device(), null);
  }

  /** {@link Device#supportsSpirv()}, under TornadoVM's name. */
  default boolean isSPIRVSupported() {
    return device().supportsSpirv();
  }

  /**
   * TornadoVM's {@code clean()}, which frees what a device holds for every plan: here a device holds
   * nothing outside its plans (each plan's buffers are freed by its {@code close()} or
   * {@code freeDeviceMemory()}, compiled kernels are cached by content), so there is nothing to free.
   */
  default void clean() {}

  /** TornadoVM's {@code getPhysicalDevice()}: the device's properties under TornadoVM's names. */
  default TornadoTargetDevice getPhysicalDevice() {
    return new TornadoTargetDevice(device());
  }
}
