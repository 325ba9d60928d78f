// The kernel method being written: its CodeBuilder, local slots, jump labels and array-access handlers, shared by the emitter's parts.
package dev.loopjit.backend.jvmmt;

import static dev.loopjit.backend.jvmmt.BytecodeTypes.ITEM;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.OOB;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.desc;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Read;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of the {@code kernel} method's body: the ClassFile API may run its handler again (to
 * rewrite jumps or dead code), and each run gets a fresh body, or labels of the first run's builder
 * leak into the second ("Unexpected label context"). The parts of the emitter work on it:
 * {@link BytecodeStatements}, {@link BytecodeExpressions}, {@link BytecodeIntrinsics}, {@link
 * BytecodeLanes} (Vector API lanes) and {@link BytecodeGroups} (work-groups with barriers).
 */
final class BytecodeBody {
  final KernelIR ir;
  final CodeBuilder code;
  final Map<Var, Integer> slots = new HashMap<>();
  final Map<dev.loopjit.ir.Label, Label[]> jumps = new HashMap<>();   // IR label -> {end, next}
  final List<Handler> handlers = new ArrayList<>();
  private final Map<Var, String> arrayNames;
  final int itemSlot;                                                   // the WorkItem parameter
  private int localSites;
  Src at = Src.NONE;                                                    // the statement being emitted

  final BytecodeStatements statements;
  final BytecodeExpressions expressions;
  final BytecodeIntrinsics intrinsics;
  final BytecodeLanes lanes;
  final BytecodeGroups groups;

  /** An access's handler: the message's description, and the array's Java name and the source line apart, for the runtime. */
  record Handler(Label label, String where, String array, String source) {}

  /**
   * {@code arrayNames}: the array parameters as failure messages name them; {@code fission}: the
   * kernel's barrier regions, or null; {@code vectorChoices}: the lane iterations to run as vectors.
   */
  BytecodeBody(KernelIR ir, CodeBuilder code, Map<Var, String> arrayNames, Fission fission, Map<Stmt, LaneVectors.Choice> vectorChoices) {
    this.ir = ir;
    this.code = code;
    this.arrayNames = arrayNames;
    this.itemSlot = code.parameterSlot(ir.args().size());
    this.statements = new BytecodeStatements(this);
    this.expressions = new BytecodeExpressions(this);
    this.intrinsics = new BytecodeIntrinsics(this);
    this.lanes = new BytecodeLanes(this, vectorChoices);
    this.groups = new BytecodeGroups(this, fission);
  }

  int slot(Var v) {
    Integer s = slots.get(v);
    if (s == null) throw new IllegalStateException("variable " + v + " has no slot in " + ir.name());
    return s;
  }

  /** {@code s} becomes the statement whose line failures name, and the line of the code that follows. */
  void at(Src s) {
    at = s;
    if (at.line() > 0 && at.line() <= 0xFFFF) code.lineNumber(at.line());
  }

  /** Pushes the group's local array of type {@code t} for a new allocation site, {@code length} pushing its length. */
  void localArray(ArrayType t, Runnable length) {
    String m = switch (t.element()) {
      case INT -> "localInt";
      case LONG -> "localLong";
      case FLOAT -> "localFloat";
      case DOUBLE -> "localDouble";
      case SHORT, HALF -> "localShort";
      case BYTE -> "localByte";
      case CHAR -> "localChar";
      case BOOLEAN -> "localBoolean";
    };
    code.aload(itemSlot).loadConstant(localSites++);
    length.run();
    code.invokevirtual(ITEM, m, MethodTypeDesc.of(desc(t), ConstantDescs.CD_int, ConstantDescs.CD_int));
  }

  /** Emits an array access with a handler of its own that names the array and the line. */
  void guarded(Expr array, Runnable access) {
    Label start = code.newLabel(), end = code.newLabel(), handler = code.newLabel();
    code.labelBinding(start);
    access.run();
    code.labelBinding(end);
    code.exceptionCatch(start, end, handler, OOB);
    handlers.add(new Handler(handler, describe(array) + " at " + where(at), javaName(array), where(at)));
  }

  String describe(Expr array) {
    if (array instanceof Read r) {
      String param = arrayNames.get(r.var());
      if (param != null) return param;
      ArrayType t = (ArrayType) r.var().type();
      // a private array is named by its allocation, as the bounds pass names it on the other devices
      if (t.space() == ArrayType.Space.PRIVATE) return "private array 'new " + t.element() + "[" + (t.launchSized() ? "n" : t.length()) + "]'";
      return (t.space() == ArrayType.Space.GLOBAL ? "array" : t.space().name().toLowerCase() + " array") + " '" + r.var().name() + "'";
    }
    return "an array";
  }

  /** The array's name as the other devices' reports give it: the parameter or local, or {@code new int[5]} for a private array. */
  static String javaName(Expr array) {
    if (!(array instanceof Read r)) return "";
    ArrayType t = (ArrayType) r.var().type();
    return t.space() == ArrayType.Space.PRIVATE ? "new " + t.element() + "[" + (t.launchSized() ? "n" : t.length()) + "]" : r.var().name();
  }

  static String where(Src s) {
    if (s == Src.NONE) return "an unknown line";
    StringBuilder b = new StringBuilder(s.describe());
    for (Src c = s.caller(); c != null; c = c.caller()) b.append(", called from ").append(c.describe());
    return b.toString();
  }
}
