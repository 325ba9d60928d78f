// TornadoVM's device kinds, for TornadoDevice.getDeviceType(): GPU, CPU, ACCELERATOR and JAVA are the ones LoopJIT's devices have.
package dev.loopjit.api;

/** What a device is, under TornadoVM's names; {@link Device#kind()} is LoopJIT's. */
public enum TornadoDeviceType {
  DEFAULT, CPU, GPU, FPGA, ACCELERATOR, CUSTOM, ALL, JAVA;

  static TornadoDeviceType of(Device.Kind kind) {
    return switch (kind) {
      case GPU -> GPU;
      case CPU -> CPU;
      case ACCELERATOR -> ACCELERATOR;
      case JVM -> JAVA;
    };
  }
}
