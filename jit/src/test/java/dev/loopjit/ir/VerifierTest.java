// The IR verifier: it accepts the sample kernels and names each broken rule; the suites run it after every pass.
package dev.loopjit.ir;

import static dev.loopjit.ir.IrBuilder.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class VerifierTest {
  private static final Var A = global("a", Prim.FLOAT), N = var("n", Prim.INT), I = var("i", Prim.INT), F = var("f", Prim.FLOAT);

  private static List<String> check(Stmt... body) {
    return Verifier.check(kernel("k", List.of(A, N), null, body), true);
  }

  private static void assertBroken(String rule, Stmt... body) {
    List<String> p = check(body);
    assertEquals(1, p.size(), "one problem: " + p);
    assertTrue(p.get(0).contains(rule), p.get(0));
  }

  @Test
  void theSampleKernelsKeepEveryRule() throws Exception {
    int checked = 0;
    for (var m : SampleKernels.class.getDeclaredMethods())
      if (m.getReturnType() == KernelIR.class && m.getParameterCount() == 0) {
        m.setAccessible(true);
        KernelIR k = (KernelIR) m.invoke(null);
        assertEquals(List.of(), Verifier.check(k, true), m.getName());
        checked++;
      }
    assertTrue(checked >= 10, "only " + checked + " sample kernels");
  }

  @Test
  void eachBrokenRuleIsNamed() {
    assertBroken("ADD of int and float", set(I, add(read(N), c(1f))));
    assertBroken("reads i, which is no parameter, argument or assigned variable", store(A, read(I), c(1f)));
    assertBroken("a double stored into float[]", store(A, c(0), c(1.0)));
    assertBroken("a condition of type int", when(read(N), ret()));
    assertBroken("an index of type float", set(F, c(1f)), store(A, read(F), c(1f)));
    assertBroken("break L9 outside it", brk(label("L9")));
    assertBroken("continue L1 outside that loop", labeled(label("L1"), cont(label("L1"))));
    assertBroken("label L2 used twice", labeled(label("L2"), ret()), labeled(label("L2"), ret()));
    assertBroken("a call left after inlining", new Stmt.Eval(new Expr.Invoke("x/Y", "m", "()V", null, List.of()), SRC));
    assertBroken("an allocation that is not a variable's value",
        store(A, c(0), new Expr.Load(new Expr.Alloc(new ArrayType(Prim.FLOAT, ArrayType.Space.PRIVATE, 4)), c(0))));
  }

  /** The suites run the verifier after every pass of every kernel they compile: the setting must reach them. */
  @Test
  void theTestSuitesVerifyTheIrAfterEveryPass() {
    assertEquals("true", System.getProperty("loopjit.verifyIr"), "surefire sets loopjit.verifyIr (parent pom)");
  }
}
