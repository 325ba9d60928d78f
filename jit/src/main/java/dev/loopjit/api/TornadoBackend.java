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
      throw new IllegalArgumentException("backend " + name + " has no device " + index + "; it has " + devices.size() + ": "
          + devices.stream().map(Device::id).toList());
    return devices.get(index);
  }

  /** Its first device. */
  public Device getDefaultDevice() {
    return devices.getFirst();
  }

  @Override
  public String toString() {
    return name + " " + devices.stream().map(Device::id).toList();
  }
}
