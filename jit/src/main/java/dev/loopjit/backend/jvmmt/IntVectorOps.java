// The Vector API operations jvm-mt's int lanes call (LaneVectors): VectorOps for int (+ - * and negation; no division).
package dev.loopjit.backend.jvmmt;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link VectorOps} for {@code int} lanes: called from generated kernels only, loaded only where
 * the JVM has the Vector API; each operation is Java's int operation lane by lane (wrapping as
 * Java's do), so results stay bit-identical, and loads and stores fail as Java's element accesses
 * do. No division: Java's throws on zero, a vector's would not say which lane.
 */
final class IntVectorOps {
  static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;

  /** Ints in one vector on this machine. */
  static final int LENGTH = SPECIES.length();

  private IntVectorOps() {}

  static IntVector zero() {
    return IntVector.zero(SPECIES);
  }

  static IntVector broadcast(int x) {
    return IntVector.broadcast(SPECIES, x);
  }

  /** {@code a[i … i + LENGTH - 1]}, as {@link VectorOps#load}. */
  static IntVector load(int[] a, int i) {
    return i >= 0 && i <= a.length - LENGTH ? IntVector.fromArray(SPECIES, a, i) : loadElements(a, i);
  }

  private static IntVector loadElements(int[] a, int i) {
    int[] lanes = new int[LENGTH];
    for (int l = 0; l < LENGTH; l++) lanes[l] = a[i + l];
    return IntVector.fromArray(SPECIES, lanes, 0);
  }

  /** {@code a[i … i + LENGTH - 1] = v}, as {@link VectorOps#store}. */
  static void store(IntVector v, int[] a, int i) {
    if (i >= 0 && i <= a.length - LENGTH) v.intoArray(a, i);
    else storeElements(v, a, i);
  }

  private static void storeElements(IntVector v, int[] a, int i) {
    for (int l = 0; l < LENGTH; l++) a[i + l] = v.lane(l);
  }

  static IntVector add(IntVector a, IntVector b) {
    return a.add(b);
  }

  static IntVector sub(IntVector a, IntVector b) {
    return a.sub(b);
  }

  static IntVector mul(IntVector a, IntVector b) {
    return a.mul(b);
  }

  static IntVector neg(IntVector a) {
    return a.neg();
  }
}
