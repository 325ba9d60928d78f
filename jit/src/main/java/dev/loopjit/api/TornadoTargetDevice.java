// TornadoVM's TornadoTargetDevice: what device.getPhysicalDevice() gives, the device's properties under TornadoVM's names.
package dev.loopjit.api;

/** The properties of {@code device} that TornadoVM's {@code getPhysicalDevice()} reports, read from {@link Device}. */
public record TornadoTargetDevice(Device device) {
  public TornadoTargetDevice {
    java.util.Objects.requireNonNull(device, "device");
  }

  /** {@link Device#name()}. */
  public String getDeviceName() {
    return device.name();
  }

  /** {@link Device#memoryBytes()}. */
  public long getDeviceGlobalMemorySize() {
    return device.memoryBytes();
  }

  /** {@link Device#localMemoryBytes()}. */
  public long getDeviceLocalMemorySize() {
    return device.localMemoryBytes();
  }

  /** {@link Device#computeUnits()}. */
  public int getDeviceMaxComputeUnits() {
    return device.computeUnits();
  }

  /** {@link Device#maxWorkGroupSize()}, as TornadoVM's one-element array. */
  public long[] getDeviceMaxWorkGroupSize() {
    return new long[] {device.maxWorkGroupSize()};
  }

  /** {@link Device#maxWorkGroupSize()}. */
  public int getMaxThreadsPerBlock() {
    return device.maxWorkGroupSize();
  }

  /** {@link Device#describe()}. */
  public String getDeviceInfo() {
    return device.describe();
  }
}
