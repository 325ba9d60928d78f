// The duration of an enqueued copy or launch, readable once the device has finished.
package dev.loopjit.spi;

/** Nanoseconds an operation took on the device; valid after {@link DeviceRuntime#finish()}. */
@FunctionalInterface
public interface Timing {
  long nanos();

  Timing NONE = () -> 0;

  static Timing of(long nanos) {
    return () -> nanos;
  }
}
