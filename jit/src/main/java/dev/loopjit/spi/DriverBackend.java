// A backend over a native driver: its devices found once, and why there are none said instead of thrown.
package dev.loopjit.spi;

import dev.loopjit.api.Device;
import java.util.List;

/**
 * The part of a backend over a driver library that OpenCL and CUDA share: discovery runs once
 * (with the options of the first call), never throws, and when it finds nothing {@link #problem()}
 * says what to install or check.
 */
public abstract class DriverBackend implements Backend {
  private final String name;
  private final List<Recipe> recipes;
  private List<Device> devices;
  private String problem;

  /** A backend called {@code name} whose driver takes the languages of {@code recipes} (the first by default). */
  protected DriverBackend(String name, Recipe... recipes) {
    this.name = name;
    this.recipes = List.of(recipes);
  }

  /** Why there is no device: thrown by {@link #discover} with a message for the user. */
  protected static final class NoDevice extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NoDevice(String why) {
      super(why);
    }
  }

  /** The driver's devices; throws {@link NoDevice} saying why there are none. */
  protected abstract List<Device> discover(Options options);

  @Override
  public final String name() {
    return name;
  }

  /** The language the driver takes by default: the recipe of this backend's runtimes and of the dump. */
  protected final Recipe recipe() {
    return recipes.getFirst();
  }

  @Override
  public final List<Recipe> recipes() {
    return recipes;
  }

  @Override
  public final synchronized List<Device> devices(Options options) {
    if (devices == null) {
      try {
        devices = List.copyOf(discover(options));
      } catch (NoDevice e) {
        devices = List.of();
        problem = e.getMessage();
      } catch (RuntimeException e) {
        devices = List.of();
        problem = name() + " device discovery failed: " + e.getMessage();
      }
    }
    return devices;
  }

  @Override
  public final synchronized String problem() {
    return problem;
  }

  /** {@code device} as this backend's device class, or IllegalArgumentException. */
  protected final <D extends Device> D own(Device device, Class<D> type) {
    if (!type.isInstance(device)) throw new IllegalArgumentException(device.id() + " is not a device of the " + name + " backend");
    return type.cast(device);
  }
}
