// Parse: the off-heap collections (Matrix2DFloat, VectorFloat, VectorFloat4, …) as flat indexing of their storage array.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import java.util.List;

/**
 * A collection parameter is, in the IR, the global array of its storage: {@code m.get(i, j)} of a
 * {@code Matrix2DFloat} is {@code m[i * SHAPE(m, 1) + j]}, {@code getNumRows()} is
 * {@code SHAPE(m, 0)}; the {@code arguments} pass turns each SHAPE into an int argument the host
 * computes from the collection at launch. Vectors index their storage directly; a vector of values
 * ({@code VectorFloat4}, {@code VectorInt3}, {@code VectorDouble16}, …) has as element {@code i} the
 * value of storage elements {@code n·i} to {@code n·i + n - 1}. An image ({@code ImageFloat}, {@code ImageByte4}, …) is
 * rows of {@code X()} pixels: {@code get(x, y)} is pixel {@code y * X + x}, {@code X()} is {@code SHAPE(m, 0)}.
 */
final class OffHeapCollections {
  private OffHeapCollections() {}

  private static final String TYPES = "dev/loopjit/types/";

  /** The element type of a collection class (by simple name), or null when it is not one. */
  static Prim element(String simpleName) {
    return switch (simpleName) {
      case "Matrix2DFloat", "VectorFloat", "Matrix3DFloat", "Matrix2DFloat4", "Matrix3DFloat4", "ImageFloat", "ImageFloat3", "ImageFloat4", "ImageFloat8",
          "Matrix4x4Float" -> Prim.FLOAT;
      case "ImageByte3", "ImageByte4" -> Prim.BYTE;
      case "VolumeShort2" -> Prim.SHORT;
      case "Matrix2DInt", "VectorInt", "Matrix3DInt" -> Prim.INT;
      case "Matrix2DDouble", "VectorDouble", "Matrix3DDouble" -> Prim.DOUBLE;
      case "Matrix3DLong" -> Prim.LONG;
      case "Matrix3DShort" -> Prim.SHORT;
      default -> vectorOf(simpleName) != null ? vectorOf(simpleName).element : null;
    };
  }

  /**
   * The value a collection holds per element ({@code VectorFloat4}, {@code Matrix2DFloat4}: {@code Float4};
   * {@code VectorInt8}: {@code Int8}), or null for one of plain elements.
   */
  static ValueObjects.Kind vectorOf(String simpleName) {
    if (simpleName.startsWith("Matrix") && simpleName.endsWith("Float4")) return ValueObjects.Kind.FLOAT4;
    if (simpleName.startsWith("Image") && !simpleName.equals("ImageFloat")) return ValueObjects.kind(TYPES + simpleName.substring("Image".length()));
    if (simpleName.startsWith("Volume")) return ValueObjects.kind(TYPES + simpleName.substring("Volume".length()));
    if (!simpleName.startsWith("Vector")) return null;
    ValueObjects.Kind k = ValueObjects.kind("dev/loopjit/types/" + simpleName.substring("Vector".length()));
    return k == ValueObjects.Kind.HALF ? null : k;
  }

  /** A method of a collection {@code array} (its storage in the IR); false when {@code owner} is not a collection class. */
  static boolean invoke(OperandStack ops, Expr array, String owner, String name, String desc, Object[] raw) {
    if (!owner.startsWith(TYPES)) return false;
    String simple = owner.substring(TYPES.length());
    if (element(simple) == null) return false;
    boolean matrix = simple.startsWith("Matrix"), pixels = simple.startsWith("Image") || simple.startsWith("Volume");
    boolean small = simple.equals("Matrix4x4Float");   // get(k) or get(i, j) over 16 floats, row(i) and column(j)
    // the indices get and set take; an image's get(i) / set(i, v) name pixel i of the whole image, get(x, y) pixel y·X + x
    int dims = pixels || small ? (name.equals("set") ? raw.length - 1 : raw.length) : simple.startsWith("Matrix3D") ? 3 : matrix ? 2 : 1;
    ValueObjects.Kind values = vectorOf(simple);   // a collection of Float4s, Int8s, …: element e is fields n·e … n·e + n - 1
    String display = simple + "." + name;
    switch (name) {
      case "get" -> {
        Expr at = pixels ? pixel(array, raw, dims) : small ? small(raw, dims) : index(array, raw, dims);
        ops.push(values != null ? ValueObjects.loadVector(ops, values, array, at) : new Load(array, at));
      }
      case "set" -> {
        if (raw.length != dims + 1 || dims == 0) throw Refusal.error(ops.src, display, display + " of a whole collection is not supported in a kernel; copy elements");
        Expr at = pixels ? pixel(array, raw, dims) : small ? small(raw, dims) : index(array, raw, dims);
        if (values != null) {
          ValueObjects.storeVector(ops, values, array, at, raw[dims], display);
          return true;
        }
        ops.spillLoads();
        ops.out.add(new Stmt.Store(array, at, (Expr) raw[dims], ops.src));
      }
      case "getNumRows", "getSizeX", "X" -> ops.push(shape(array, 0));
      case "getNumColumns", "getSizeY", "Y" -> ops.push(shape(array, 1));
      case "getSizeZ", "Z" -> ops.push(shape(array, 2));
      case "row", "column" -> {
        if (!small) throw Refusal.unsupported(ops.src, display);
        if (name.equals("row")) ops.push(ValueObjects.loadVector(ops, ValueObjects.Kind.FLOAT4, array, (Expr) raw[0]));
        else {
          Expr j = ops.once((Expr) raw[0]);
          List<Expr> f = new java.util.ArrayList<>();
          for (int i = 0; i < 4; i++) f.add(ops.once(new Load(array, new Binary(Op.Binary.ADD, Const.of(4 * i), j))));
          ops.push(new ValueObjects.Value(ValueObjects.Kind.FLOAT4, f));
        }
      }
      case "fill", "identity" -> {   // a Matrix4x4Float's 16 floats, each stored
        if (!small) throw Refusal.error(ops.src, display, display + " of a whole collection is not supported in a kernel; write a loop over its elements");
        Expr v = name.equals("fill") ? ops.once((Expr) raw[0]) : null;
        ops.spillLoads();
        for (int k = 0; k < 16; k++) ops.out.add(new Stmt.Store(array, Const.of(k), v != null ? v : Const.of(k % 5 == 0 ? 1f : 0f), ops.src));
      }
      case "size" -> ops.push(pixels && values != null ? new Binary(Op.Binary.DIV, new Length(array), Const.of(values.fields)) : new Length(array));
      case "getLength" -> ops.push(values != null ? new Binary(Op.Binary.DIV, new Length(array), Const.of(values.fields)) : new Length(array));
      case "vectorWidth" -> ops.push(Const.of(values != null ? values.fields : 1));
      case "getArray" -> ops.push(array);
      default -> throw Refusal.error(ops.src, display, display + " is not supported in a kernel (collections offer get, set, size"
          + (pixels ? ", X, Y" + (simple.startsWith("Volume") ? ", Z" : "") : small ? ", row, column, fill, identity, getNumRows, getNumColumns" : dims == 3
              ? ", getSizeX, getSizeY, getSizeZ" : matrix ? ", getNumRows, getNumColumns" : ", getLength") + " and getArray there)");
    }
    return true;
  }

  /** The element a collection's get or set names: {@code i}, {@code i * columns + j}, or {@code (i * y + j) * z + k}. */
  private static Expr index(Expr array, Object[] raw, int dims) {
    if (dims == 1) return (Expr) raw[0];
    Expr at = flat(array, (Expr) raw[0], (Expr) raw[1]);
    return dims == 2 ? at : new Binary(Op.Binary.ADD, new Binary(Op.Binary.MUL, at, shape(array, 2)), (Expr) raw[2]);
  }

  /**
   * An image's pixel or a volume's voxel, x fastest: {@code get(i)} names pixel {@code i},
   * {@code get(x, y)} pixel {@code y * X + x}, {@code get(x, y, z)} voxel {@code (z * Y + y) * X + x}.
   */
  private static Expr pixel(Expr array, Object[] raw, int dims) {
    Expr at = (Expr) raw[dims - 1];
    for (int d = dims - 2; d >= 0; d--) at = new Binary(Op.Binary.ADD, new Binary(Op.Binary.MUL, at, shape(array, d)), (Expr) raw[d]);
    return at;
  }

  /** Float {@code k} of a Matrix4x4Float, or element {@code (i, j)}: {@code i * 4 + j}. */
  private static Expr small(Object[] raw, int dims) {
    return dims == 1 ? (Expr) raw[0] : new Binary(Op.Binary.ADD, new Binary(Op.Binary.MUL, (Expr) raw[0], Const.of(4)), (Expr) raw[1]);
  }

  /** Row-major {@code i * columns + j}. */
  private static Expr flat(Expr array, Expr i, Expr j) {
    return new Binary(Op.Binary.ADD, new Binary(Op.Binary.MUL, i, shape(array, 1)), j);
  }

  /**
   * What {@code new VectorFloat4(n)} (a vector collection: {@code VectorFloat}, {@code VectorInt3},
   * {@code VectorDouble8}, …) pushed in a kernel, before its constructor ran: the constructor makes it a
   * work-item's own array of {@code n · fields} elements ({@link #construct}), which get, set and
   * getLength then index as they index a parameter's storage.
   */
  static final class NewVector {
    final String simpleName;

    NewVector(String simpleName) {
      this.simpleName = simpleName;
    }
  }

  /** The marker {@code new} pushes for the collection class {@code internalName}, or null where it is not a vector collection. */
  static NewVector newVector(String internalName) {
    if (!internalName.startsWith(TYPES)) return null;
    String simple = internalName.substring(TYPES.length());
    return simple.startsWith("Vector") && element(simple) != null ? new NewVector(simple) : null;
  }

  /**
   * {@code <init>(int n)} of {@code u}: a private array of {@code n · fields} zeros (n known at launch
   * where it is not a constant: pass {@code launchSized}), replacing every copy of {@code u} on the stack.
   */
  static void construct(OperandStack ops, NewVector u, String desc, Object[] raw, Names names) {
    String display = "new " + u.simpleName;
    if (!desc.equals("(I)V"))
      throw Refusal.error(ops.src, display, "a collection made in a kernel takes its length alone (" + display + "(n)); pass other ones as arguments");
    ValueObjects.Kind values = vectorOf(u.simpleName);
    int fields = values != null ? values.fields : 1;
    Expr n = (Expr) raw[0], count = fields == 1 ? n : new Binary(Op.Binary.MUL, n, Const.of(fields));
    if (n instanceof Const c) {
      if (c.longValue() < 0) throw Refusal.error(ops.src, display, display + "(" + c.longValue() + "): a negative length (Java throws NegativeArraySizeException)");
      count = Const.of((int) Math.min(Integer.MAX_VALUE, c.longValue() * fields));
    }
    Prim e = element(u.simpleName);
    boolean fixed = count instanceof Const;
    dev.loopjit.ir.ArrayType type = new dev.loopjit.ir.ArrayType(e, dev.loopjit.ir.ArrayType.Space.PRIVATE,
        fixed ? ops.constantSize(count, display + "(n)") : dev.loopjit.ir.ArrayType.RUNTIME);
    dev.loopjit.ir.Var array = names.fresh(u.simpleName.toLowerCase() + "_storage", type);
    ops.spillLoads();
    ops.out.add(new Stmt.Assign(array, fixed ? new Alloc(type) : new Alloc(type, count), ops.src));
    for (int k = 0; k < ops.values.size(); k++) if (ops.values.get(k) == u) ops.values.set(k, new Read(array));
  }

  static Expr shape(Expr array, int dim) {
    return new Call(Intrinsic.SHAPE, Prim.INT, List.of(array, Const.of(dim)));
  }
}
