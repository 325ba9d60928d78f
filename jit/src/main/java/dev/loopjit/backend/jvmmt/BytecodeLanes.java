// Lane iterations as Vector API vectors (LaneVectors' plans): a group of vectors of lanes at a time while enough lanes are left, then the scalar tail.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.Assign;
import dev.loopjit.ir.Stmt.Block;
import dev.loopjit.ir.Stmt.Store;
import dev.loopjit.ir.Var;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The lane iterations {@link LaneVectors} qualifies, as calls of {@link VectorOps} (float), {@link
 * DoubleVectorOps} and {@link IntVectorOps}: each lane array's values in vector locals, each lane
 * loop one store per vector of the group; the lanes left run the iteration's scalar form from the
 * first of them ({@link BytecodeStatements} asks {@link #isLaneLoop} and {@link #isLaneStart}).
 */
final class BytecodeLanes {
  /**
   * The Vector API class a lane iteration of one element type calls ({@link VectorOps} for float,
   * {@link DoubleVectorOps} for double, {@link IntVectorOps} for int) and the descriptors of its operations.
   */
  private record VectorKind(Prim element, ClassDesc ops, MethodTypeDesc none, MethodTypeDesc one, MethodTypeDesc two, MethodTypeDesc ofScalar,
                            MethodTypeDesc load, MethodTypeDesc store) {
    private static VectorKind of(Prim element, String ops, String vector, ClassDesc scalar) {
      ClassDesc v = ClassDesc.of(vector);
      return new VectorKind(element, ClassDesc.of(ops), MethodTypeDesc.of(v), MethodTypeDesc.of(v, v), MethodTypeDesc.of(v, v, v),
          MethodTypeDesc.of(v, scalar), MethodTypeDesc.of(v, scalar.arrayType(), ConstantDescs.CD_int),
          MethodTypeDesc.of(ConstantDescs.CD_void, v, scalar.arrayType(), ConstantDescs.CD_int));
    }

    static VectorKind of(Prim element) {
      return switch (element) {
        case DOUBLE -> DOUBLES;
        case INT -> INTS;
        default -> FLOATS;
      };
    }

    /** Elements per vector on this machine (read only where the JVM has the Vector API: it loads the class). */
    int length() {
      return switch (element) {
        case DOUBLE -> DoubleVectorOps.LENGTH;
        case INT -> IntVectorOps.LENGTH;
        default -> VectorOps.LENGTH;
      };
    }
  }

  private static final VectorKind FLOATS = VectorKind.of(Prim.FLOAT, "dev.loopjit.backend.jvmmt.VectorOps", "jdk.incubator.vector.FloatVector", ConstantDescs.CD_float),
      DOUBLES = VectorKind.of(Prim.DOUBLE, "dev.loopjit.backend.jvmmt.DoubleVectorOps", "jdk.incubator.vector.DoubleVector", ConstantDescs.CD_double),
      INTS = VectorKind.of(Prim.INT, "dev.loopjit.backend.jvmmt.IntVectorOps", "jdk.incubator.vector.IntVector", ConstantDescs.CD_int);

  private final BytecodeBody body;
  private final CodeBuilder code;
  private final Map<Stmt, LaneVectors.Choice> vectorChoices;          // lane count's statement -> its iteration as vectors
  private LaneVectors.Plan vectors;                                   // emitting a vector group of this plan's iteration
  private LaneVectors.Plan tail;                                      // emitting the scalar tail: lane loops start at laneBase
  private final Map<Var, int[]> vectorSlots = new LinkedHashMap<>();  // lane array -> the locals of its vectors
  private int laneBase;                                               // slot: the first lane of the group or the tail
  private int vectorGroups;                                           // vectors per lane array in the group being emitted
  private VectorKind vectorKind;                                      // the group's operations (float, double or int)
  private final Map<Expr, Integer> broadcasts = new HashMap<>();      // lane loop being emitted: value -> the local of its broadcast

  BytecodeLanes(BytecodeBody body, Map<Stmt, LaneVectors.Choice> vectorChoices) {
    this.body = body;
    this.code = body.code;
    this.vectorChoices = vectorChoices;
  }

  /** The lane iterations of {@code kernel} to run as vectors, by the statement of their lane count (needs the Vector API). */
  static Map<Stmt, LaneVectors.Choice> choose(Block kernel) {
    return LaneVectors.choose(kernel, element -> VectorKind.of(element).length(), VectorOps.SPECIES.vectorBitSize() >= 512);
  }

  /** The vector form of the iteration after {@code s}, where {@code s} is its lane count and no iteration is being emitted; else null. */
  LaneVectors.Choice choiceAt(Stmt s) {
    return vectors == null && tail == null ? vectorChoices.get(s) : null;
  }

  /** Whether {@code b} is a lane loop of the vector group being emitted ({@link #laneLoop}). */
  boolean isLaneLoop(Block b) {
    return vectors != null && vectors.loops().containsKey(b);
  }

  /** Whether {@code a} starts a lane loop of the scalar tail being emitted ({@link #laneStart}). */
  boolean isLaneStart(Assign a) {
    return tail != null && tail.isLaneStart(a);
  }

  /** A lane loop of the tail starts at the first lane left. */
  void laneStart(Assign a) {
    body.groups.store(a.var(), () -> code.iload(laneBase));
  }

  /**
   * The iteration that follows its lane count: groups of {@code groups} vectors of lanes
   * ({@link LaneVectors#choose}) while that many lanes are left, each lane array's values in vector locals; then the lanes
   * left, as the scalar form from the first of them. (A second vector pass for the lanes left, one
   * vector at a time, made a 4-row matmul slower: the JIT's inlining budget for the method ran out.)
   */
  void iteration(LaneVectors.Plan plan, int groups, Stmt iteration) {
    vectorKind = VectorKind.of(plan.element());
    int width = groups * vectorKind.length(), lanes = body.slot(plan.lanes());
    int base = code.allocateLocal(TypeKind.INT);
    vectorSlots.clear();
    for (Var a : plan.laneArrays()) {
      int[] group = new int[groups];
      for (int g = 0; g < group.length; g++) group[g] = code.allocateLocal(TypeKind.REFERENCE);
      vectorSlots.put(a, group);
    }
    int zero = code.allocateLocal(TypeKind.REFERENCE);
    Label top = code.newLabel(), scalar = code.newLabel(), end = code.newLabel();
    code.iconst_0().istore(base);
    code.labelBinding(top);
    code.iload(lanes).iload(base).isub().loadConstant(width).if_icmplt(scalar);
    // one call to zero(): each inlined call spends the JIT's budget for the method, and a vector
    // passed to or returned from a call it does not inline is boxed, in a loop on every turn
    code.invokestatic(vectorKind.ops(), "zero", vectorKind.none()).astore(zero);
    for (int[] group : vectorSlots.values())
      for (int slot : group) code.aload(zero).astore(slot);
    vectors = plan;
    vectorGroups = groups;
    laneBase = base;
    body.statements.stmt(iteration);
    vectors = null;
    code.iinc(base, width).goto_(top);
    code.labelBinding(scalar);
    code.iload(base).iload(lanes).if_icmpge(end);
    tail = plan;
    body.statements.stmt(iteration);
    tail = null;
    code.labelBinding(end);
  }

  /** One lane loop of a vector group: its lane-independent loads, then its store for each vector of the group. */
  void laneLoop(Block b) {
    LaneVectors.LaneLoop loop = vectors.loops().get(b);
    for (Stmt s : loop.before()) body.statements.stmt(s);
    Store st = loop.store();
    body.at(st.src());
    Expr offset = vectors.isLaneArray(st.array()) ? null : LaneVectors.offset(st.index(), loop.lane(), vectors);
    // each broadcast once for the group: every inlined call spends the JIT's budget for the method
    broadcasts.clear();
    for (Expr e : vectors.broadcasts(st.value(), loop.lane())) {
      int slot = code.allocateLocal(TypeKind.REFERENCE);
      expr(e);
      code.invokestatic(vectorKind.ops(), "broadcast", vectorKind.ofScalar()).astore(slot);
      broadcasts.put(e, slot);
    }
    for (int g = 0; g < vectorGroups; g++) {
      vectorValue(st.value(), loop.lane(), g);
      if (offset == null) {
        code.astore(vectorSlots.get(((Read) st.array()).var())[g]);
      } else {
        expr(st.array());
        laneIndex(offset, g);
        body.guarded(st.array(), () -> code.invokestatic(vectorKind.ops(), "store", vectorKind.store()));
      }
    }
  }

  /** {@code offset} plus the first lane of vector {@code g} of the group. */
  private void laneIndex(Expr offset, int g) {
    expr(offset);
    code.iload(laneBase).iadd();
    if (g > 0) code.loadConstant(g * vectorKind.length()).iadd();
  }

  /** The vector of {@code e}'s values for the lanes of vector {@code g} ({@link LaneVectors#vectorises}). */
  private void vectorValue(Expr e, Var lane, int g) {
    if (!LaneVectors.mentions(e, lane, vectors)) {
      Integer slot = broadcasts.get(e);
      if (slot != null) {
        code.aload(slot);
        return;
      }
      expr(e);
      code.invokestatic(vectorKind.ops(), "broadcast", vectorKind.ofScalar());
      return;
    }
    switch (e) {
      case Load ld when vectors.isLaneArray(ld.array()) -> code.aload(vectorSlots.get(((Read) ld.array()).var())[g]);
      case Load ld -> {
        expr(ld.array());
        laneIndex(LaneVectors.offset(ld.index(), lane, vectors), g);
        body.guarded(ld.array(), () -> code.invokestatic(vectorKind.ops(), "load", vectorKind.load()));
      }
      case Binary b -> {
        vectorValue(b.a(), lane, g);
        vectorValue(b.b(), lane, g);
        code.invokestatic(vectorKind.ops(), switch (b.op()) {
          case ADD -> "add";
          case SUB -> "sub";
          case MUL -> "mul";
          case DIV -> "div";
          default -> throw new IllegalStateException(b.toString());
        }, vectorKind.two());
      }
      case Unary u -> {
        vectorValue(u.x(), lane, g);
        code.invokestatic(vectorKind.ops(), "neg", vectorKind.one());
      }
      case Call c -> {   // SQRT only (LaneVectors#vectorises)
        vectorValue(c.args().get(0), lane, g);
        code.invokestatic(vectorKind.ops(), "sqrt", vectorKind.one());
      }
      case Select sel -> {   // the condition is the same for every lane: the chosen side only, as Java evaluates it
        Label otherwise = code.newLabel(), end = code.newLabel();
        body.expressions.jumpUnless(sel.cond(), otherwise);
        vectorValue(sel.a(), lane, g);
        code.goto_(end);
        code.labelBinding(otherwise);
        vectorValue(sel.b(), lane, g);
        code.labelBinding(end);
      }
      default -> throw new IllegalStateException("no vector form for " + e);
    }
  }

  private TypeKind expr(Expr e) {
    return body.expressions.expr(e);
  }
}
