// When a task graph copies a host array to the device, or a device array back to the host.
package dev.loopjit.api;

/**
 * When data crosses between host and device.
 *
 * <pre>{@code
 * graph.transferToDevice(DataTransferMode.FIRST_EXECUTION, weights)   // once; stays resident
 *      .transferToDevice(DataTransferMode.EVERY_EXECUTION, batch)     // before every execute()
 *      .transferToHost(DataTransferMode.UNDER_DEMAND, stats);         // only on result.transferToHost(stats)
 * }</pre>
 */
public enum DataTransferMode {
  /** Copied on the first execution of the plan only; the device copy stays resident afterwards. */
  FIRST_EXECUTION,
  /** Copied on every execution. */
  EVERY_EXECUTION,
  /** Copied back to the host only when asked, with {@link ExecutionResult#transferToHost}. */
  UNDER_DEMAND
}
