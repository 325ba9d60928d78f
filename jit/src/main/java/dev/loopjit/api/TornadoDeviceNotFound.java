// TornadoVM's TornadoDeviceNotFound: what LoopJIT throws for a device id or index there is no device for.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoDeviceNotFound}: thrown for a device id or index there is no device for (`Devices.get`, `TornadoBackend.getDevice`, `ExecutionPlan.getDevice`), naming what there is. A
 * {@link TornadoRuntimeException}, so an {@link IllegalArgumentException} as LoopJIT's other refusals of bad input are.
 */
public class TornadoDeviceNotFound extends TornadoRuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoDeviceNotFound(String message) {
    super(message);
  }
}
