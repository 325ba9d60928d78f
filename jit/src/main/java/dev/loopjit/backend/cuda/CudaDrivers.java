// Which Cuda a driver name means: a native library (CudaLibrary) or, as java:ClassName, a driver written in Java; each loaded once.
package dev.loopjit.backend.cuda;

import dev.loopjit.backend.cuda.Cuda.Loaded;
import java.util.HashMap;
import java.util.Map;

/** Loads each driver name once per process; never throws, so discovery on a machine without a driver only reports. */
final class CudaDrivers {
  private static final Map<String, Loaded> LOADED = new HashMap<>();

  private CudaDrivers() {}

  static synchronized Loaded load(String name) {
    return LOADED.computeIfAbsent(name, n -> n.startsWith("java:") ? inJava(n.substring(5)) : CudaLibrary.open(n));
  }

  private static Loaded inJava(String className) {
    Cuda cuda;
    try {
      cuda = (Cuda) Class.forName(className).getConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
      return new Loaded(null, "java:" + className + " is not a usable CUDA driver class: " + e);
    }
    return Cuda.initialized(cuda);
  }
}
