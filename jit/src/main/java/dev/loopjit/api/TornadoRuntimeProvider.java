// TornadoVM's entry point to its runtime, for TornadoRuntimeProvider.getTornadoRuntime().getBackend(i).getDevice(j) after the import rename.
package dev.loopjit.api;

/** {@link #getTornadoRuntime()}: the devices by backend, under TornadoVM's names ({@link TornadoRuntime}). */
public final class TornadoRuntimeProvider {
  private TornadoRuntimeProvider() {}

  public static TornadoRuntime getTornadoRuntime() {
    return TornadoRuntime.INSTANCE;
  }

  /**
   * TornadoVM's {@code setProperty}: sets the Java system property {@code key}. TornadoVM's own
   * properties ({@code tornado.*}) have no meaning to LoopJIT; its settings are {@code loopjit.*}
   * (docs/guide/devices.md), read when a plan opens its device.
   */
  public static void setProperty(String key, String value) {
    System.setProperty(key, value);
  }
}
