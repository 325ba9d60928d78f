// TornadoVM's TornadoMemoryException: what a plan past its withMemoryLimit throws, before anything runs.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoMemoryException}, unchecked here so that a program's {@code catch} clauses compile whatever
 * its block throws. A plan given {@link ExecutionPlan#withMemoryLimit(String)} throws it when an
 * execution's buffers would take more device memory, before anything runs. A device out of memory
 * is the driver's exception, naming the array and the device.
 */
public class TornadoMemoryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoMemoryException(String message) {
    super(message);
  }
}
