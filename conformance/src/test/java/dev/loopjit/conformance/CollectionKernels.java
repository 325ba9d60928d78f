// Conformance kernels over TornadoVM-style types: CharArray, Matrix2D*, Vector*, VectorFloat4/Float4 and HalfFloat values.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.CharArray;
import dev.loopjit.types.Float4;
import dev.loopjit.types.HalfFloat;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.Matrix2DDouble;
import dev.loopjit.types.Matrix2DFloat;
import dev.loopjit.types.Matrix2DInt;
import dev.loopjit.types.VectorDouble;
import dev.loopjit.types.VectorFloat;
import dev.loopjit.types.VectorFloat4;
import dev.loopjit.types.VectorInt;

/**
 * Kernels written as TornadoVM programs write them, checked against the jvm by
 * {@link CollectionKernelsTest}: the collections lower to flat indexing of their storage with
 * their shape passed at launch (so a new shape never recompiles), the value types to registers.
 */
public final class CollectionKernels {
  private CollectionKernels() {}

  /** Char arithmetic wraps at 16 bits, unsigned: each char moved by {@code shift}, and its code point as an int. */
  public static void shiftChars(CharArray in, CharArray out, IntArray codes, int shift) {
    for (@Parallel int i = 0; i < in.getSize(); i++) {
      char c = (char) (in.get(i) + shift);
      out.set(i, c);
      codes.set(i, c * 3 + (c > 'z' ? 1 : 0));
    }
  }

  /** C = A × B over Matrix2DFloat, TornadoVM's matrix-multiplication example with get(i, j) and the shapes read in the kernel. */
  public static void matrixMultiply(Matrix2DFloat a, Matrix2DFloat b, Matrix2DFloat c) {
    for (@Parallel int i = 0; i < a.getNumRows(); i++)
      for (@Parallel int j = 0; j < b.getNumColumns(); j++) {
        float sum = 0f;
        for (int k = 0; k < a.getNumColumns(); k++) sum += a.get(i, k) * b.get(k, j);
        c.set(i, j, sum);
      }
  }

  /** out = transpose(in) * 3 + row index, over ints. */
  public static void transposeInt(Matrix2DInt in, Matrix2DInt out) {
    for (@Parallel int i = 0; i < in.getNumRows(); i++)
      for (@Parallel int j = 0; j < in.getNumColumns(); j++) out.set(j, i, in.get(i, j) * 3 + i);
  }

  /** Each row's running sum, over doubles. */
  public static void rowPrefix(Matrix2DDouble m, Matrix2DDouble out) {
    for (@Parallel int i = 0; i < m.getNumRows(); i++) {
      double s = 0;
      for (int j = 0; j < m.getNumColumns(); j++) {
        s += m.get(i, j);
        out.set(i, j, s);
      }
    }
  }

  /** Vectors of each type, indexed as arrays. */
  public static void vectors(VectorFloat f, VectorInt n, VectorDouble d, VectorFloat out) {
    for (@Parallel int i = 0; i < f.size(); i++) {
      out.set(i, f.get(i) * n.get(i) + (float) d.get(i));
      n.set(i, n.get(i) ^ i);
      d.set(i, d.get(i) / (i + 1));
    }
  }

  /** Float4 values from a VectorFloat4: constructed, added, scaled, min/max, dot and sum, chosen by ?:, and element access. */
  public static void float4s(VectorFloat4 a, VectorFloat4 b, VectorFloat4 out, VectorFloat dots) {
    for (@Parallel int i = 0; i < a.getLength(); i++) {
      Float4 x = a.get(i), y = b.get(i);
      Float4 s = Float4.add(Float4.mult(x, 2f), y);
      Float4 m = Float4.max(Float4.min(s, new Float4(1f, 2f, 3f, 4f)), Float4.sub(x, y));
      Float4 pick = x.getX() > 0f ? x : y;   // a Float4 chosen by ?:
      out.set(i, new Float4(m.getX(), m.getY() + Float4.sum(x), m.get(2) - pick.getZ(), m.getW() / y.getW()));
      dots.set(i, Float4.dot(x, y));
    }
  }

  /** HalfFloat arithmetic as TornadoVM writes it: computed in float, rounded to half after each operation. */
  public static void halfFloats(HalfFloatArray a, HalfFloatArray b, HalfFloatArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) {
      HalfFloat x = a.getHalfFloat(i), y = b.getHalfFloat(i);
      HalfFloat r = HalfFloat.add(HalfFloat.mult(x, y), HalfFloat.div(x, new HalfFloat(3f)));
      out.set(i, HalfFloat.sub(r, scaled(y)));
    }
  }

  /** A helper taking and returning a HalfFloat. */
  static HalfFloat scaled(HalfFloat h) {
    return new HalfFloat(h.getFloat32() * 0.25f);
  }
}
