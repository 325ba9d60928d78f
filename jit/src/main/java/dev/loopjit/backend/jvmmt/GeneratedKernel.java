// What a kernel compiled to JVM bytecode offers the jvm-mt runtime: run one work-group, or one work-item.
package dev.loopjit.backend.jvmmt;

/**
 * Implemented by each hidden class {@link BytecodeEmitter} generates. {@code args} are the device
 * kernel's arguments in the order of the IR's {@code args} (arrays as the device's Java arrays,
 * lengths, values and trip counts boxed as their stack type).
 */
interface GeneratedKernel {
  /**
   * Runs every work-item of {@code item}'s group in turn (x fastest), setting its local and global
   * ids; for a {@code @Parallel} kernel the group is one work-item: a chunk of the range.
   */
  void run(Object[] args, WorkItem item);

  /** Runs the one work-item {@code item} describes (a work-group whose items meet at barriers runs one thread each). */
  void item(Object[] args, WorkItem item);
}
