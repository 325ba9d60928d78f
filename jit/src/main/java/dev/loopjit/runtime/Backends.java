// Loads the backends once with ServiceLoader, honouring -Dloopjit.backends, and finds their recipes.
package dev.loopjit.runtime;

import dev.loopjit.api.Device;
import dev.loopjit.spi.Backend;
import dev.loopjit.spi.Recipe;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The backends on the class path, jvm first. */
public final class Backends {
  private static final List<String> ORDER = List.of("jvm", "jvm-mt", "opencl", "cuda");
  private static volatile List<Backend> present;

  private Backends() {}

  /** Every backend on the class path, in the order jvm, opencl, cuda, others. */
  private static List<Backend> present() {
    List<Backend> l = present;
    if (l == null) {
      synchronized (Backends.class) {
        if (present == null) {
          List<Backend> found = new ArrayList<>();
          for (Backend b : ServiceLoader.load(Backend.class, Backends.class.getClassLoader())) found.add(b);
          found.sort(Comparator.comparingInt(b -> ORDER.indexOf(b.name()) < 0 ? ORDER.size() : ORDER.indexOf(b.name())));
          present = List.copyOf(found);
        }
        l = present;
      }
    }
    return l;
  }

  /** The backends in use: those {@code loopjit.backends} names (all when unset), and always jvm. */
  public static List<Backend> all() {
    List<String> wanted = Settings.backends();
    return present().stream().filter(b -> wanted == null || wanted.contains(b.name()) || b.name().equals("jvm")).toList();
  }

  /** Every device of the backends in use, jvm first. */
  public static List<Device> devices() {
    var options = Settings.options();
    return all().stream().flatMap(b -> b.devices(options).stream()).toList();
  }

  /** The backend that owns {@code device}. */
  public static Backend of(Device device) {
    for (Backend b : present()) if (b.name().equals(device.backend())) return b;
    throw new IllegalArgumentException("no backend \"" + device.backend() + "\" for device " + device.id());
  }

  /** Why backends found no devices, for messages. */
  public static List<String> problems() {
    devices();
    return all().stream().filter(b -> b.problem() != null).map(b -> b.name() + ": " + b.problem()).toList();
  }

  /** The recipe of {@code language} from any backend on the class path (in use or not: reading code needs no device). */
  public static Recipe recipe(String language) {
    List<String> known = new ArrayList<>();
    for (Backend b : present())
      for (Recipe r : b.recipes()) {
        if (r.language().equals(language)) return r;
        known.add(r.language());
      }
    throw new IllegalArgumentException("no target \"" + language + "\"; targets: ir, ir:PASS, " + String.join(", ", known));
  }
}
