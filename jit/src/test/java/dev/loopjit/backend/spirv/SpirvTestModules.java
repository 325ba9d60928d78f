// Hand-made SPIR-V modules for runtime tests that need what the emitter never writes.
package dev.loopjit.backend.spirv;

/** Modules built with the encoder directly. */
public final class SpirvTestModules {
  private SpirvTestModules() {}

  /**
   * A valid kernel {@code k()} that calls {@code loopjit_undefined_function}, imported (Linkage)
   * and defined nowhere: spirv-val and the translator accept it, a driver's build must fail.
   */
  public static byte[] callsAnUndefinedFunction() {
    SpirvModule m = new SpirvModule();
    m.capability(Spv.CAP_LINKAGE);
    m.memoryModel(Spv.ADDRESSING_PHYSICAL64, Spv.MEMORY_OPENCL);
    int kernel = m.id(), external = m.id(), entry = m.id(), call = m.id();
    int voidType = m.voidType(), fn = m.functionType(voidType);
    m.entryPoint(Spv.EXECUTION_KERNEL, kernel, "k");
    int[] name = SpirvModule.string("loopjit_undefined_function"), linkage = java.util.Arrays.copyOf(name, name.length + 1);
    linkage[name.length] = 1;   // Import
    m.decorate(external, 41, linkage);   // LinkageAttributes
    SpirvModule.Words f = m.functions();
    SpirvModule.emit(f, SpirvOp.Function, voidType, external, Spv.FUNCTION_NONE, fn);
    SpirvModule.emit(f, SpirvOp.FunctionEnd);
    SpirvModule.emit(f, SpirvOp.Function, voidType, kernel, Spv.FUNCTION_NONE, fn);
    SpirvModule.emit(f, SpirvOp.Label, entry);
    SpirvModule.emit(f, SpirvOp.FunctionCall, voidType, call, external);
    SpirvModule.emit(f, SpirvOp.Return);
    SpirvModule.emit(f, SpirvOp.FunctionEnd);
    return SpirvModule.bytes(m.words(0x00010200));
  }
}
