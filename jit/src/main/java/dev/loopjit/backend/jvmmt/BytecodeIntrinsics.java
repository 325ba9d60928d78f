// The IR's intrinsics in JVM bytecode: work-item ids, barriers, atomics, Math's functions, bit conversions, exact-math failures, Debug.printf.
package dev.loopjit.backend.jvmmt;

import static dev.loopjit.backend.jvmmt.BytecodeBody.javaName;
import static dev.loopjit.backend.jvmmt.BytecodeBody.where;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.DOUBLE;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.FAILURES;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.FLOAT;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.INTEGER;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.ITEM;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.LONG;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.OOB;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.desc;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.kind;

import dev.loopjit.compiler.ExactMath;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Call;
import dev.loopjit.ir.Expr.Const;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.PrintFormat;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
import java.util.List;

/**
 * A call of an intrinsic pushes its value (or nothing, {@code VOID}). The work-item's ids are the
 * {@link WorkItem}'s fields, or in a group-mode region the loop's own ids; {@link Math}'s own
 * functions give results bit-identical to the {@code jvm} device's calls; an atomic access has a
 * handler that names the array, as every array access does.
 */
final class BytecodeIntrinsics {
  private static final ClassDesc ATOMICS = ClassDesc.of("dev.loopjit.backend.jvmmt.Atomics");
  private static final ClassDesc MATH = ClassDesc.of("java.lang.Math");
  private static final ClassDesc DEBUG = ClassDesc.of("dev.loopjit.api.Debug");

  private final BytecodeBody body;
  private final CodeBuilder code;

  BytecodeIntrinsics(BytecodeBody body) {
    this.body = body;
    this.code = body.code;
  }

  TypeKind call(Call c) {
    Intrinsic op = c.op();
    List<Expr> a = c.args();
    switch (op) {
      case GLOBAL_ID, LOCAL_ID, GROUP_ID, GLOBAL_SIZE, LOCAL_SIZE -> {
        int d = (int) ((Const) a.get(0)).longValue();
        BytecodeGroups groups = body.groups;
        if (groups.inItem() && op == Intrinsic.LOCAL_ID) {
          code.iload(groups.localId(d));
          return TypeKind.INT;
        }
        if (groups.inItem() && op == Intrinsic.GLOBAL_ID) {
          code.aload(body.itemSlot).getfield(ITEM, "w" + d, ConstantDescs.CD_int).aload(body.itemSlot).getfield(ITEM, "s" + d, ConstantDescs.CD_int)
              .imul().iload(groups.localId(d)).iadd();
          return TypeKind.INT;
        }
        String field = switch (op) {
          case GLOBAL_ID -> "g"; case LOCAL_ID -> "l"; case GROUP_ID -> "w"; case GLOBAL_SIZE -> "n"; default -> "s";
        };
        code.aload(body.itemSlot).getfield(ITEM, field + d, ConstantDescs.CD_int);
        return TypeKind.INT;
      }
      case PRINTF -> {
        printf(c);
        return TypeKind.VOID;
      }
      case THROW -> {   // a Math.*Exact that overflowed, or a Character call beyond Latin-1: naming the kernel's line
        int which = a.get(0) instanceof Const k && k.value() instanceof Number n ? n.intValue() : -1;
        if (a.size() > 1) {   // the value no kernel answers (a code point)
          code.ldc(ExactMath.message(which));
          expr(a.get(1));
          code.ldc(where(ExactMath.callSite(body.at))).invokestatic(FAILURES, "unsupported",
              MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_String, ConstantDescs.CD_int, ConstantDescs.CD_String));
          return TypeKind.VOID;
        }
        code.ldc(ExactMath.message(which)).ldc(where(ExactMath.callSite(body.at)))
            .invokestatic(FAILURES, "arithmetic", MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_String, ConstantDescs.CD_String));
        return TypeKind.VOID;
      }
      case BARRIER_LOCAL, BARRIER_GLOBAL -> {
        code.aload(body.itemSlot).invokevirtual(ITEM, "barrier", ConstantDescs.MTD_void);
        return TypeKind.VOID;
      }
      case ATOMIC_ADD, ATOMIC_CAS -> {
        ArrayType t = (ArrayType) a.get(0).type();
        ClassDesc e = desc(t.element().stackType());
        for (Expr x : a) expr(x);
        List<ClassDesc> params = new ArrayList<>(List.of(desc(t), ConstantDescs.CD_int, e));
        if (op == Intrinsic.ATOMIC_CAS) params.add(e);
        String name = op == Intrinsic.ATOMIC_ADD ? "add" : "cas";
        Label start = code.newLabel(), end = code.newLabel(), handler = code.newLabel();
        code.labelBinding(start);
        code.invokestatic(ATOMICS, name, MethodTypeDesc.of(e, params));
        code.labelBinding(end);
        code.exceptionCatch(start, end, handler, OOB);
        body.handlers.add(new BytecodeBody.Handler(handler, body.describe(a.get(0)) + " (atomic) at " + where(body.at), javaName(a.get(0)),
            where(body.at)));
        return kind(t.element().stackType());
      }
      case ADD_NO_WRAP, MUL_NO_WRAP -> {
        expr(a.get(0));
        expr(a.get(1));
        body.expressions.arithmetic(op == Intrinsic.ADD_NO_WRAP ? Op.Binary.ADD : Op.Binary.MUL, TypeKind.INT);
        return TypeKind.INT;
      }
      case DIV_UNCHECKED, REM_UNCHECKED -> {
        // the legalise pass proved the divisor neither 0 nor -1: idiv, ldiv, irem, lrem are Java's / and % there
        TypeKind k = expr(a.get(0));
        expr(a.get(1));
        body.expressions.arithmetic(op == Intrinsic.DIV_UNCHECKED ? Op.Binary.DIV : Op.Binary.REM, k);
        return k;
      }
      case FMA, ABS, MIN, MAX -> {
        if (op == Intrinsic.ABS && a.get(0).prim().isIntegral())
          throw new IllegalStateException("integer abs reaches the emitter only legalised (the legalise pass)");
        // integer min and max are Math's; floating ones are Math's too (Java's own), where fast math left them
        for (Expr x : a) expr(x);
        ClassDesc t = desc(c.type().stackType());
        ClassDesc[] params = new ClassDesc[a.size()];
        java.util.Arrays.fill(params, t);
        code.invokestatic(MATH, op.name().toLowerCase(), MethodTypeDesc.of(t, params));
        return kind(c.type().stackType());
      }
      case FLOAT_BITS -> { expr(a.get(0)); code.invokestatic(FLOAT, "floatToRawIntBits", MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_float)); return TypeKind.INT; }
      case BITS_FLOAT -> { expr(a.get(0)); code.invokestatic(FLOAT, "intBitsToFloat", MethodTypeDesc.of(ConstantDescs.CD_float, ConstantDescs.CD_int)); return TypeKind.FLOAT; }
      case DOUBLE_BITS -> { expr(a.get(0)); code.invokestatic(DOUBLE, "doubleToRawLongBits", MethodTypeDesc.of(ConstantDescs.CD_long, ConstantDescs.CD_double)); return TypeKind.LONG; }
      case BITS_DOUBLE -> { expr(a.get(0)); code.invokestatic(DOUBLE, "longBitsToDouble", MethodTypeDesc.of(ConstantDescs.CD_double, ConstantDescs.CD_long)); return TypeKind.DOUBLE; }
      case POPCOUNT, CLZ, CTZ -> {
        TypeKind k = expr(a.get(0));
        String name = switch (op) { case POPCOUNT -> "bitCount"; case CLZ -> "numberOfLeadingZeros"; default -> "numberOfTrailingZeros"; };
        if (k == TypeKind.LONG) code.invokestatic(LONG, name, MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_long));
        else code.invokestatic(INTEGER, name, MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_int));
        return TypeKind.INT;
      }
      default -> {
        // Math's double functions; a float call (fast math) goes through double, which is exact for these
        for (Expr x : a) if (expr(x) == TypeKind.FLOAT) code.f2d();
        ClassDesc[] params = new ClassDesc[a.size()];
        java.util.Arrays.fill(params, ConstantDescs.CD_double);
        code.invokestatic(MATH, op.name().toLowerCase(), MethodTypeDesc.of(ConstantDescs.CD_double, params));
        if (c.type() == Prim.FLOAT) {
          code.d2f();
          return TypeKind.FLOAT;
        }
        return TypeKind.DOUBLE;
      }
    }
  }

  /**
   * {@code Debug.printf(format, values)} as the {@code jvm} device calls it, each value boxed as its
   * stack type (Debug prints an Integer holding a short as the short): one call, however long the format.
   */
  private void printf(Call c) {
    List<Expr> values = PrintFormat.values(c);
    code.loadConstant(PrintFormat.of(c).text()).loadConstant(values.size()).anewarray(ConstantDescs.CD_Object);
    for (int k = 0; k < values.size(); k++) {
      code.dup().loadConstant(k);
      TypeKind t = expr(values.get(k));
      ClassDesc box = switch (t) {
        case LONG -> LONG;
        case FLOAT -> FLOAT;
        case DOUBLE -> DOUBLE;
        default -> INTEGER;
      };
      code.invokestatic(box, "valueOf", MethodTypeDesc.of(box, t.upperBound()));
      code.aastore();
    }
    code.invokestatic(DEBUG, "printf", MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_String, ConstantDescs.CD_Object.arrayType()));
  }

  private TypeKind expr(Expr e) {
    return body.expressions.expr(e);
  }
}
