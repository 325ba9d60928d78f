// The Vector API operations jvm-mt's vector lanes call (LaneVectors): one species, and loads and stores that fail as Java's element accesses do.
package dev.loopjit.backend.jvmmt;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Called from generated kernels only (hidden classes of this package), and loaded only where the JVM
 * has the Vector API. The JIT inlines each call; the species is a constant to it. Lane operations are
 * Java's float operations, lane by lane, so a kernel's results stay bit-identical.
 */
final class VectorOps {
  static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

  /** Floats in one vector on this machine. */
  static final int LENGTH = SPECIES.length();

  private VectorOps() {}

  static FloatVector zero() {
    return FloatVector.zero(SPECIES);
  }

  static FloatVector broadcast(float x) {
    return FloatVector.broadcast(SPECIES, x);
  }

  /**
   * {@code a[i … i + LENGTH - 1]}; where part of it is out of range, Java's exception for the first
   * element that is. Small enough for the JIT to inline at any call site (the rare case is a call of
   * its own): a vector passed to a call that is not inlined is boxed, and a box in a loop allocates
   * on every turn.
   */
  static FloatVector load(float[] a, int i) {
    return i >= 0 && i <= a.length - LENGTH ? FloatVector.fromArray(SPECIES, a, i) : loadElements(a, i);
  }

  private static FloatVector loadElements(float[] a, int i) {
    float[] lanes = new float[LENGTH];
    for (int l = 0; l < LENGTH; l++) lanes[l] = a[i + l];
    return FloatVector.fromArray(SPECIES, lanes, 0);
  }

  /** {@code a[i … i + LENGTH - 1] = v}; where part of it is out of range, the elements before the first that is, then Java's exception for it. Inlined as {@link #load}. */
  static void store(FloatVector v, float[] a, int i) {
    if (i >= 0 && i <= a.length - LENGTH) v.intoArray(a, i);
    else storeElements(v, a, i);
  }

  private static void storeElements(FloatVector v, float[] a, int i) {
    for (int l = 0; l < LENGTH; l++) a[i + l] = v.lane(l);
  }

  static FloatVector add(FloatVector a, FloatVector b) {
    return a.add(b);
  }

  static FloatVector sub(FloatVector a, FloatVector b) {
    return a.sub(b);
  }

  static FloatVector mul(FloatVector a, FloatVector b) {
    return a.mul(b);
  }

  static FloatVector div(FloatVector a, FloatVector b) {
    return a.div(b);
  }

  static FloatVector neg(FloatVector a) {
    return a.neg();
  }

  /** The correctly rounded square root of each lane, as {@code (float) Math.sqrt(x)}. */
  static FloatVector sqrt(FloatVector a) {
    return a.lanewise(VectorOperators.SQRT);
  }
}
