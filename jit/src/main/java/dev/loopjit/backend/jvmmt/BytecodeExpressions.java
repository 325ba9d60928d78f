// Expressions to JVM bytecode: Java's own arithmetic, conversions and comparisons; conditions as jumps, so booleans are rarely materialised.
package dev.loopjit.backend.jvmmt;

import static dev.loopjit.backend.jvmmt.BytecodeTypes.DOUBLE;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.FLOAT;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.elementKind;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.kind;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;

/**
 * Each expression pushes its value and says of what kind. Integer arithmetic wraps and shifts mask
 * as the JVM's instructions do, float→int conversions saturate, float {@code %} is {@code frem};
 * an integer {@code /} or {@code %} reaches here only legalised. A variable is a local, or in group
 * mode the work-item's element of its per-item array ({@link BytecodeGroups#load}); a call is an
 * intrinsic ({@link BytecodeIntrinsics}).
 */
final class BytecodeExpressions {
  private final BytecodeBody body;
  private final CodeBuilder code;

  BytecodeExpressions(BytecodeBody body) {
    this.body = body;
    this.code = body.code;
  }

  TypeKind expr(Expr e) {
    return switch (e) {
      case Const c -> constant(c);
      case Read r -> body.groups.load(r.var());
      case Unary u -> {
        TypeKind k = expr(u.x());
        if (u.op() == Op.Unary.NOT) code.iconst_1().ixor();
        else switch (k) {
          case LONG -> code.lneg();
          case FLOAT -> code.fneg();
          case DOUBLE -> code.dneg();
          default -> code.ineg();
        }
        yield k;
      }
      case Binary b -> binary(b);
      case Compare c -> bool(e);
      case Logic l -> bool(e);
      case Convert c -> convert(c);
      case Select s -> {
        Label otherwise = code.newLabel(), end = code.newLabel();
        jumpUnless(s.cond(), otherwise);
        TypeKind k = expr(s.a());
        code.goto_(end);
        code.labelBinding(otherwise);
        expr(s.b());
        code.labelBinding(end);
        yield k;
      }
      case Load l -> {
        ArrayType t = (ArrayType) l.array().type();
        expr(l.array());
        expr(l.index());
        body.guarded(l.array(), () -> code.arrayLoad(elementKind(t.element())));
        if (t.element() == Prim.HALF) {
          code.invokestatic(FLOAT, "float16ToFloat", MethodTypeDesc.of(ConstantDescs.CD_float, ConstantDescs.CD_short));
          yield TypeKind.FLOAT;
        }
        yield kind(t.element().stackType());
      }
      case Length l -> {
        expr(l.array());
        code.arraylength();
        yield TypeKind.INT;
      }
      case Call c -> body.intrinsics.call(c);
      case Alloc a -> throw new IllegalStateException("allocation outside an assignment: " + a);
      case Invoke i -> throw new IllegalStateException("call of " + i.owner() + "." + i.name() + " was not inlined");
    };
  }

  private TypeKind constant(Const c) {
    switch (c.type()) {
      case BOOLEAN -> code.loadConstant(c.longValue() != 0 ? 1 : 0);
      case LONG -> code.loadConstant(((Number) c.value()).longValue());
      case FLOAT -> {
        float f = ((Number) c.value()).floatValue();
        if (Float.isNaN(f)) code.loadConstant(Float.floatToRawIntBits(f)).invokestatic(FLOAT, "intBitsToFloat",
            MethodTypeDesc.of(ConstantDescs.CD_float, ConstantDescs.CD_int));
        else code.loadConstant(f);
        return TypeKind.FLOAT;
      }
      case DOUBLE -> {
        double d = ((Number) c.value()).doubleValue();
        if (Double.isNaN(d)) code.loadConstant(Double.doubleToRawLongBits(d)).invokestatic(DOUBLE, "longBitsToDouble",
            MethodTypeDesc.of(ConstantDescs.CD_double, ConstantDescs.CD_long));
        else code.loadConstant(d);
        return TypeKind.DOUBLE;
      }
      case HALF -> throw new IllegalStateException("half is storage only; no half constants: " + c);
      default -> code.loadConstant((int) c.longValue());
    }
    return kind(c.type());
  }

  private TypeKind binary(Binary b) {
    TypeKind k = expr(b.a());
    Op.Binary op = b.op();
    boolean integral = k == TypeKind.INT || k == TypeKind.LONG;
    if (integral && (op == Op.Binary.DIV || op == Op.Binary.REM))
      throw new IllegalStateException("integer " + op + " reaches the emitter only legalised (the legalise pass)");
    expr(b.b());
    arithmetic(op, k);
    return k;
  }

  void arithmetic(Op.Binary op, TypeKind k) {
    switch (k) {
      case LONG -> {
        switch (op) {
          case ADD -> code.ladd(); case SUB -> code.lsub(); case MUL -> code.lmul(); case DIV -> code.ldiv(); case REM -> code.lrem();
          case AND -> code.land(); case OR -> code.lor(); case XOR -> code.lxor();
          case SHL -> code.lshl(); case SHR -> code.lshr(); case USHR -> code.lushr();
        }
      }
      case FLOAT -> {
        switch (op) {
          case ADD -> code.fadd(); case SUB -> code.fsub(); case MUL -> code.fmul(); case DIV -> code.fdiv(); case REM -> code.frem();
          default -> throw new IllegalStateException(op + " on float");
        }
      }
      case DOUBLE -> {
        switch (op) {
          case ADD -> code.dadd(); case SUB -> code.dsub(); case MUL -> code.dmul(); case DIV -> code.ddiv(); case REM -> code.drem();
          default -> throw new IllegalStateException(op + " on double");
        }
      }
      default -> {
        switch (op) {
          case ADD -> code.iadd(); case SUB -> code.isub(); case MUL -> code.imul(); case DIV -> code.idiv(); case REM -> code.irem();
          case AND -> code.iand(); case OR -> code.ior(); case XOR -> code.ixor();
          case SHL -> code.ishl(); case SHR -> code.ishr(); case USHR -> code.iushr();
        }
      }
    }
  }

  /** A boolean expression as the int 0 or 1. */
  TypeKind bool(Expr e) {
    Label no = code.newLabel(), end = code.newLabel();
    jumpUnless(e, no);
    code.iconst_1().goto_(end);
    code.labelBinding(no);
    code.iconst_0();
    code.labelBinding(end);
    return TypeKind.INT;
  }

  private TypeKind convert(Convert c) {
    Prim from = c.x().prim() == Prim.BOOLEAN ? Prim.INT : c.x().prim().stackType();
    Prim to = c.to();
    expr(c.x());
    switch (to) {
      case BOOLEAN -> throw new IllegalStateException("no Java conversion from " + from + " to boolean");
      case INT -> toInt(from);
      case LONG -> {
        switch (from) {
          case INT -> code.i2l(); case FLOAT -> code.f2l(); case DOUBLE -> code.d2l(); default -> {}
        }
      }
      case FLOAT -> {
        switch (from) {
          case INT -> code.i2f(); case LONG -> code.l2f(); case DOUBLE -> code.d2f(); default -> {}
        }
      }
      case DOUBLE -> {
        switch (from) {
          case INT -> code.i2d(); case LONG -> code.l2d(); case FLOAT -> code.f2d(); default -> {}
        }
      }
      case BYTE -> { toInt(from); code.i2b(); }
      case SHORT -> { toInt(from); code.i2s(); }
      case CHAR -> { toInt(from); code.i2c(); }
      case HALF -> {
        switch (from) {
          case INT -> code.i2f(); case LONG -> code.l2f(); case DOUBLE -> code.d2f(); default -> {}
        }
        code.invokestatic(FLOAT, "floatToFloat16", MethodTypeDesc.of(ConstantDescs.CD_short, ConstantDescs.CD_float))
            .invokestatic(FLOAT, "float16ToFloat", MethodTypeDesc.of(ConstantDescs.CD_float, ConstantDescs.CD_short));
      }
    }
    return kind(to.stackType());
  }

  private void toInt(Prim from) {
    switch (from) {
      case LONG -> code.l2i(); case FLOAT -> code.f2i(); case DOUBLE -> code.d2i(); default -> {}
    }
  }

  // ---- conditions: jumps, so that booleans are rarely materialised ------------------------------

  /** Jumps to {@code target} when {@code cond} is false. */
  void jumpUnless(Expr cond, Label target) {
    jump(cond, false, target);
  }

  /** Jumps to {@code target} when {@code cond} is {@code when}. */
  void jump(Expr cond, boolean when, Label target) {
    switch (cond) {
      case Unary u when u.op() == Op.Unary.NOT -> jump(u.x(), !when, target);
      case Const c -> {
        if ((c.longValue() != 0) == when) code.goto_(target);
      }
      case Logic l -> {
        boolean and = l.op() == Op.Logic.AND;
        if (and != when) {
          // (a && b) false: a false or b false; (a || b) true: a true or b true
          jump(l.a(), when, target);
          jump(l.b(), when, target);
        } else {
          Label skip = code.newLabel();
          jump(l.a(), !when, skip);
          jump(l.b(), when, target);
          code.labelBinding(skip);
        }
      }
      case Compare c -> compare(c, when, target);
      default -> {
        expr(cond);
        if (when) code.ifne(target);
        else code.ifeq(target);
      }
    }
  }

  private void compare(Compare c, boolean when, Label target) {
    TypeKind k = expr(c.a());
    expr(c.b());
    Op.Compare op = c.op();
    switch (k) {
      case LONG, FLOAT, DOUBLE -> {
        // fcmpg gives 1 for NaN, so < and <= are false; fcmpl gives -1, so > and >= are false; == and != either
        boolean g = op == Op.Compare.LT || op == Op.Compare.LE;
        switch (k) {
          case LONG -> code.lcmp();
          case FLOAT -> { if (g) code.fcmpg(); else code.fcmpl(); }
          default -> { if (g) code.dcmpg(); else code.dcmpl(); }
        }
        Op.Compare test = when ? op : op.negate();
        switch (test) {
          case EQ -> code.ifeq(target); case NE -> code.ifne(target); case LT -> code.iflt(target);
          case LE -> code.ifle(target); case GT -> code.ifgt(target); case GE -> code.ifge(target);
        }
      }
      default -> {
        Op.Compare test = when ? op : op.negate();
        switch (test) {
          case EQ -> code.if_icmpeq(target); case NE -> code.if_icmpne(target); case LT -> code.if_icmplt(target);
          case LE -> code.if_icmple(target); case GT -> code.if_icmpgt(target); case GE -> code.if_icmpge(target);
        }
      }
    }
  }
}
