// How a prebuilt kernel uses each of its array arguments, so the plan copies only what it must.
package dev.loopjit.api;

/** How a kernel uses an argument: given to {@link PrebuiltKernel}s, which the JIT cannot read. */
public enum Access {
  /** The kernel only reads it. */
  READ,
  /** The kernel only writes it. */
  WRITE,
  /** The kernel reads and writes it. */
  READ_WRITE,
  /** The kernel does not touch it, or it is not an array. */
  NONE,
  /** TornadoVM's name for {@link #READ}: the same. */
  READ_ONLY,
  /** TornadoVM's name for {@link #WRITE}: the same. */
  WRITE_ONLY
}
