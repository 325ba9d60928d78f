// TornadoVM's entry point to its runtime, for TornadoRuntimeProvider.getTornadoRuntime().getBackend(i).getDevice(j) after the import rename.
package dev.loopjit.api;

/** {@link #getTornadoRuntime()}: the devices by backend, under TornadoVM's names ({@link TornadoRuntime}). */
public final class TornadoRuntimeProvider {
  private TornadoRuntimeProvider() {}

  public static TornadoRuntime getTornadoRuntime() {
    return TornadoRuntime.INSTANCE;
  }
}
