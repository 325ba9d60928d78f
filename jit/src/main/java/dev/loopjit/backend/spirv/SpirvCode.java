// The function being written: its blocks, its Function variables, OpLine positions, and the IR's types as SPIR-V types.
package dev.loopjit.backend.spirv;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Type;

/**
 * The body of the one kernel function. Instructions go into the block that is open; a terminator
 * closes it, and an instruction written while none is open starts a fresh block (code after a
 * {@code break} or {@code return}, which nothing reaches). Opening a labelled block while one is
 * open branches into it first, so fall-through needs no explicit branch. Blocks appear in the
 * order they are opened, which for structured IR puts every block after the blocks that dominate
 * it, as SPIR-V requires. Each block starts without a line; the first instruction written for a
 * statement with another source line than the block's last gets an {@code OpLine} before it.
 */
final class SpirvCode {
  final SpirvModule m;
  /** The OpenCL.std extended instruction set. */
  final int openclStd;
  private final SpirvModule.Words variables = new SpirvModule.Words(), main = new SpirvModule.Words();
  private final int entry;
  private final boolean fastMath;
  /** Where instructions go: the body, or the prologue the entry block starts with. */
  private SpirvModule.Words body = main;
  private int open;
  private int file = -1, line = -1;
  private int lineFile = -1, lineLine = -1;

  /**
   * @param entry    the label of the first block, which {@link #function} writes before the variables
   * @param fastMath whether float arithmetic may be relaxed
   */
  SpirvCode(SpirvModule m, int entry, boolean fastMath) {
    this.fastMath = fastMath;
    this.m = m;
    this.openclStd = m.importSet("OpenCL.std");
    this.entry = entry;
    this.open = entry;
  }

  // ---- types --------------------------------------------------------------------------------

  /** The SPIR-V type of a value of stack type {@code p}: bool, int, long, float, double. */
  int valueType(Prim p) {
    if (p == Prim.BOOLEAN) return m.boolType();   // a condition (stackType() would call it an int)
    return switch (p.stackType()) {
      case INT -> m.intType(32);
      case LONG -> m.intType(64);
      case FLOAT -> m.floatType(32);
      case DOUBLE -> m.floatType(64);
      default -> throw new IllegalStateException("no value type for " + p);
    };
  }

  /** The SPIR-V type of a value of IR type {@code t}: arrays are pointers to their first element. */
  int valueType(Type t) {
    return t instanceof ArrayType a ? pointerTo(a) : valueType((Prim) t);
  }

  /** What a variable of IR type {@code t} holds in memory: booleans as an int 0/1 (bool has no size in memory). */
  int storedType(Type t) {
    return t == Prim.BOOLEAN ? m.intType(32) : valueType(t);
  }

  /** The type of an array element in memory; half is a 16-bit float behind global pointers and raw bits elsewhere. */
  int elementType(Prim element, ArrayType.Space space) {
    return switch (element) {
      case BOOLEAN, BYTE -> m.intType(8);
      case CHAR, SHORT -> m.intType(16);
      case INT -> m.intType(32);
      case LONG -> m.intType(64);
      case FLOAT -> m.floatType(32);
      case DOUBLE -> m.floatType(64);
      case HALF -> space == ArrayType.Space.GLOBAL ? m.floatType(16) : m.intType(16);
    };
  }

  static int storageClass(ArrayType.Space space) {
    return switch (space) {
      case GLOBAL -> Spv.SC_CROSS_WORKGROUP;
      case LOCAL -> Spv.SC_WORKGROUP;
      case PRIVATE -> Spv.SC_FUNCTION;
    };
  }

  /** A pointer to an element of {@code a}, in its storage class. */
  int pointerTo(ArrayType a) {
    return m.pointerType(storageClass(a.space()), elementType(a.element(), a.space()));
  }

  int intConstant(int value) {
    return m.constant(m.intType(32), value);
  }

  int longConstant(long value) {
    return m.constant(m.intType(64), value);
  }

  // ---- positions ----------------------------------------------------------------------------

  /** The source position of what is written next (a statement's); lines below 0 write no OpLine. */
  void at(Src src) {
    if (src == null || src.line() < 0) {
      file = -1;
      line = -1;
      return;
    }
    file = m.debugString(fileOf(src.className()));
    line = src.line();
  }

  /** {@code dev/loopjit/Kernels.java} for {@code dev.loopjit.Kernels$Inner}: where javac found the class. */
  static String fileOf(String className) {
    String outer = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
    return outer.replace('.', '/') + ".java";
  }

  // ---- blocks -------------------------------------------------------------------------------

  /** Whether a block is open (code written now is reachable unless the block itself is not). */
  boolean isOpen() {
    return open >= 0;
  }

  /** Starts block {@code label}; an open block falls through into it. */
  void block(int label) {
    if (open >= 0) branch(label);
    SpirvModule.emit(body, SpirvOp.Label, label);
    open = label;
    lineFile = lineLine = -1;
  }

  /** The block being written (after opening a fresh one if none is open): a predecessor for an OpPhi. */
  int current() {
    ensureOpen();
    return open;
  }

  void branch(int target) {
    if (open < 0) return;     // nothing reaches here: the jump is dead
    SpirvModule.emit(body, SpirvOp.Branch, target);
    open = -1;
  }

  void branchConditional(int condition, int ifTrue, int ifFalse) {
    ensureOpen();
    emitLine();
    SpirvModule.emit(body, SpirvOp.BranchConditional, condition, ifTrue, ifFalse);
    open = -1;
  }

  /** OpSwitch on a 32-bit selector: {@code cases} are (literal, label) pairs. */
  void switchTo(int selector, int otherwise, int[] cases) {
    ensureOpen();
    emitLine();
    SpirvModule.emit(body, SpirvOp.Switch, selector, otherwise, cases);
    open = -1;
  }

  void returnVoid() {
    if (open < 0) return;
    emitLine();
    SpirvModule.emit(body, SpirvOp.Return);
    open = -1;
  }

  private void ensureOpen() {
    if (open < 0) block(m.id());
  }

  private void emitLine() {
    if (file == lineFile && line == lineLine) return;
    if (file < 0) SpirvModule.emit(body, SpirvOp.NoLine);
    else SpirvModule.emit(body, SpirvOp.Line, file, line, 0);
    lineFile = file;
    lineLine = line;
  }

  // ---- instructions -------------------------------------------------------------------------

  /** An instruction with a result of {@code type}; returns the result id. */
  int op(SpirvOp op, int type, Object... operands) {
    int id = m.id();
    opInto(id, op, type, operands);
    return id;
  }

  /** {@link #op}, writing the result id {@code id} taken earlier (an OpPhi above may already name it). */
  void opInto(int id, SpirvOp op, int type, Object... operands) {
    ensureOpen();
    emitLine();
    Object[] all = new Object[operands.length + 2];
    all[0] = type;
    all[1] = id;
    System.arraycopy(operands, 0, all, 2, operands.length);
    SpirvModule.emit(body, op, all);
  }

  /** An instruction without a result (a store, a barrier). */
  void effect(SpirvOp op, Object... operands) {
    ensureOpen();
    emitLine();
    SpirvModule.emit(body, op, operands);
  }

  /**
   * Float arithmetic. Java never contracts a multiply and an add into an FMA; the NoContraction
   * decoration that would say so per instruction needs the Shader capability, which OpenCL
   * environments do not have, so the kernel says it once with the ContractionOff execution mode
   * (see SpirvEmitter). Fast math leaves that out and decorates each operation
   * {@code FPFastMathMode Fast}, as {@code -cl-fast-relaxed-math} relaxes OpenCL C (a build option
   * a driver may ignore for SPIR-V).
   */
  int arithmetic(SpirvOp op, int type, int a, int b) {
    int id = op(op, type, a, b);
    if (fastMath) m.decorate(id, Spv.DEC_FP_FAST_MATH_MODE, Spv.FAST_MATH_FAST);
    return id;
  }

  /** An OpenCL.std instruction. */
  int ext(int type, int instruction, int... args) {
    return op(SpirvOp.ExtInst, type, openclStd, instruction, args);
  }

  /** OpPhi of (value, predecessor) pairs; written before any line of the block, as phis must come first. */
  int phi(int type, int... pairs) {
    int id = m.id();
    phiInto(id, type, pairs);
    return id;
  }

  /** {@link #phi} with a result id taken earlier. */
  void phiInto(int id, int type, int... pairs) {
    ensureOpen();
    SpirvModule.emit(body, SpirvOp.Phi, type, id, pairs);
  }

  /** A Function variable in the entry block, as SPIR-V wants every one; returns its pointer. */
  int variable(int pointee, String name) {
    int id = m.id();
    SpirvModule.emit(variables, SpirvOp.Variable, m.pointerType(Spv.SC_FUNCTION, pointee), id, Spv.SC_FUNCTION);
    if (name != null) m.name(id, name);
    return id;
  }

  int load(int type, int pointer) {
    return op(SpirvOp.Load, type, pointer);
  }

  void store(int pointer, int value) {
    effect(SpirvOp.Store, pointer, value);
  }

  /**
   * Starts the prologue: straight-line code in the entry block, written after the body (when every
   * variable is known) but placed before it. It has no source lines.
   */
  void beginPrologue() {
    returnVoid();
    body = new SpirvModule.Words();
    open = entry;
    at(null);
    lineFile = lineLine = -1;
  }

  /** Ends the prologue and returns it. */
  SpirvModule.Words endPrologue() {
    if (open != entry) throw new IllegalStateException("the prologue left the entry block");
    SpirvModule.Words p = body;
    body = main;
    open = -1;
    return p;
  }

  /** The whole function: OpFunction, its parameters, the entry label, the variables, the prologue, the body, OpFunctionEnd. */
  void function(SpirvModule.Words out, int function, int voidType, int functionType, int[] params, int[] paramTypes,
      SpirvModule.Words prologue) {
    SpirvModule.emit(out, SpirvOp.Function, voidType, function, Spv.FUNCTION_NONE, functionType);
    for (int i = 0; i < params.length; i++) SpirvModule.emit(out, SpirvOp.FunctionParameter, paramTypes[i], params[i]);
    SpirvModule.emit(out, SpirvOp.Label, entry);
    out.addAll(variables);
    out.addAll(prologue);
    out.addAll(main);
    SpirvModule.emit(out, SpirvOp.FunctionEnd);
  }
}
