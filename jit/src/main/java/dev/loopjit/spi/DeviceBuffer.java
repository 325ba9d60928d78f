// A device's copy of one host array.
package dev.loopjit.spi;

/** Device memory holding one host array's data. */
public interface DeviceBuffer {
  HostArray host();

  /** Whether the device uses the host memory itself, so that copies move nothing. */
  boolean inPlace();

  /** Frees the device memory. */
  void release();
}
