// The SPIR-V instructions LoopJIT writes: opcode numbers and operand layouts, shared by the encoder and the disassembler.
package dev.loopjit.backend.spirv;

import java.util.HashMap;
import java.util.Map;

/**
 * One constant per instruction (SPIR-V 1.2, section 3.32), with its opcode and the layout of its
 * operands, which the disassembler reads. Layout tokens, separated by blanks: {@code T} result
 * type, {@code R} result id, {@code id} an id, {@code n} a literal number, {@code str} a literal
 * string, {@code val} a constant literal as wide as the result type, {@code ext} an extended
 * instruction (set id and number), {@code pairs} (value, label) or (literal, label) pairs; a
 * trailing {@code *} repeats a token to the end, a trailing {@code ?} makes it optional; capital
 * tokens are enumerants ({@code CAP}, {@code SRC}, {@code EXM}, {@code ADDR}, {@code MEM},
 * {@code MODE}, {@code SC}, {@code DEC}, {@code FC}, {@code MA}).
 */
enum SpirvOp {
  Nop(0, ""),
  Source(3, "SRC n id? str?"),
  Name(5, "id str"),
  String(7, "R str"),
  Line(8, "id n n"),
  Extension(10, "str"),
  ExtInstImport(11, "R str"),
  ExtInst(12, "T R ext id*"),
  MemoryModel(14, "ADDR MEM"),
  EntryPoint(15, "EXM id str id*"),
  ExecutionMode(16, "id MODE n*"),
  Capability(17, "CAP"),
  TypeVoid(19, "R"),
  TypeBool(20, "R"),
  TypeInt(21, "R n n"),
  TypeFloat(22, "R n"),
  TypeVector(23, "R id n"),
  TypeArray(28, "R id id"),
  TypePointer(32, "R SC id"),
  TypeFunction(33, "R id id*"),
  ConstantTrue(41, "T R"),
  ConstantFalse(42, "T R"),
  Constant(43, "T R val"),
  ConstantNull(46, "T R"),
  Function(54, "T R FC id"),
  FunctionParameter(55, "T R"),
  FunctionEnd(56, ""),
  FunctionCall(57, "T R id id*"),
  Variable(59, "T R SC id?"),
  Load(61, "T R id MA?"),
  Store(62, "id id MA?"),
  AccessChain(65, "T R id id*"),
  InBoundsAccessChain(66, "T R id id*"),
  PtrAccessChain(67, "T R id id id*"),
  InBoundsPtrAccessChain(70, "T R id id id*"),
  Decorate(71, "id DEC"),
  CompositeExtract(81, "T R id n*"),
  ConvertFToU(109, "T R id"),
  ConvertFToS(110, "T R id"),
  ConvertSToF(111, "T R id"),
  ConvertUToF(112, "T R id"),
  UConvert(113, "T R id"),
  SConvert(114, "T R id"),
  FConvert(115, "T R id"),
  Bitcast(124, "T R id"),
  SNegate(126, "T R id"),
  FNegate(127, "T R id"),
  IAdd(128, "T R id id"),
  FAdd(129, "T R id id"),
  ISub(130, "T R id id"),
  FSub(131, "T R id id"),
  IMul(132, "T R id id"),
  FMul(133, "T R id id"),
  UDiv(134, "T R id id"),
  SDiv(135, "T R id id"),
  FDiv(136, "T R id id"),
  UMod(137, "T R id id"),
  SRem(138, "T R id id"),
  SMod(139, "T R id id"),
  FRem(140, "T R id id"),
  FMod(141, "T R id id"),
  IsNan(156, "T R id"),
  IsInf(157, "T R id"),
  LogicalEqual(164, "T R id id"),
  LogicalNotEqual(165, "T R id id"),
  LogicalOr(166, "T R id id"),
  LogicalAnd(167, "T R id id"),
  LogicalNot(168, "T R id"),
  Select(169, "T R id id id"),
  IEqual(170, "T R id id"),
  INotEqual(171, "T R id id"),
  UGreaterThan(172, "T R id id"),
  SGreaterThan(173, "T R id id"),
  UGreaterThanEqual(174, "T R id id"),
  SGreaterThanEqual(175, "T R id id"),
  ULessThan(176, "T R id id"),
  SLessThan(177, "T R id id"),
  ULessThanEqual(178, "T R id id"),
  SLessThanEqual(179, "T R id id"),
  FOrdEqual(180, "T R id id"),
  FUnordEqual(181, "T R id id"),
  FOrdNotEqual(182, "T R id id"),
  FUnordNotEqual(183, "T R id id"),
  FOrdLessThan(184, "T R id id"),
  FOrdGreaterThan(186, "T R id id"),
  FOrdLessThanEqual(188, "T R id id"),
  FOrdGreaterThanEqual(190, "T R id id"),
  ShiftRightLogical(194, "T R id id"),
  ShiftRightArithmetic(195, "T R id id"),
  ShiftLeftLogical(196, "T R id id"),
  BitwiseOr(197, "T R id id"),
  BitwiseXor(198, "T R id id"),
  BitwiseAnd(199, "T R id id"),
  Not(200, "T R id"),
  ControlBarrier(224, "id id id"),
  MemoryBarrier(225, "id id"),
  AtomicLoad(227, "T R id id id"),
  AtomicCompareExchange(230, "T R id id id id id id"),
  AtomicIAdd(234, "T R id id id id"),
  Phi(245, "T R pairs"),
  Label(248, "R"),
  Branch(249, "id"),
  BranchConditional(250, "id id id n*"),
  Switch(251, "id id pairs"),
  Return(253, ""),
  Unreachable(255, ""),
  NoLine(317, "");

  /** The opcode (the low 16 bits of an instruction's first word). */
  final int code;
  /** The operand layout, in the tokens above. */
  final String layout;

  SpirvOp(int code, String layout) {
    this.code = code;
    this.layout = layout;
  }

  /** The instruction's spirv-dis name, e.g. {@code OpIAdd}. */
  String spelling() {
    return "Op" + name();
  }

  /** Whether the instruction ends a block. */
  boolean terminates() {
    return this == Branch || this == BranchConditional || this == Switch || this == Return || this == Unreachable;
  }

  private static final Map<Integer, SpirvOp> BY_CODE = new HashMap<>();

  static {
    for (SpirvOp op : values()) BY_CODE.put(op.code, op);
  }

  /** The instruction with opcode {@code code}, or null when LoopJIT does not know it. */
  static SpirvOp of(int code) {
    return BY_CODE.get(code);
  }
}
