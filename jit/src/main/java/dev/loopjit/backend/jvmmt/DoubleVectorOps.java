// The Vector API operations jvm-mt's double lanes call (LaneVectors): VectorOps for double.
package dev.loopjit.backend.jvmmt;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link VectorOps} for {@code double} lanes: called from generated kernels only, loaded only where
 * the JVM has the Vector API; each operation is Java's double operation lane by lane, so results
 * stay bit-identical, and loads and stores fail as Java's element accesses do.
 */
final class DoubleVectorOps {
  static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;

  /** Doubles in one vector on this machine. */
  static final int LENGTH = SPECIES.length();

  private DoubleVectorOps() {}

  static DoubleVector zero() {
    return DoubleVector.zero(SPECIES);
  }

  static DoubleVector broadcast(double x) {
    return DoubleVector.broadcast(SPECIES, x);
  }

  /** {@code a[i … i + LENGTH - 1]}, as {@link VectorOps#load}. */
  static DoubleVector load(double[] a, int i) {
    return i >= 0 && i <= a.length - LENGTH ? DoubleVector.fromArray(SPECIES, a, i) : loadElements(a, i);
  }

  private static DoubleVector loadElements(double[] a, int i) {
    double[] lanes = new double[LENGTH];
    for (int l = 0; l < LENGTH; l++) lanes[l] = a[i + l];
    return DoubleVector.fromArray(SPECIES, lanes, 0);
  }

  /** {@code a[i … i + LENGTH - 1] = v}, as {@link VectorOps#store}. */
  static void store(DoubleVector v, double[] a, int i) {
    if (i >= 0 && i <= a.length - LENGTH) v.intoArray(a, i);
    else storeElements(v, a, i);
  }

  private static void storeElements(DoubleVector v, double[] a, int i) {
    for (int l = 0; l < LENGTH; l++) a[i + l] = v.lane(l);
  }

  static DoubleVector add(DoubleVector a, DoubleVector b) {
    return a.add(b);
  }

  static DoubleVector sub(DoubleVector a, DoubleVector b) {
    return a.sub(b);
  }

  static DoubleVector mul(DoubleVector a, DoubleVector b) {
    return a.mul(b);
  }

  static DoubleVector div(DoubleVector a, DoubleVector b) {
    return a.div(b);
  }

  static DoubleVector neg(DoubleVector a) {
    return a.neg();
  }

  /** The correctly rounded square root of each lane, as {@code Math.sqrt(x)}. */
  static DoubleVector sqrt(DoubleVector a) {
    return a.lanewise(VectorOperators.SQRT);
  }
}
