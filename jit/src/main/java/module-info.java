// The LoopJIT engine as a module: the public API, the off-heap arrays, the backend SPI and the IR it speaks are exported; the rest is inside.
/**
 * LoopJIT: plain Java {@code @Parallel} loops JIT-compiled from bytecode to OpenCL C and PTX.
 * Programs use {@code dev.loopjit.api} and {@code dev.loopjit.types}; backends implement
 * {@code dev.loopjit.spi}, whose code-generating part speaks {@code dev.loopjit.ir}: the lowered
 * kernels a backend emits ({@code KernelIR}, sealed records), the {@code Target} a backend declares and
 * the {@code MethodRef} of a task. The compiler, the runtime and the backends themselves are not
 * exported. On the module path, native access is granted to this module:
 * {@code --enable-native-access=dev.loopjit} (on the class path: {@code ALL-UNNAMED}).
 */
module dev.loopjit {
  // jvm-mt's vector lanes, where the JVM runs with --add-modules jdk.incubator.vector (LaneVectors)
  requires static jdk.incubator.vector;

  exports dev.loopjit.api;
  exports dev.loopjit.types;
  exports dev.loopjit.spi;
  exports dev.loopjit.ir;

  uses dev.loopjit.api.Engine;
  uses dev.loopjit.spi.Backend;

  provides dev.loopjit.api.Engine with dev.loopjit.runtime.LoopJitEngine;
  provides dev.loopjit.spi.Backend with
      dev.loopjit.backend.jvm.JvmBackend,
      dev.loopjit.backend.jvmmt.JvmMtBackend,
      dev.loopjit.backend.opencl.OpenClBackend,
      dev.loopjit.backend.cuda.CudaBackend;
}
