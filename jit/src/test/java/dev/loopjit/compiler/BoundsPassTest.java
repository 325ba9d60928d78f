// The bounds pass: which accesses its simple proofs leave unchecked, and the setting and target that turn it off.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.api.Task2;
import dev.loopjit.ir.BoundsSite;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrPrinter;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Stmt;
import dev.loopjit.spi.KernelFacts;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Targets;
import java.io.Serializable;
import java.util.List;
import org.junit.jupiter.api.Test;

class BoundsPassTest {
  static void sameArray(float[] a) {
    for (@Parallel int i = 0; i < a.length; i++) a[i] = a[i] * 2f;
  }

  static void countedLoop(float[] a, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0;
      for (int k = 0; k < a.length; k++) s += a[k];
      out[i] = s;
    }
  }

  static void privateTable(int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int[] t = new int[8];
      for (int k = 0; k < 8; k++) t[k] = k * i;
      out[i] = t[3] + t[7];
    }
  }

  /** {@code k <= a.length}: one too far, so checked. */
  static void offByOne(float[] a, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0;
      for (int k = 0; k <= a.length; k++) s += a[k];
      out[i] = s;
    }
  }

  static void scalarBound(float[] a, int n) {
    for (@Parallel int i = 0; i < n; i++) a[i] = 1f;
  }

  static void neighbour(float[] a, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = a[i + 1] - a[i];
  }

  static void rowMajor(float[] m, int rows, int cols) {
    for (@Parallel int i = 0; i < rows; i++)
      for (@Parallel int j = 0; j < cols; j++) m[i * cols + j] = i + j;
  }

  static void reassigned(float[] a) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int k = i;
      if (a[i] > 0) k = k - 1;
      a[k] = 0f;   // k may be -1
    }
  }

  static void floatMax(float[] a, @Reduce float[] max) {
    for (@Parallel int i = 0; i < a.length; i++) max[0] = Math.max(max[0], a[i]);
  }

  /**
   * A reduction's compare-and-set loop assigns the element's old value, and compares it with what it
   * expected to leave the loop: where the bounds check skips the atomic, the variable gets a value
   * too (issue #31: on PTX an unassigned register may read differently each time round the loop, so
   * the loop might never end; the C emitters' zeroed declarations hid it).
   */
  @Test
  void anAtomicsOldValueIsAssignedWhereTheCheckSkipsIt() {
    for (Target t : List.of(Target.offline("ptx", "sm_90"), GPU)) {
      KernelIR ir = compile((Task2<float[], float[]>) BoundsPassTest::floatMax, t);
      int[] guarded = {0};
      IrWalk.walk(ir.body(), new IrWalk.Visitor() {
        @Override
        public void stmt(Stmt x) {
          if (x instanceof Stmt.If i && i.then().stmts().size() == 1 && i.then().stmts().get(0) instanceof Stmt.Assign a
              && a.value() instanceof Expr.Call c && c.op() == Intrinsic.ATOMIC_CAS) {
            guarded[0]++;
            assertTrue(i.otherwise().stmts().stream().anyMatch(o -> o instanceof Stmt.Assign b && b.var().equals(a.var())),
                t.language() + ": the failing path leaves " + a.var().name() + " unassigned:\n" + IrPrinter.print(ir));
          }
        }
      });
      assertTrue(guarded[0] > 0, t.language() + ": no checked compare-and-set in\n" + IrPrinter.print(ir));
    }
  }

  private static final Target GPU = Target.offline("opencl", "");
  private static final Target CPU = Target.of("opencl").withLocalMemoryBytes(1 << 20).withMaxWorkGroupSize(4096).withCpu(true);

  private static KernelIR compile(Serializable kernel, Target t) {
    return Compiler.lower(MethodRef.ofLambda(kernel, "t"), t, null, java.util.Set.of(), true);
  }

  private static List<String> checked(Serializable kernel, Target t) {
    return compile(kernel, t).boundsSites().stream().map(BoundsSite::array).toList();
  }

  interface K1<A> extends Serializable { void run(A a); }
  interface K2<A, B> extends Serializable { void run(A a, B b); }
  interface K3<A, B, C> extends Serializable { void run(A a, B b, C c); }
  interface ArrayInt extends Serializable { void run(float[] a, int n); }
  interface ArrayIntInt extends Serializable { void run(float[] a, int n, int m); }

  static void add(float[] a, float[] b, float[] c) {
    for (@Parallel int i = 0; i < c.length; i++) c[i] = a[i] + b[i];
  }

  @Test
  void simpleProofsLeaveTheCommonCasesUnchecked() {
    for (Target t : new Target[] {GPU, CPU}) {
      assertEquals(List.of(), checked((K1<float[]>) BoundsPassTest::sameArray, t), "the parallel index of the same array");
      assertEquals(List.of(), checked((K2<float[], float[]>) BoundsPassTest::countedLoop, t), "a counted loop over a.length");
      assertEquals(List.of(), checked((K1<int[]>) BoundsPassTest::privateTable, t), "a private array: counted loop and constants");
      KernelIR plain = compile((K1<float[]>) BoundsPassTest::sameArray, t);
      assertNull(plain.boundsReport(), "no hidden argument when nothing is checked");
    }
  }

  @Test
  void whatTheProofsDoNotCoverIsChecked() {
    for (Target t : new Target[] {GPU, CPU}) {
      assertEquals(List.of("a"), checked((K2<float[], float[]>) BoundsPassTest::offByOne, t));
      assertEquals(List.of("a"), checked((ArrayInt) BoundsPassTest::scalarBound, t));
      assertEquals(List.of("a", "a"), checked((K2<float[], float[]>) BoundsPassTest::neighbour, t), "a[i + 1] and a[i]: a may be shorter than out");
      assertEquals(List.of("m"), checked((ArrayIntInt) BoundsPassTest::rowMajor, t));
      assertEquals(List.of("a"), checked((K1<float[]>) BoundsPassTest::reassigned, t), "k = k - 1 may go below 0");
    }
    KernelIR k = compile((K2<float[], float[]>) BoundsPassTest::neighbour, GPU);
    assertEquals(k.params().size() - 1, k.boundsReport().index(), "the report follows the Java parameters");
    assertTrue(k.boundsSites().get(0).where().contains("BoundsPassTest.java:"), k.boundsSites().get(0).where());
  }

  @Test
  void theHostRulesOutASiteBelowATripCountNoLargerThanItsArray() {
    KernelIR k = compile((K2<float[], float[]>) BoundsPassTest::neighbour, GPU);
    // a[i] (i < out.length) cannot fail when a is as long as out; a[i + 1] always may
    assertTrue(KernelFacts.mayFail(k, new Object[] {new float[8], new float[8]}));
    KernelIR add = compile((K3<float[], float[], float[]>) BoundsPassTest::add, GPU);
    assertEquals(2, add.boundsSites().size());
    assertFalse(KernelFacts.mayFail(add, new Object[] {new float[8], new float[9], new float[8]}));
    assertTrue(KernelFacts.mayFail(add, new Object[] {new float[7], new float[9], new float[8]}));
  }

  @Test
  void theSettingAndTheTargetTurnChecksOff() {
    Options off = Options.DEFAULTS.with("boundsChecks", "false");
    assertTrue(Targets.of("opencl", "", null, true, null, Options.DEFAULTS).boundsChecks());
    assertFalse(Targets.of("opencl", "", null, true, null, off).boundsChecks());
    assertEquals(List.of(), checked((K2<float[], float[]>) BoundsPassTest::neighbour, GPU.withBoundsChecks(false)));
    assertTrue(Compiler.passNames().contains("bounds"));
  }
}
