// TornadoVM's TornadoOutOfMemoryException, declared so that TornadoVM programs that catch or throw it compile after the import rename; LoopJIT never throws it.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoOutOfMemoryException}, unchecked here so that a program's {@code catch} clauses compile whatever
 * its block throws. LoopJIT throws its own types instead (docs/guide/coming-from-tornadovm.md lists
 * them): a kernel that cannot run is refused before anything runs with a
 * {@link KernelCompilationException} (a {@link TornadoCompilationException}); a device out of memory
 * is a driver exception that names the array and the device.
 */
public class TornadoOutOfMemoryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoOutOfMemoryException(String message) {
    super(message);
  }
}
