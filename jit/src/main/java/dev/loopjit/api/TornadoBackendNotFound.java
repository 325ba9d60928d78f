// TornadoVM's TornadoBackendNotFound: what LoopJIT throws for a backend index there is no backend for.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoBackendNotFound}: thrown for a backend index there is no backend for (`TornadoRuntime.getBackend`), naming what there is. A
 * {@link TornadoRuntimeException}, so an {@link IllegalArgumentException} as LoopJIT's other refusals of bad input are.
 */
public class TornadoBackendNotFound extends TornadoRuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoBackendNotFound(String message) {
    super(message);
  }
}
