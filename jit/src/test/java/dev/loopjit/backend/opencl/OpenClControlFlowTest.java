// Unit tests of the OpenCL C emitter's control flow (loops, switches, labelled jumps) and expression layout.
package dev.loopjit.backend.opencl;

import static dev.loopjit.backend.opencl.OpenClEmitterTest.assertContains;
import static dev.loopjit.backend.opencl.OpenClEmitterTest.emit;
import static dev.loopjit.backend.opencl.OpenClEmitterTest.emitValue;
import static dev.loopjit.ir.IrBuilder.*;
import static dev.loopjit.ir.Prim.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.loopjit.ir.Label;
import dev.loopjit.ir.SampleKernels;
import dev.loopjit.ir.Var;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenClControlFlowTest {
  static final Var OUT = global("out", INT), X = var("x", INT), J = var("j", INT);

  @Test
  void jumpsUseBreakAndContinueWhereCMeansTheSameAndGotoElsewhere() {
    String s = emit(SampleKernels.control());
    assertContains(s,
        // the exit test becomes the for condition, the update its third clause
        "    for (; j_ < 12; j_ = as_int((uint)j_ + 1u)) {\n      if (j_ == v_ % 5) {\n        continue;\n      }\n",
        // a switch inside the inner loop: break leaves the switch, the outer loop needs labels
        "          case 1:\n            acc_ = as_int((uint)acc_ + 10u);\n            break;\n          case 2:\n            goto outer_next_;\n",
        "              goto outer_end_;\n",
        "        if (k_ == 3) {\n          break;\n        }\n",
        // a labelled block is a block plus a label after it
        "        goto block_end_;\n      }\n      acc_ = as_int((uint)acc_ + 1000u);\n      block_end_: ;\n      outer_next_: ;\n    }\n    outer_end_: ;\n",
        // an update with a store stays a statement list; continue reaches it through a label
        "    while (m_ < 6) {\n      if (m_ % 2 == 0) {\n        goto L3_next_;\n      }\n      t_ = as_int((uint)t_ + (uint)m_);\n"
            + "      L3_next_: ;\n      out_[as_int((uint)i_ * 2u + 1u)] = t_;\n      m_ = as_int((uint)m_ + 1u);\n    }\n",
        "      case 1:\n      case 2:\n        t_ = as_int((uint)t_ + 1u);\n      case (-2147483647-1):\n        t_ = as_int((uint)t_ - 1u);\n"
            + "      case 7:\n        break;\n    }\n",
        "    if (v_ == 12345) {\n      return;\n    }\n");
    assertFalse(s.contains("inner_"), "no label for jumps that C's break expresses");
  }

  @Test
  void continueInALoopWithAStatementUpdateGoesThroughTheUpdate() {
    Label l = label("L");
    String s = emit(kernel("k", List.of(OUT), null, loop(l, block(when(gt(read(X), c(9)), brk(l)), when(eq(read(X), c(3)), cont(l))),
        block(store(OUT, read(X), c(1)), set(X, add(read(X), c(1)))))));
    assertContains(s, "  while (x_ <= 9) {\n    if (x_ == 3) {\n      goto L_next_;\n    }\n    L_next_: ;\n    out_[x_] = 1;\n");
  }

  @Test
  void loopsWithoutExitTestOrUpdate() {
    Label l = label("L");
    String s = emit(kernel("k", List.of(OUT), null, loop(l, block(set(X, add(read(X), c(1))), when(gt(read(X), c(3)), brk(l)), cont(l)), block())));
    assertContains(s, "  for (;;) {\n    x_ = as_int((uint)x_ + 1u);\n    if (x_ > 3) {\n      break;\n    }\n    continue;\n  }\n");
    Label m = label("M");
    String u = emit(kernel("k", List.of(OUT), null, loop(m, block(when(eq(read(X), c(7)), brk(m))), block(set(X, add(read(X), c(2))), set(J, read(X))))));
    assertContains(u, "  for (; x_ != 7; x_ = as_int((uint)x_ + 2u), j_ = x_) {\n  }\n");
  }

  @Test
  void floatExitTestsAreNegatedWithNot() {
    Label l = label("L");
    Var f = var("f", FLOAT);
    String s = emit(kernel("k", List.of(OUT), null, loop(l, block(when(ge(read(f), c(1f)), brk(l)), set(f, mul(read(f), c(2f)))), block())));
    // !(f >= 1) is not f < 1 when f is NaN
    assertContains(s, "  while (!(f_ >= 1.0f)) {\n");
  }

  @Test
  void breakingAnOuterLoopFromAnInnerOneUsesGoto() {
    Label outer = label("outer"), inner = label("inner");
    String s = emit(kernel("k", List.of(OUT), null, loop(outer, block(loop(inner, block(when(eq(read(X), c(2)), brk(outer)),
        when(eq(read(X), c(3)), cont(outer)), brk(inner)), block())), block(set(X, add(read(X), c(1)))))));
    assertContains(s, "goto outer_end_;", "goto outer_next_;", "      break;\n    }\n    outer_next_: ;\n  }\n  outer_end_: ;\n");
  }

  @Test
  void breakFromALabeledBlockInsideALoopStaysAGoto() {
    Label l = label("L"), b = label("inlined");
    String s = emit(kernel("k", List.of(OUT), null, loop(l, block(labeled(b, when(eq(read(X), c(1)), brk(b)), brk(l))), block())));
    assertContains(s, "      goto inlined_end_;\n    }\n    break;\n    inlined_end_: ;\n");
  }

  @Test
  void ifElseChainsAndEmptyBranches() {
    String s = emit(kernel("k", List.of(OUT), null, ifElse(lt(read(X), c(0)), block(set(J, c(1))),
        block(ifElse(eq(read(X), c(0)), block(set(J, c(2))), block(set(J, c(3))))))));
    assertContains(s, "  if (x_ < 0) {\n    j_ = 1;\n  } else if (x_ == 0) {\n    j_ = 2;\n  } else {\n    j_ = 3;\n  }\n");
    String e = emit(kernel("k", List.of(OUT), null, ifElse(lt(read(X), c(0)), block(), block(set(J, c(1))))));
    assertContains(e, "  if (x_ >= 0) {\n    j_ = 1;\n  }\n");
  }

  @Test
  void parenthesesOnlyWhereNeeded() {
    Var a = var("a", FLOAT), b = var("b", FLOAT), cc = var("c", FLOAT);
    assertContains(emitFloat(sub(read(a), sub(read(b), read(cc)))), "= a_ - (b_ - c_);");
    assertContains(emitFloat(sub(sub(read(a), read(b)), read(cc))), "= a_ - b_ - c_;");
    assertContains(emitFloat(mul(add(read(a), read(b)), read(cc))), "= (a_ + b_) * c_;");
    assertContains(emitFloat(neg(neg(read(a)))), "= -(-a_);");
    assertContains(emitFloat(sub(read(a), c(-1f))), "= a_ - -1.0f;");
    assertContains(emitFloat(select(orOr(andAnd(lt(read(a), read(b)), gt(read(b), c(0f))), not(eq(read(a), read(a)))), read(a), read(b))),
        "= (a_ < b_ && b_ > 0.0f) || !(a_ == a_) ? a_ : b_;");
    assertContains(emitValue(select(lt(read(X), c(0)), select(eq(read(X), c(-1)), c(1), c(2)), c(3))), "= x_ < 0 ? x_ == -1 ? 1 : 2 : 3;");
    assertContains(emitValue(select(select(lt(read(X), c(0)), c(true), c(false)), c(1), c(2))), "= (x_ < 0 ? 1 : 0) ? 1 : 2;");
    assertContains(emitValue(shl(and(read(X), c(3)), read(J))), "as_int((uint)(x_ & 3) << (j_ & 31))");
    assertContains(emitValue(eq(and(read(X), c(1)), c(0))), "= (x_ & 1) == 0;");
  }

  private static String emitFloat(dev.loopjit.ir.Expr e) {
    Var out = global("out", FLOAT);
    return emit(kernel("k", List.of(out), null, store(out, c(0), e)));
  }
}
