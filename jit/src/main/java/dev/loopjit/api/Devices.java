// Finds the devices of every backend on this machine and picks the best one.
package dev.loopjit.api;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The devices on this machine, from every backend found by {@code ServiceLoader}.
 *
 * <pre>{@code
 * for (Device d : Devices.all()) System.out.println(d.describe());
 * Device gpu = Devices.best();            // cuda GPU > OpenCL GPU > OpenCL CPU > jvm-mt > jvm
 * Device cpu = Devices.get("opencl:0");
 * }</pre>
 *
 * {@code -Dloopjit.device=ID} or the environment variable {@code LOOPJIT_DEVICE=ID} makes
 * {@link #best()} return that device.
 */
public final class Devices {
  private Devices() {}

  /** Every device, jvm first, then by backend. */
  public static List<Device> all() {
    return Engine.get().devices();
  }

  /** The JVM itself: runs the Java methods; the reference every device is compared with. */
  public static Device jvm() {
    return get("jvm");
  }

  /**
   * The device with this id. Throws {@link IllegalArgumentException} listing the available ids
   * when there is none.
   */
  public static Device get(String id) {
    for (Device d : all()) if (d.id().equals(id)) return d;
    throw new TornadoDeviceNotFound("no device \"" + id + "\"; available: "
        + all().stream().map(Device::id).collect(Collectors.joining(", "))
        + Engine.get().problems().stream().map(p -> "\n  (" + p + ")").collect(Collectors.joining()));
  }

  /**
   * The override from {@code -Dloopjit.device} / {@code LOOPJIT_DEVICE} if set, else the fastest
   * kind of device present: a CUDA GPU, then an OpenCL GPU, then an OpenCL CPU or accelerator,
   * then the JVM on all its cores ({@code jvm-mt}), then the sequential {@code jvm}.
   */
  public static Device best() {
    return Engine.get().best();
  }
}
