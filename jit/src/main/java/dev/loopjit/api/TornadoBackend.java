// One backend's devices under TornadoVM's names: TornadoRuntimeProvider.getTornadoRuntime().getBackend(i).getDevice(j).
package dev.loopjit.api;

import java.util.List;

/** The devices of one backend ({@code "cuda"}, {@code "opencl"}, {@code "jvm-mt"}, {@code "jvm"}), in {@link Devices#all()}'s order. */
public final class TornadoBackend {
  private final String name;
  private final List<Device> devices;

  TornadoBackend(String name, List<Device> devices) {
    this.name = name;
    this.devices = List.copyOf(devices);
  }

  /** The backend's name, as {@link Device#backend()} says it. */
  public String getName() {
    return name;
  }

  public int getNumDevices() {
    return devices.size();
  }

  /** Its device {@code index}; an index it has not is refused, naming the devices it has. */
  public Device getDevice(int index) {
    if (index < 0 || index >= devices.size())
      throw new TornadoDeviceNotFound("backend " + name + " has no device " + index + "; it has " + devices.size() + ": "
          + devices.stream().map(Device::id).toList());
    return devices.get(index);
  }

  /** Its first device. */
  public Device getDefaultDevice() {
    return devices.getFirst();
  }

  /** Its devices, in order. */
  public List<TornadoDevice> getAllDevices() {
    return List.copyOf(devices);
  }

  /** The kind of its first device. */
  public TornadoDeviceType getTypeDefaultDevice() {
    return getDefaultDevice().getDeviceType();
  }

  /** TornadoVM's name for this backend: {@code OPENCL}, {@code PTX} for CUDA, {@code JAVA} for the JVM's ({@link TornadoDevice#getTornadoVMBackend()}). */
  public TornadoVMBackendType getBackendType() {
    return getDefaultDevice().getTornadoVMBackend();
  }

  /**
   * Makes its device {@code index} the default device, as TornadoVM's {@code setDefaultDevice}:
   * sets {@code loopjit.device} to that device's id, so that {@link Devices#best()} and every plan
   * given no device use it (and this backend comes first, that device at index 0).
   */
  public void setDefaultDevice(int index) {
    System.setProperty("loopjit.device", getDevice(index).id());
  }

  @Override
  public String toString() {
    return name + " " + devices.stream().map(Device::id).toList();
  }
}
