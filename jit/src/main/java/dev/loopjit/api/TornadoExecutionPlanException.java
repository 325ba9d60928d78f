// TornadoVM's exception of a plan used wrongly: LoopJIT throws it for a plan used after close(); unchecked, so TornadoVM's catch clauses compile.
package dev.loopjit.api;

/**
 * An {@link ExecutionPlan} used after {@link ExecutionPlan#close()}, under TornadoVM's name (an
 * {@link IllegalStateException}, as before). TornadoVM's is a checked exception that its plan's
 * {@code close()} declares, so TornadoVM programs write
 * {@code try (TornadoExecutionPlan p = …) { … } catch (TornadoExecutionPlanException e) { … }}; this
 * one is unchecked, so those programs compile unchanged after the import rename (Java allows a
 * {@code catch} of an unchecked exception whatever the block throws).
 */
public class TornadoExecutionPlanException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public TornadoExecutionPlanException(String reason) {
    super(reason);
  }

  /** TornadoVM's name for the message. */
  public String getReason() {
    return getMessage();
  }
}
