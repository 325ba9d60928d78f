// The devices grouped by backend, under TornadoVM's names; backend 0 is the one Devices.best() belongs to.
package dev.loopjit.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TornadoVM's view of the devices, over {@link Devices}: backends numbered from 0, the first being
 * the backend of {@link Devices#best()} (TornadoVM's default device is backend 0's device 0), the
 * others in the order {@link Devices#all()} lists them; each backend's devices in that order too.
 * Built afresh on each call, from the devices the engine found.
 */
public final class TornadoRuntime {
  static final TornadoRuntime INSTANCE = new TornadoRuntime();

  private TornadoRuntime() {}

  private static List<TornadoBackend> backends() {
    Device best = Devices.best();
    Map<String, List<Device>> byBackend = new LinkedHashMap<>();
    byBackend.put(best.backend(), new ArrayList<>());
    for (Device d : Devices.all()) byBackend.computeIfAbsent(d.backend(), k -> new ArrayList<>()).add(d);
    List<Device> first = byBackend.get(best.backend());
    first.remove(best);
    first.addFirst(best);
    return byBackend.entrySet().stream().map(e -> new TornadoBackend(e.getKey(), e.getValue())).toList();
  }

  public int getNumBackends() {
    return backends().size();
  }

  /** Backend {@code index}; an index there is not is refused, naming the backends there are. */
  public TornadoBackend getBackend(int index) {
    List<TornadoBackend> all = backends();
    if (index < 0 || index >= all.size())
      throw new TornadoBackendNotFound("no backend " + index + "; there are " + all.size() + ": " + all);
    return all.get(index);
  }

  /**
   * Makes backend {@code index}'s first device the default, as TornadoVM's {@code setDefaultBackend}:
   * sets {@code loopjit.device} to its id, so that {@link Devices#best()} and every plan given no
   * device use it, and that backend is numbered 0 from now on.
   */
  public void setDefaultBackend(int index) {
    getBackend(index).setDefaultDevice(0);
  }

  /** {@link TornadoBackend#getBackendType()} of backend {@code index}. */
  public TornadoVMBackendType getBackendType(int index) {
    return getBackend(index).getBackendType();
  }

  /** {@link Devices#best()}: backend 0's device 0. */
  public Device getDefaultDevice() {
    return Devices.best();
  }

  int backendIndexOf(Device d) {
    List<TornadoBackend> all = backends();
    for (int i = 0; i < all.size(); i++) if (all.get(i).getName().equals(d.backend())) return i;
    throw new IllegalArgumentException(d.id() + " is not among the engine's devices");
  }
}
