// TornadoVM's TornadoDeviceMap: the backends and their devices, searched by predicate, name or type.
package dev.loopjit.api;

import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** The backends as {@link TornadoRuntime} numbers them, when the map was made; {@code TornadoExecutionPlan.getTornadoDeviceMap()} makes one. */
public class TornadoDeviceMap {
  private final List<TornadoBackend> backends;

  public TornadoDeviceMap() {
    TornadoRuntime runtime = TornadoRuntimeProvider.getTornadoRuntime();
    backends = java.util.stream.IntStream.range(0, runtime.getNumBackends()).mapToObj(runtime::getBackend).toList();
  }

  public int getNumBackends() {
    return backends.size();
  }

  public List<TornadoBackend> getAllBackends() {
    return backends;
  }

  /** The backends {@code predicate} accepts. */
  public List<TornadoBackend> getBackendsWithPredicate(Predicate<? super TornadoBackend> predicate) {
    return backends.stream().filter(predicate).toList();
  }

  /** The backends with a device {@code predicate} accepts. */
  public List<TornadoBackend> getBackendsWithDevicePredicate(Predicate<? super TornadoDevice> predicate) {
    return backends.stream().filter(b -> b.getAllDevices().stream().anyMatch(predicate)).toList();
  }

  /** Every device whose name contains {@code name}, ignoring case. */
  public Stream<TornadoDevice> getDevicesByName(String name) {
    String lower = name.toLowerCase(java.util.Locale.ROOT);
    return devices().filter(d -> d.getDeviceName().toLowerCase(java.util.Locale.ROOT).contains(lower));
  }

  /** Every device of this type. */
  public Stream<TornadoDevice> getDevicesByType(TornadoDeviceType type) {
    return devices().filter(d -> d.getDeviceType() == type);
  }

  private Stream<TornadoDevice> devices() {
    return backends.stream().flatMap(b -> b.getAllDevices().stream());
  }
}
