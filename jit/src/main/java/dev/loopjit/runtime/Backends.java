// Loads the backends once with ServiceLoader, honouring -Dloopjit.backends.
package dev.loopjit.runtime;

import dev.loopjit.api.Device;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The backends on the class path, jvm first. */
public final class Backends {
  private static final List<String> ORDER = List.of("jvm", "opencl", "cuda", "spirv");
  private static volatile List<Backend> loaded;

  private Backends() {}

  /** Every backend that loaded, in the order jvm, opencl, cuda, others. */
  public static List<Backend> all() {
    List<Backend> l = loaded;
    if (l == null) {
      synchronized (Backends.class) {
        if (loaded == null) loaded = load();
        l = loaded;
      }
    }
    return l;
  }

  private static List<Backend> load() {
    List<String> wanted = Settings.backends();
    List<Backend> found = new ArrayList<>();
    for (Backend b : ServiceLoader.load(Backend.class, Backends.class.getClassLoader()))
      if (wanted == null || wanted.contains(b.name()) || b.name().equals("jvm")) found.add(b);
    found.sort(Comparator.comparingInt(b -> ORDER.indexOf(b.name()) < 0 ? ORDER.size() : ORDER.indexOf(b.name())));
    return List.copyOf(found);
  }

  /** The backend that owns {@code device}. */
  public static Backend of(Device device) {
    for (Backend b : all()) if (b.name().equals(device.backend())) return b;
    throw new IllegalArgumentException("no backend \"" + device.backend() + "\" for device " + device.id());
  }

  /** Why backends found no devices, for messages. */
  public static List<String> problems() {
    return all().stream().filter(b -> b.problem() != null).map(b -> b.name() + ": " + b.problem()).toList();
  }
}
