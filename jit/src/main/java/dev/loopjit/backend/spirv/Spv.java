// The numbers of the SPIR-V specification LoopJIT uses: enumerants, OpenCL.std instructions, and their names for the disassembler.
package dev.loopjit.backend.spirv;

import java.util.Map;

/**
 * Enumerants of the SPIR-V 1.2 specification (section 3) and the OpenCL.std extended instruction
 * set, as {@code int} constants for the encoder, plus the tables of names the disassembler prints.
 * Opcodes and their operand layouts are {@link SpirvOp}.
 */
final class Spv {
  private Spv() {}

  static final int MAGIC = 0x07230203;

  // 3.2 Source Language
  static final int SOURCE_UNKNOWN = 0;
  // 3.3 Execution Model
  static final int EXECUTION_KERNEL = 6;
  // 3.4 Addressing Model
  static final int ADDRESSING_PHYSICAL64 = 2;
  // 3.5 Memory Model
  static final int MEMORY_OPENCL = 2;
  // 3.6 Execution Mode
  static final int MODE_CONTRACTION_OFF = 31;
  // 3.7 Storage Class
  static final int SC_UNIFORM_CONSTANT = 0, SC_INPUT = 1, SC_WORKGROUP = 4, SC_CROSS_WORKGROUP = 5, SC_FUNCTION = 7,
      SC_GENERIC = 8;
  // 3.20 Decoration
  static final int DEC_BUILTIN = 11, DEC_VOLATILE = 21, DEC_CONSTANT = 22, DEC_FUNC_PARAM_ATTR = 38, DEC_FP_FAST_MATH_MODE = 40,
      DEC_NO_CONTRACTION = 42, DEC_ALIGNMENT = 44;
  // 3.15 FP Fast Math Mode
  static final int FAST_MATH_FAST = 0x10;
  // 3.21 BuiltIn
  static final int BUILTIN_NUM_WORKGROUPS = 24, BUILTIN_WORKGROUP_SIZE = 25, BUILTIN_WORKGROUP_ID = 26,
      BUILTIN_LOCAL_INVOCATION_ID = 27, BUILTIN_GLOBAL_INVOCATION_ID = 28, BUILTIN_GLOBAL_SIZE = 31;
  // 3.24 Function Control
  static final int FUNCTION_NONE = 0;
  // 3.26 Memory Access
  static final int ACCESS_VOLATILE = 1, ACCESS_ALIGNED = 2;
  // 3.27 Scope
  static final int SCOPE_DEVICE = 1, SCOPE_WORKGROUP = 2;
  // 3.25 Memory Semantics
  static final int SEM_RELAXED = 0, SEM_SEQUENTIALLY_CONSISTENT = 0x10, SEM_WORKGROUP_MEMORY = 0x100,
      SEM_CROSS_WORKGROUP_MEMORY = 0x200;
  // 3.31 Capability
  static final int CAP_ADDRESSES = 4, CAP_LINKAGE = 5, CAP_KERNEL = 6, CAP_FLOAT16_BUFFER = 8, CAP_FLOAT64 = 10, CAP_INT64 = 11,
      CAP_INT64_ATOMICS = 12, CAP_INT16 = 22, CAP_INT8 = 39;

  /** OpenCL.std (the "OpenCL.std" extended instruction set, version 100) instruction numbers. */
  static final int CL_ACOS = 0, CL_ASIN = 3, CL_ATAN = 6, CL_ATAN2 = 7, CL_CBRT = 11, CL_CEIL = 12, CL_COS = 14, CL_COSH = 15,
      CL_EXP = 19, CL_EXPM1 = 22, CL_FABS = 23, CL_FLOOR = 25, CL_FMA = 26, CL_FMAX = 27, CL_FMIN = 28, CL_FMOD = 29,
      CL_HYPOT = 32, CL_LOG = 37, CL_LOG10 = 39, CL_LOG1P = 40, CL_POW = 48, CL_RINT = 53, CL_SIN = 57, CL_SINH = 59,
      CL_SQRT = 61, CL_TAN = 62, CL_TANH = 63, CL_CLZ = 151, CL_POPCOUNT = 166, CL_VLOAD_HALF = 173, CL_VSTORE_HALF = 175;

  static final Map<Integer, String> OPENCL_STD = Map.ofEntries(Map.entry(CL_ACOS, "acos"), Map.entry(CL_ASIN, "asin"),
      Map.entry(CL_ATAN, "atan"), Map.entry(CL_ATAN2, "atan2"), Map.entry(CL_CBRT, "cbrt"), Map.entry(CL_CEIL, "ceil"),
      Map.entry(CL_COS, "cos"), Map.entry(CL_COSH, "cosh"), Map.entry(CL_EXP, "exp"), Map.entry(CL_EXPM1, "expm1"),
      Map.entry(CL_FABS, "fabs"), Map.entry(CL_FLOOR, "floor"), Map.entry(CL_FMA, "fma"), Map.entry(CL_FMAX, "fmax"),
      Map.entry(CL_FMIN, "fmin"), Map.entry(CL_FMOD, "fmod"), Map.entry(CL_HYPOT, "hypot"), Map.entry(CL_LOG, "log"),
      Map.entry(CL_LOG10, "log10"), Map.entry(CL_LOG1P, "log1p"), Map.entry(CL_POW, "pow"), Map.entry(CL_RINT, "rint"),
      Map.entry(CL_SIN, "sin"), Map.entry(CL_SINH, "sinh"), Map.entry(CL_SQRT, "sqrt"), Map.entry(CL_TAN, "tan"),
      Map.entry(CL_TANH, "tanh"), Map.entry(CL_CLZ, "clz"), Map.entry(CL_POPCOUNT, "popcount"),
      Map.entry(CL_VLOAD_HALF, "vload_half"), Map.entry(CL_VSTORE_HALF, "vstore_half"));

  // ---- names for the disassembler (spirv-dis spells them the same way) ----------------------------

  static final Map<Integer, String> CAPABILITY = Map.ofEntries(Map.entry(0, "Matrix"), Map.entry(1, "Shader"),
      Map.entry(CAP_ADDRESSES, "Addresses"), Map.entry(CAP_LINKAGE, "Linkage"), Map.entry(CAP_KERNEL, "Kernel"),
      Map.entry(7, "Vector16"), Map.entry(CAP_FLOAT16_BUFFER, "Float16Buffer"), Map.entry(9, "Float16"),
      Map.entry(CAP_FLOAT64, "Float64"), Map.entry(CAP_INT64, "Int64"), Map.entry(CAP_INT64_ATOMICS, "Int64Atomics"),
      Map.entry(CAP_INT16, "Int16"), Map.entry(CAP_INT8, "Int8"), Map.entry(38, "GenericPointer"));
  static final Map<Integer, String> SOURCE_LANGUAGE = Map.of(0, "Unknown", 1, "ESSL", 2, "GLSL", 3, "OpenCL_C", 4, "OpenCL_CPP",
      5, "HLSL");
  static final Map<Integer, String> EXECUTION_MODEL = Map.of(0, "Vertex", 4, "Fragment", 5, "GLCompute", EXECUTION_KERNEL, "Kernel");
  static final Map<Integer, String> ADDRESSING = Map.of(0, "Logical", 1, "Physical32", ADDRESSING_PHYSICAL64, "Physical64");
  static final Map<Integer, String> MEMORY_MODEL = Map.of(0, "Simple", 1, "GLSL450", MEMORY_OPENCL, "OpenCL");
  static final Map<Integer, String> EXECUTION_MODE = Map.of(17, "LocalSize", 18, "LocalSizeHint", 30, "VecTypeHint",
      MODE_CONTRACTION_OFF, "ContractionOff");
  static final Map<Integer, String> STORAGE_CLASS = Map.of(SC_UNIFORM_CONSTANT, "UniformConstant", SC_INPUT, "Input", 2, "Uniform",
      3, "Output", SC_WORKGROUP, "Workgroup", SC_CROSS_WORKGROUP, "CrossWorkgroup", 6, "Private", SC_FUNCTION, "Function",
      SC_GENERIC, "Generic");
  static final Map<Integer, String> DECORATION = Map.ofEntries(Map.entry(DEC_BUILTIN, "BuiltIn"), Map.entry(19, "Restrict"),
      Map.entry(20, "Aliased"), Map.entry(DEC_VOLATILE, "Volatile"), Map.entry(DEC_CONSTANT, "Constant"),
      Map.entry(28, "SaturatedConversion"), Map.entry(DEC_FUNC_PARAM_ATTR, "FuncParamAttr"), Map.entry(39, "FPRoundingMode"),
      Map.entry(40, "FPFastMathMode"), Map.entry(41, "LinkageAttributes"), Map.entry(DEC_NO_CONTRACTION, "NoContraction"),
      Map.entry(DEC_ALIGNMENT, "Alignment"));
  static final Map<Integer, String> BUILTIN = Map.of(BUILTIN_NUM_WORKGROUPS, "NumWorkgroups", BUILTIN_WORKGROUP_SIZE, "WorkgroupSize",
      BUILTIN_WORKGROUP_ID, "WorkgroupId", BUILTIN_LOCAL_INVOCATION_ID, "LocalInvocationId", BUILTIN_GLOBAL_INVOCATION_ID,
      "GlobalInvocationId", BUILTIN_GLOBAL_SIZE, "GlobalSize", 32, "EnqueuedWorkgroupSize", 34, "GlobalLinearId");
  static final Map<Integer, String> FUNCTION_CONTROL = Map.of(1, "Inline", 2, "DontInline", 4, "Pure", 8, "Const");
  static final Map<Integer, String> FAST_MATH = Map.of(1, "NotNaN", 2, "NotInf", 4, "NSZ", 8, "AllowRecip", FAST_MATH_FAST, "Fast");
  static final Map<Integer, String> MEMORY_ACCESS = Map.of(ACCESS_VOLATILE, "Volatile", ACCESS_ALIGNED, "Aligned", 4, "Nontemporal");

  /** The spirv-dis spelling of a value of an enumeration, or the number where it is not in the table. */
  static String name(Map<Integer, String> table, int value) {
    String n = table.get(value);
    return n != null ? n : Integer.toString(value);
  }

  /** The spirv-dis spelling of a bitmask: names joined with {@code |}, {@code None} for 0. */
  static String mask(Map<Integer, String> table, int value) {
    if (value == 0) return "None";
    StringBuilder b = new StringBuilder();
    for (int bit = 0; bit < 32; bit++) {
      int m = 1 << bit;
      if ((value & m) == 0) continue;
      if (!b.isEmpty()) b.append('|');
      b.append(table.containsKey(m) ? table.get(m) : "0x" + Integer.toHexString(m));
    }
    return b.toString();
  }
}
