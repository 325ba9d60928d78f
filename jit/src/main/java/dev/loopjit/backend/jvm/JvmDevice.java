// The JVM as a device: its cores, heap and Java's floating point.
package dev.loopjit.backend.jvm;

import dev.loopjit.api.Device;

/** The {@code jvm} device. */
record JvmDevice() implements Device {
  @Override public String id() { return "jvm"; }
  @Override public String name() { return "Java " + Runtime.version().feature() + " (" + System.getProperty("java.vm.name") + ")"; }
  @Override public String backend() { return "jvm"; }
  @Override public Kind kind() { return Kind.JVM; }
  @Override public int computeUnits() { return Runtime.getRuntime().availableProcessors(); }
  @Override public long memoryBytes() { return Runtime.getRuntime().maxMemory(); }
  @Override public long localMemoryBytes() { return Runtime.getRuntime().maxMemory(); }
  @Override public int maxWorkGroupSize() { return 1024; }
  @Override public boolean supportsFp64() { return true; }
  @Override public boolean supportsFp16() { return true; }
  @Override public String driverVersion() { return System.getProperty("java.vm.version"); }
}
