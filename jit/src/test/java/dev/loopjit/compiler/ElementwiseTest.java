// Which kernels run in slices (withBatch): proven element by element from the IR, every other shape refused with its reason.
package dev.loopjit.compiler;

import dev.loopjit.ir.MethodRef;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ElementwiseTest {
  static void gather(int[] idx, float[] table, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = table[idx[i]] + table[0];
  }

  static void inPlace(FloatArray a, float s) {
    for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, a.get(i) * s);
  }

  static void inner(float[] x, float[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      float s = 0;
      for (int j = 0; j < 3; j++) s += x[j];
      y[i] = x[i] + s;
    }
  }

  static void writesElsewhere(float[] x, float[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      y[i] = x[i];
      x[0] = 1f;
    }
  }

  static void nested(float[] a, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < n; j++) a[i * n + j] = 1f;
  }

  static void fromOne(float[] x, float[] y) {
    for (@Parallel int i = 1; i < y.length; i++) y[i] = x[i];
  }

  /** The index as a value (i % 2): in a slice it would count from 0 again. */
  static void chosen(float[] x, float[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      float[] z = i % 2 == 0 ? x : y;
      y[i] = z[i] + 1f;
    }
  }

  private static MethodRef m(String name, Class<?>... params) throws Exception {
    return MethodRef.of(ElementwiseTest.class, name, java.lang.invoke.MethodType.methodType(void.class, params).toMethodDescriptorString());
  }

  @Test
  void elementByElementWithTablesReadWhole() throws Exception {
    Elementwise.Use g = Elementwise.of(m("gather", int[].class, float[].class, float[].class));
    assertEquals(new Elementwise.Use(Set.of(0, 2), Set.of(1), Set.of(2)), g);
    assertEquals(new Elementwise.Use(Set.of(0), Set.of(), Set.of(0)), Elementwise.of(m("inPlace", FloatArray.class, float.class)));
  }

  @Test
  void everyOtherShapeIsRefusedWithItsReason() throws Exception {
    String[][] cases = {
        {"inner", "it reads x both at its loop index and elsewhere"},
        {"writesElsewhere", "it reads x both at its loop index and elsewhere"},
        {"fromOne", "its @Parallel loop does not "},
        {"chosen", "it uses its loop index as a value"},
    };
    for (String[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Elementwise.of(m(c[0], float[].class, float[].class)), c[0]);
      assertTrue(e.getMessage().startsWith(c[1]), c[0] + ": " + e.getMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Elementwise.of(m("nested", float[].class, int.class)));
    assertTrue(e.getMessage().startsWith("it is not one @Parallel loop"), e.getMessage());
  }
}
