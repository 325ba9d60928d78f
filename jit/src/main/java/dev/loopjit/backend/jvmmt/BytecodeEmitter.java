// Lowered IR to JVM bytecode with java.lang.classfile: a hidden class per kernel, Java's own arithmetic for Java's semantics.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.compiler.ExactMath;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.PrintFormat;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Type;
import dev.loopjit.ir.Var;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Emits one kernel as a class implementing {@link GeneratedKernel}: a static method
 * {@code kernel(args…, WorkItem)} holding the body, {@code run} (the work-items of a group in a
 * loop) and {@code item} (one work-item). Java's semantics come with the JVM's own instructions:
 * wrapping {@code int}/{@code long} arithmetic, masked shifts, saturating float→int conversions,
 * {@code frem} for float {@code %}, {@link Math}'s own functions for the intrinsics (so results are
 * bit-identical to the {@code jvm} device's calls). The IR's one deviation from Java is kept as on
 * every device: integer {@code x / 0} and {@code x % 0} give 0 (the {@code legalise} pass writes
 * that; the divisions it leaves, {@code DIV_UNCHECKED} and {@code REM_UNCHECKED}, are plain
 * {@code idiv}/{@code ldiv}/{@code irem}/{@code lrem}). Arrays are the device's Java arrays
 * ({@code HalfFloatArray} as {@code short[]} of fp16 bits), so every access is bounds-checked by
 * the JVM; each has its own exception handler that names the array and the Java line
 * ({@link Failures}).
 */
final class BytecodeEmitter {
  static final ClassDesc ITEM = ClassDesc.of("dev.loopjit.backend.jvmmt.WorkItem");
  private static final ClassDesc GENERATED = ClassDesc.of("dev.loopjit.backend.jvmmt.GeneratedKernel");
  private static final ClassDesc FAILURES = ClassDesc.of("dev.loopjit.backend.jvmmt.Failures");
  private static final ClassDesc ATOMICS = ClassDesc.of("dev.loopjit.backend.jvmmt.Atomics");
  private static final ClassDesc OOB = ClassDesc.of("java.lang.ArrayIndexOutOfBoundsException");
  private static final ClassDesc MATH = ClassDesc.of("java.lang.Math");
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
  private static final ClassDesc DEBUG = ClassDesc.of("dev.loopjit.api.Debug");
  private static final ClassDesc FLOAT = ClassDesc.of("java.lang.Float"), DOUBLE = ClassDesc.of("java.lang.Double");
  private static final ClassDesc INTEGER = ClassDesc.of("java.lang.Integer"), LONG = ClassDesc.of("java.lang.Long");
  private static final MethodTypeDesc RUN = MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_Object.arrayType(), ITEM);

  private final KernelIR ir;
  private final Map<Var, Integer> slots = new HashMap<>();
  private final Map<dev.loopjit.ir.Label, Label[]> jumps = new HashMap<>();   // IR label -> {end, next}
  private final List<Handler> handlers = new ArrayList<>();
  private final Map<Var, String> arrayNames = new HashMap<>();
  private CodeBuilder code;
  private int itemSlot;
  private int localSites;
  private Src at = Src.NONE;

  // Group mode (a KernelContext kernel with barriers, Fission): the method runs a whole work-group,
  // each region between barriers as a loop over its work-items.
  private final Fission fission;
  private final Map<Var, Integer> itemArrays = new HashMap<>();      // variables living across regions: one value per work-item
  private final Map<dev.loopjit.ir.Label, Label[]> groupJumps = new HashMap<>();
  private final int[] localIds = new int[3];
  private boolean inItem;                                             // emitting a region, for work-item `itemIndex`
  private int itemIndex, items, done, exit;
  private java.util.Set<dev.loopjit.ir.Label> regionLabels;
  private List<Object[]> exits;                                       // the region's jumps out of it: {IR label, continue?}
  private boolean regionReturns;
  private Label itemEnd, methodEnd;

  // Vector lanes (LaneVectors): an iteration run a vector group at a time, then its scalar tail.
  private final Map<Stmt, LaneVectors.Choice> vectorChoices;          // lane count's statement -> its iteration as vectors
  private LaneVectors.Plan vectors;                                   // emitting a vector group of this plan's iteration
  private LaneVectors.Plan tail;                                      // emitting the scalar tail: lane loops start at laneBase
  private final Map<Var, int[]> vectorSlots = new LinkedHashMap<>();  // lane array -> the locals of its vectors
  private int laneBase;                                               // slot: the first lane of the group or the tail
  private int vectorGroups;                                           // vectors per lane array in the group being emitted
  private VectorKind vectorKind;                                      // the group's operations (float, double or int)
  private final Map<Expr, Integer> broadcasts = new HashMap<>();      // lane loop being emitted: value -> the local of its broadcast

  /** An access's handler: the message's description, and the array's Java name and the source line apart, for the runtime. */
  private record Handler(Label label, String where, String array, String source) {}

  private BytecodeEmitter(KernelIR ir, boolean vectorLanes) {
    this.ir = ir;
    this.fission = Fission.of(ir);
    this.vectorChoices = vectorLanes && fission == null
        ? LaneVectors.choose(ir.body(), element -> VectorKind.of(element).length(), VectorOps.SPECIES.vectorBitSize() >= 512) : Map.of();
  }

  /**
   * The class file of {@code ir}, named {@code dev.loopjit.backend.jvmmt.<name>} (a hidden class of
   * this package); with {@code vectorLanes}, float lane iterations as vectors ({@link LaneVectors}).
   */
  static byte[] emit(KernelIR ir, boolean vectorLanes) {
    return new BytecodeEmitter(ir, vectorLanes).build();
  }

  /** The class name {@link #emit} gives {@code ir}. */
  static ClassDesc className(KernelIR ir) {
    return ClassDesc.of("dev.loopjit.backend.jvmmt", "Kernel_" + ir.name());
  }

  private byte[] build() {
    for (KernelIR.Param p : ir.params())
      if (p.kind() == KernelIR.Param.Kind.ARRAY)
        arrayNames.put(p.var(), javaType(p.var().type()) + " '" + p.var().name() + "' (parameter " + p.index() + ")");
    ClassDesc self = className(ir);
    MethodTypeDesc kernelType = kernelType();
    ClassHierarchyResolver resolver = ClassHierarchyResolver.defaultResolver()
        .orElse(ClassHierarchyResolver.ofClassLoading(BytecodeEmitter.class.getClassLoader()));
    return ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(resolver)).build(self, cb -> {
      cb.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SUPER | ClassFile.ACC_SYNTHETIC);
      cb.withInterfaceSymbols(GENERATED);
      cb.withMethodBody(ConstantDescs.INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_PUBLIC,
          c -> c.aload(0).invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void).return_());
      cb.withMethodBody("kernel", kernelType, ClassFile.ACC_STATIC | ClassFile.ACC_PRIVATE, c -> {
        // the ClassFile API may run this handler again (to rewrite jumps or dead code): start each run afresh,
        // or labels of the first run's builder leak into the second ("Unexpected label context")
        slots.clear();
        jumps.clear();
        vectors = tail = null;
        handlers.clear();
        itemArrays.clear();
        groupJumps.clear();
        localSites = 0;
        at = Src.NONE;
        inItem = false;
        itemEnd = methodEnd = null;
        code = c;
        kernel();
      });
      if (fission != null)   // the kernel runs the whole group itself
        cb.withMethodBody("run", RUN, ClassFile.ACC_PUBLIC, c -> {
          unpack(c);
          c.aload(2).invokestatic(self, "kernel", kernelType).return_();
        });
      else cb.withMethodBody("run", RUN, ClassFile.ACC_PUBLIC, c -> group(c, self, kernelType));
      cb.withMethodBody("item", RUN, ClassFile.ACC_PUBLIC, c -> {
        unpack(c);
        c.aload(2).invokestatic(self, "kernel", kernelType).return_();
      });
    });
  }

  private MethodTypeDesc kernelType() {
    List<ClassDesc> params = new ArrayList<>();
    for (KernelArg a : ir.args()) params.add(desc(argType(a)));
    params.add(ITEM);
    return MethodTypeDesc.of(ConstantDescs.CD_void, params);
  }

  // ---- run and item: unpack the argument array, loop over the group's work-items -----------------

  /** Pushes every kernel argument from {@code args} (slot 1), unboxed. */
  private void unpack(CodeBuilder c) {
    List<KernelArg> args = ir.args();
    for (int k = 0; k < args.size(); k++) {
      c.aload(1).loadConstant(k).aaload();
      Type t = argType(args.get(k));
      if (t instanceof ArrayType) {
        c.checkcast(desc(t));
        continue;
      }
      switch (kind(t)) {
        case LONG -> c.checkcast(LONG).invokevirtual(LONG, "longValue", MethodTypeDesc.of(ConstantDescs.CD_long));
        case FLOAT -> c.checkcast(FLOAT).invokevirtual(FLOAT, "floatValue", MethodTypeDesc.of(ConstantDescs.CD_float));
        case DOUBLE -> c.checkcast(DOUBLE).invokevirtual(DOUBLE, "doubleValue", MethodTypeDesc.of(ConstantDescs.CD_double));
        default -> c.checkcast(INTEGER).invokevirtual(INTEGER, "intValue", MethodTypeDesc.of(ConstantDescs.CD_int));
      }
    }
  }

  /** {@code run}: for each local id (z, y, x) of the group, set the item's ids and call the kernel. */
  private void group(CodeBuilder c, ClassDesc self, MethodTypeDesc kernelType) {
    List<KernelArg> args = ir.args();
    int[] argSlots = new int[args.size()];
    for (int k = 0; k < args.size(); k++) {
      TypeKind tk = kind(argType(args.get(k)));
      argSlots[k] = c.allocateLocal(tk);
    }
    unpack(c);
    for (int k = args.size() - 1; k >= 0; k--) c.storeLocal(kind(argType(args.get(k))), argSlots[k]);
    int[] id = {c.allocateLocal(TypeKind.INT), c.allocateLocal(TypeKind.INT), c.allocateLocal(TypeKind.INT)};
    Label done = c.newLabel();
    Label[] top = new Label[3], next = new Label[3];
    for (int d = 2; d >= 0; d--) {
      top[d] = c.newLabel();
      next[d] = c.newLabel();
      c.iconst_0().istore(id[d]);
      c.labelBinding(top[d]);
      c.iload(id[d]).aload(2).getfield(ITEM, "s" + d, ConstantDescs.CD_int).if_icmpge(d == 2 ? done : next[d + 1]);
    }
    c.aload(2).iload(id[0]).iload(id[1]).iload(id[2])
        .invokevirtual(ITEM, "local", MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_int, ConstantDescs.CD_int, ConstantDescs.CD_int));
    for (int k = 0; k < args.size(); k++) c.loadLocal(kind(argType(args.get(k))), argSlots[k]);
    c.aload(2).invokestatic(self, "kernel", kernelType);
    for (int d = 0; d <= 2; d++) {
      c.iinc(id[d], 1).goto_(top[d]);
      if (d < 2) c.labelBinding(next[d + 1]);
    }
    c.labelBinding(done).return_();
  }

  // ---- the kernel body --------------------------------------------------------------------------

  private void kernel() {
    List<KernelArg> args = ir.args();
    for (int k = 0; k < args.size(); k++) if (!(args.get(k) instanceof KernelArg.Local)) slots.put(args.get(k).var(), code.parameterSlot(k));
    itemSlot = code.parameterSlot(args.size());
    // a local array sized at launch arrives as its length: the group's array for it, shared by its work-items
    for (int k = 0; k < args.size(); k++) {
      if (!(args.get(k) instanceof KernelArg.Local l)) continue;
      int slot = code.allocateLocal(TypeKind.REFERENCE), length = code.parameterSlot(k);
      localArray((ArrayType) l.var().type(), () -> code.iload(length));
      code.astore(slot);
      slots.put(l.var(), slot);
    }
    Map<Var, Boolean> vars = new LinkedHashMap<>();
    collect(ir.body(), vars);
    for (Var v : vars.keySet()) {
      if (slots.containsKey(v)) continue;
      TypeKind k = kind(v.type());
      int slot = code.allocateLocal(k);
      slots.put(v, slot);
      switch (k) {
        case INT -> code.iconst_0();
        case LONG -> code.lconst_0();
        case FLOAT -> code.fconst_0();
        case DOUBLE -> code.dconst_0();
        default -> code.aconst_null();
      }
      code.storeLocal(k, slot);
    }
    if (fission != null) {
      groupPrologue();
      methodEnd = code.newLabel();
      groupStmts(ir.body().stmts());
      code.labelBinding(methodEnd);
    } else {
      block(ir.body());
    }
    code.return_();
    for (Handler h : handlers) {
      code.labelBinding(h.label());
      code.loadConstant(h.where()).loadConstant(h.array()).loadConstant(h.source())
          .invokestatic(FAILURES, "outOfBounds", MethodTypeDesc.of(OOB, OOB, ConstantDescs.CD_String, ConstantDescs.CD_String, ConstantDescs.CD_String))
          .athrow();
    }
  }

  private void block(Block b) {
    List<Stmt> stmts = b.stmts();
    for (int i = 0; i < stmts.size(); i++) {
      LaneVectors.Choice choice = vectors == null && tail == null ? vectorChoices.get(stmts.get(i)) : null;
      stmt(stmts.get(i));
      if (choice != null) vectorIteration(choice.plan(), choice.groups(), stmts.get(++i));
    }
  }

  /**
   * The iteration that follows its lane count: groups of {@code groups} vectors of lanes
   * ({@link LaneVectors#choose}) while that many lanes are left, each lane array's values in vector locals; then the lanes
   * left, as the scalar form from the first of them. (A second vector pass for the lanes left, one
   * vector at a time, made a 4-row matmul slower: the JIT's inlining budget for the method ran out.)
   */
  private void vectorIteration(LaneVectors.Plan plan, int groups, Stmt iteration) {
    vectorKind = VectorKind.of(plan.element());
    int width = groups * vectorKind.length(), lanes = slot(plan.lanes());
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
    stmt(iteration);
    vectors = null;
    code.iinc(base, width).goto_(top);
    code.labelBinding(scalar);
    code.iload(base).iload(lanes).if_icmpge(end);
    tail = plan;
    stmt(iteration);
    tail = null;
    code.labelBinding(end);
  }

  /** One lane loop of a vector group: its lane-independent loads, then its store for each vector of the group. */
  private void vectorLaneLoop(LaneVectors.LaneLoop loop) {
    for (Stmt s : loop.before()) stmt(s);
    Store st = loop.store();
    at = st.src();
    if (at.line() > 0 && at.line() <= 0xFFFF) code.lineNumber(at.line());
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
        guarded(st.array(), () -> code.invokestatic(vectorKind.ops(), "store", vectorKind.store()));
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
        guarded(ld.array(), () -> code.invokestatic(vectorKind.ops(), "load", vectorKind.load()));
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
      case Select sel -> {   // the condition is the same for every lane: the chosen side only, as Java evaluates it
        Label otherwise = code.newLabel(), end = code.newLabel();
        jumpUnless(sel.cond(), otherwise);
        vectorValue(sel.a(), lane, g);
        code.goto_(end);
        code.labelBinding(otherwise);
        vectorValue(sel.b(), lane, g);
        code.labelBinding(end);
      }
      default -> throw new IllegalStateException("no vector form for " + e);
    }
  }

  private void stmt(Stmt s) {
    if (s.src() != Src.NONE) {
      at = s.src();
      if (at.line() > 0 && at.line() <= 0xFFFF) code.lineNumber(at.line());
    }
    switch (s) {
      case Block b when vectors != null && vectors.loops().containsKey(b) -> vectorLaneLoop(vectors.loops().get(b));
      case Block b -> block(b);
      case Assign a when tail != null && tail.isLaneStart(a) -> storeVar(a.var(), () -> code.iload(laneBase));
      case Assign a -> assign(a);
      case Store st -> store(st);
      case Eval e -> {
        TypeKind k = expr(e.call());
        if (k.slotSize() == 2) code.pop2();
        else if (k.slotSize() == 1) code.pop();
      }
      case If i when i.otherwise().isEmpty() && i.then().stmts().size() == 1 && i.then().stmts().get(0) instanceof Break b
          && !crossing(b.target()) -> jump(i.cond(), true, target(b.target())[0]);
      case If i when i.otherwise().isEmpty() && i.then().stmts().size() == 1 && i.then().stmts().get(0) instanceof Continue c
          && !crossing(c.target()) && target(c.target())[1] != null -> jump(i.cond(), true, target(c.target())[1]);
      case If i -> {
        Label otherwise = code.newLabel(), end = code.newLabel();
        jumpUnless(i.cond(), otherwise);
        block(i.then());
        if (!i.otherwise().isEmpty()) code.goto_(end);
        code.labelBinding(otherwise);
        block(i.otherwise());
        code.labelBinding(end);
      }
      case Loop l -> {
        Label top = code.newLabel(), next = code.newLabel(), end = code.newLabel();
        jumps.put(l.label(), new Label[] {end, next});
        if (inItem) regionLabels.add(l.label());
        code.labelBinding(top);
        block(l.body());
        code.labelBinding(next);
        block(l.update());
        code.goto_(top);
        code.labelBinding(end);
      }
      case Switch sw -> switchStmt(sw);
      case Labeled l -> {
        Label end = code.newLabel();
        jumps.put(l.label(), new Label[] {end, null});
        if (inItem) regionLabels.add(l.label());
        block(l.body());
        code.labelBinding(end);
      }
      case Break b when crossing(b.target()) -> leaveRegion(b.target(), false);
      case Continue c when crossing(c.target()) -> leaveRegion(c.target(), true);
      case Break b -> code.goto_(target(b.target())[0]);
      case Continue c -> {
        Label next = target(c.target())[1];
        if (next == null) throw new IllegalStateException("continue " + c.target() + " targets a non-loop");
        code.goto_(next);
      }
      case Return r -> {
        if (r.value() != null) throw new IllegalStateException("a kernel returns no value: " + r.src().describe());
        if (inItem) {
          // this work-item is done: it takes no part in the later regions
          code.aload(done).iload(itemIndex).iconst_1().bastore().goto_(itemEnd);
          regionReturns = true;
        } else {
          code.return_();
        }
      }
    }
  }

  private Label[] target(dev.loopjit.ir.Label l) {
    Label[] t = jumps.get(l);
    if (t == null) throw new IllegalStateException("jump to " + l + ", which does not enclose it, in " + ir.name());
    return t;
  }

  private void switchStmt(Switch sw) {
    Label end = code.newLabel();
    jumps.put(sw.label(), new Label[] {end, null});
    if (inItem) regionLabels.add(sw.label());
    expr(sw.selector());
    Label[] labels = new Label[sw.cases().size()];
    Label fallback = end;
    List<SwitchCase> cases = new ArrayList<>();
    for (int k = 0; k < labels.length; k++) {
      labels[k] = code.newLabel();
      Case c = sw.cases().get(k);
      if (c.isDefault()) fallback = labels[k];
      for (int v : c.values()) cases.add(SwitchCase.of(v, labels[k]));
    }
    cases.sort(Comparator.comparingInt(SwitchCase::caseValue));
    code.lookupswitch(fallback, cases);
    for (int k = 0; k < labels.length; k++) {
      code.labelBinding(labels[k]);
      block(sw.cases().get(k).body());
    }
    code.labelBinding(end);
  }

  private void assign(Assign a) {
    if (itemArrays.containsKey(a.var())) {
      storeVar(a.var(), () -> expr(a.value()));
      return;
    }
    int slot = slot(a.var());
    if (a.value() instanceof Alloc alloc) {
      ArrayType t = alloc.type();
      switch (t.space()) {
        case PRIVATE -> code.loadConstant(t.length()).newarray(elementKind(t.element()));
        case LOCAL -> localArray(t, () -> code.loadConstant(t.length()));
        case GLOBAL -> throw new IllegalStateException("cannot allocate a global array: " + a.src().describe());
      }
      code.astore(slot);
      return;
    }
    TypeKind k = expr(a.value());
    code.storeLocal(k, slot);
  }

  /** Pushes the group's local array of type {@code t} for a new allocation site, {@code length} pushing its length. */
  private void localArray(ArrayType t, Runnable length) {
    String m = switch (t.element()) {
      case INT -> "localInt";
      case LONG -> "localLong";
      case FLOAT -> "localFloat";
      case DOUBLE -> "localDouble";
      case SHORT, HALF -> "localShort";
      case BYTE -> "localByte";
      case CHAR -> "localChar";
      case BOOLEAN -> "localBoolean";
    };
    code.aload(itemSlot).loadConstant(localSites++);
    length.run();
    code.invokevirtual(ITEM, m, MethodTypeDesc.of(desc(t), ConstantDescs.CD_int, ConstantDescs.CD_int));
  }

  private void store(Store st) {
    ArrayType t = (ArrayType) st.array().type();
    expr(st.array());
    expr(st.index());
    expr(st.value());
    if (t.element() == Prim.HALF) code.invokestatic(FLOAT, "floatToFloat16", MethodTypeDesc.of(ConstantDescs.CD_short, ConstantDescs.CD_float));
    guarded(st.array(), () -> code.arrayStore(elementKind(t.element())));
  }

  /** Emits an array access with a handler of its own that names the array and the line. */
  private void guarded(Expr array, Runnable access) {
    Label start = code.newLabel(), end = code.newLabel(), handler = code.newLabel();
    code.labelBinding(start);
    access.run();
    code.labelBinding(end);
    code.exceptionCatch(start, end, handler, OOB);
    handlers.add(new Handler(handler, describe(array) + " at " + where(at), javaName(array), where(at)));
  }

  private String describe(Expr array) {
    if (array instanceof Read r) {
      String param = arrayNames.get(r.var());
      if (param != null) return param;
      ArrayType t = (ArrayType) r.var().type();
      // a private array is named by its allocation, as the bounds pass names it on the other devices
      if (t.space() == ArrayType.Space.PRIVATE) return "private array 'new " + t.element() + "[" + t.length() + "]'";
      return (t.space() == ArrayType.Space.GLOBAL ? "array" : t.space().name().toLowerCase() + " array") + " '" + r.var().name() + "'";
    }
    return "an array";
  }

  /** The array's name as the other devices' reports give it: the parameter or local, or {@code new int[5]} for a private array. */
  private static String javaName(Expr array) {
    if (!(array instanceof Read r)) return "";
    ArrayType t = (ArrayType) r.var().type();
    return t.space() == ArrayType.Space.PRIVATE ? "new " + t.element() + "[" + t.length() + "]" : r.var().name();
  }

  private static String where(Src s) {
    if (s == Src.NONE) return "an unknown line";
    StringBuilder b = new StringBuilder(s.describe());
    for (Src c = s.caller(); c != null; c = c.caller()) b.append(", called from ").append(c.describe());
    return b.toString();
  }

  // ---- expressions: each pushes its value and says of what kind ----------------------------------

  private TypeKind expr(Expr e) {
    return switch (e) {
      case Const c -> constant(c);
      case Read r -> loadVar(r.var());
      case Unary u -> {
        TypeKind k = expr(u.x());
        if (u.op() == Op.Unary.NOT) code.iconst_1().ixor();
        else switch (k) {
          case LONG -> code.lneg();
          case FLOAT -> code.fneg();
          case DOUBLE -> code.dneg();
          default -> code.ineg();
        }
        yield k;
      }
      case Binary b -> binary(b);
      case Compare c -> bool(e);
      case Logic l -> bool(e);
      case Convert c -> convert(c);
      case Select s -> {
        Label otherwise = code.newLabel(), end = code.newLabel();
        jumpUnless(s.cond(), otherwise);
        TypeKind k = expr(s.a());
        code.goto_(end);
        code.labelBinding(otherwise);
        expr(s.b());
        code.labelBinding(end);
        yield k;
      }
      case Load l -> {
        ArrayType t = (ArrayType) l.array().type();
        expr(l.array());
        expr(l.index());
        guarded(l.array(), () -> code.arrayLoad(elementKind(t.element())));
        if (t.element() == Prim.HALF) {
          code.invokestatic(FLOAT, "float16ToFloat", MethodTypeDesc.of(ConstantDescs.CD_float, ConstantDescs.CD_short));
          yield TypeKind.FLOAT;
        }
        yield kind(t.element().stackType());
      }
      case Length l -> {
        expr(l.array());
        code.arraylength();
        yield TypeKind.INT;
      }
      case Call c -> call(c);
      case Alloc a -> throw new IllegalStateException("allocation outside an assignment: " + a);
      case Invoke i -> throw new IllegalStateException("call of " + i.owner() + "." + i.name() + " was not inlined");
    };
  }

  private TypeKind constant(Const c) {
    switch (c.type()) {
      case BOOLEAN -> code.loadConstant(c.longValue() != 0 ? 1 : 0);
      case LONG -> code.loadConstant(((Number) c.value()).longValue());
      case FLOAT -> {
        float f = ((Number) c.value()).floatValue();
        if (Float.isNaN(f)) code.loadConstant(Float.floatToRawIntBits(f)).invokestatic(FLOAT, "intBitsToFloat",
            MethodTypeDesc.of(ConstantDescs.CD_float, ConstantDescs.CD_int));
        else code.loadConstant(f);
        return TypeKind.FLOAT;
      }
      case DOUBLE -> {
        double d = ((Number) c.value()).doubleValue();
        if (Double.isNaN(d)) code.loadConstant(Double.doubleToRawLongBits(d)).invokestatic(DOUBLE, "longBitsToDouble",
            MethodTypeDesc.of(ConstantDescs.CD_double, ConstantDescs.CD_long));
        else code.loadConstant(d);
        return TypeKind.DOUBLE;
      }
      case HALF -> throw new IllegalStateException("half is storage only; no half constants: " + c);
      default -> code.loadConstant((int) c.longValue());
    }
    return kind(c.type());
  }

  private TypeKind binary(Binary b) {
    TypeKind k = expr(b.a());
    Op.Binary op = b.op();
    boolean integral = k == TypeKind.INT || k == TypeKind.LONG;
    if (integral && (op == Op.Binary.DIV || op == Op.Binary.REM))
      throw new IllegalStateException("integer " + op + " reaches the emitter only legalised (the legalise pass)");
    expr(b.b());
    arithmetic(op, k);
    return k;
  }

  private void arithmetic(Op.Binary op, TypeKind k) {
    switch (k) {
      case LONG -> {
        switch (op) {
          case ADD -> code.ladd(); case SUB -> code.lsub(); case MUL -> code.lmul(); case DIV -> code.ldiv(); case REM -> code.lrem();
          case AND -> code.land(); case OR -> code.lor(); case XOR -> code.lxor();
          case SHL -> code.lshl(); case SHR -> code.lshr(); case USHR -> code.lushr();
        }
      }
      case FLOAT -> {
        switch (op) {
          case ADD -> code.fadd(); case SUB -> code.fsub(); case MUL -> code.fmul(); case DIV -> code.fdiv(); case REM -> code.frem();
          default -> throw new IllegalStateException(op + " on float");
        }
      }
      case DOUBLE -> {
        switch (op) {
          case ADD -> code.dadd(); case SUB -> code.dsub(); case MUL -> code.dmul(); case DIV -> code.ddiv(); case REM -> code.drem();
          default -> throw new IllegalStateException(op + " on double");
        }
      }
      default -> {
        switch (op) {
          case ADD -> code.iadd(); case SUB -> code.isub(); case MUL -> code.imul(); case DIV -> code.idiv(); case REM -> code.irem();
          case AND -> code.iand(); case OR -> code.ior(); case XOR -> code.ixor();
          case SHL -> code.ishl(); case SHR -> code.ishr(); case USHR -> code.iushr();
        }
      }
    }
  }

  /** A boolean expression as the int 0 or 1. */
  private TypeKind bool(Expr e) {
    Label no = code.newLabel(), end = code.newLabel();
    jumpUnless(e, no);
    code.iconst_1().goto_(end);
    code.labelBinding(no);
    code.iconst_0();
    code.labelBinding(end);
    return TypeKind.INT;
  }

  private TypeKind convert(Convert c) {
    Prim from = c.x().prim() == Prim.BOOLEAN ? Prim.INT : c.x().prim().stackType();
    Prim to = c.to();
    expr(c.x());
    switch (to) {
      case BOOLEAN -> throw new IllegalStateException("no Java conversion from " + from + " to boolean");
      case INT -> toInt(from);
      case LONG -> {
        switch (from) {
          case INT -> code.i2l(); case FLOAT -> code.f2l(); case DOUBLE -> code.d2l(); default -> {}
        }
      }
      case FLOAT -> {
        switch (from) {
          case INT -> code.i2f(); case LONG -> code.l2f(); case DOUBLE -> code.d2f(); default -> {}
        }
      }
      case DOUBLE -> {
        switch (from) {
          case INT -> code.i2d(); case LONG -> code.l2d(); case FLOAT -> code.f2d(); default -> {}
        }
      }
      case BYTE -> { toInt(from); code.i2b(); }
      case SHORT -> { toInt(from); code.i2s(); }
      case CHAR -> { toInt(from); code.i2c(); }
      case HALF -> {
        switch (from) {
          case INT -> code.i2f(); case LONG -> code.l2f(); case DOUBLE -> code.d2f(); default -> {}
        }
        code.invokestatic(FLOAT, "floatToFloat16", MethodTypeDesc.of(ConstantDescs.CD_short, ConstantDescs.CD_float))
            .invokestatic(FLOAT, "float16ToFloat", MethodTypeDesc.of(ConstantDescs.CD_float, ConstantDescs.CD_short));
      }
    }
    return kind(to.stackType());
  }

  private void toInt(Prim from) {
    switch (from) {
      case LONG -> code.l2i(); case FLOAT -> code.f2i(); case DOUBLE -> code.d2i(); default -> {}
    }
  }

  // ---- conditions: jumps, so that booleans are rarely materialised ------------------------------

  /** Jumps to {@code target} when {@code cond} is false. */
  private void jumpUnless(Expr cond, Label target) {
    jump(cond, false, target);
  }

  /** Jumps to {@code target} when {@code cond} is {@code when}. */
  private void jump(Expr cond, boolean when, Label target) {
    switch (cond) {
      case Unary u when u.op() == Op.Unary.NOT -> jump(u.x(), !when, target);
      case Const c -> {
        if ((c.longValue() != 0) == when) code.goto_(target);
      }
      case Logic l -> {
        boolean and = l.op() == Op.Logic.AND;
        if (and != when) {
          // (a && b) false: a false or b false; (a || b) true: a true or b true
          jump(l.a(), when, target);
          jump(l.b(), when, target);
        } else {
          Label skip = code.newLabel();
          jump(l.a(), !when, skip);
          jump(l.b(), when, target);
          code.labelBinding(skip);
        }
      }
      case Compare c -> compare(c, when, target);
      default -> {
        expr(cond);
        if (when) code.ifne(target);
        else code.ifeq(target);
      }
    }
  }

  private void compare(Compare c, boolean when, Label target) {
    TypeKind k = expr(c.a());
    expr(c.b());
    Op.Compare op = c.op();
    switch (k) {
      case LONG, FLOAT, DOUBLE -> {
        // fcmpg gives 1 for NaN, so < and <= are false; fcmpl gives -1, so > and >= are false; == and != either
        boolean g = op == Op.Compare.LT || op == Op.Compare.LE;
        switch (k) {
          case LONG -> code.lcmp();
          case FLOAT -> { if (g) code.fcmpg(); else code.fcmpl(); }
          default -> { if (g) code.dcmpg(); else code.dcmpl(); }
        }
        Op.Compare test = when ? op : op.negate();
        switch (test) {
          case EQ -> code.ifeq(target); case NE -> code.ifne(target); case LT -> code.iflt(target);
          case LE -> code.ifle(target); case GT -> code.ifgt(target); case GE -> code.ifge(target);
        }
      }
      default -> {
        Op.Compare test = when ? op : op.negate();
        switch (test) {
          case EQ -> code.if_icmpeq(target); case NE -> code.if_icmpne(target); case LT -> code.if_icmplt(target);
          case LE -> code.if_icmple(target); case GT -> code.if_icmpgt(target); case GE -> code.if_icmpge(target);
        }
      }
    }
  }

  // ---- intrinsics -------------------------------------------------------------------------------

  private TypeKind call(Call c) {
    Intrinsic op = c.op();
    List<Expr> a = c.args();
    switch (op) {
      case GLOBAL_ID, LOCAL_ID, GROUP_ID, GLOBAL_SIZE, LOCAL_SIZE -> {
        int d = (int) ((Const) a.get(0)).longValue();
        if (inItem && op == Intrinsic.LOCAL_ID) {
          code.iload(localIds[d]);
          return TypeKind.INT;
        }
        if (inItem && op == Intrinsic.GLOBAL_ID) {
          code.aload(itemSlot).getfield(ITEM, "w" + d, ConstantDescs.CD_int).aload(itemSlot).getfield(ITEM, "s" + d, ConstantDescs.CD_int)
              .imul().iload(localIds[d]).iadd();
          return TypeKind.INT;
        }
        String field = switch (op) {
          case GLOBAL_ID -> "g"; case LOCAL_ID -> "l"; case GROUP_ID -> "w"; case GLOBAL_SIZE -> "n"; default -> "s";
        };
        code.aload(itemSlot).getfield(ITEM, field + d, ConstantDescs.CD_int);
        return TypeKind.INT;
      }
      case PRINTF -> {
        printf(c);
        return TypeKind.VOID;
      }
      case THROW -> {   // a Math.*Exact that overflowed, or a Character call beyond Latin-1: naming the kernel's line
        int which = a.get(0) instanceof Const k && k.value() instanceof Number n ? n.intValue() : -1;
        if (a.size() > 1) {   // the value no kernel answers (a code point)
          code.ldc(ExactMath.message(which));
          expr(a.get(1));
          code.ldc(where(ExactMath.callSite(at))).invokestatic(FAILURES, "unsupported",
              MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_String, ConstantDescs.CD_int, ConstantDescs.CD_String));
          return TypeKind.VOID;
        }
        code.ldc(ExactMath.message(which)).ldc(where(ExactMath.callSite(at)))
            .invokestatic(FAILURES, "arithmetic", MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_String, ConstantDescs.CD_String));
        return TypeKind.VOID;
      }
      case BARRIER_LOCAL, BARRIER_GLOBAL -> {
        code.aload(itemSlot).invokevirtual(ITEM, "barrier", ConstantDescs.MTD_void);
        return TypeKind.VOID;
      }
      case ATOMIC_ADD, ATOMIC_CAS -> {
        ArrayType t = (ArrayType) a.get(0).type();
        ClassDesc e = desc(t.element().stackType());
        for (Expr x : a) expr(x);
        List<ClassDesc> params = new ArrayList<>(List.of(desc(t), ConstantDescs.CD_int, e));
        if (op == Intrinsic.ATOMIC_CAS) params.add(e);
        String name = op == Intrinsic.ATOMIC_ADD ? "add" : "cas";
        Label start = code.newLabel(), end = code.newLabel(), handler = code.newLabel();
        code.labelBinding(start);
        code.invokestatic(ATOMICS, name, MethodTypeDesc.of(e, params));
        code.labelBinding(end);
        code.exceptionCatch(start, end, handler, OOB);
        handlers.add(new Handler(handler, describe(a.get(0)) + " (atomic) at " + where(at), javaName(a.get(0)), where(at)));
        return kind(t.element().stackType());
      }
      case ADD_NO_WRAP, MUL_NO_WRAP -> {
        expr(a.get(0));
        expr(a.get(1));
        arithmetic(op == Intrinsic.ADD_NO_WRAP ? Op.Binary.ADD : Op.Binary.MUL, TypeKind.INT);
        return TypeKind.INT;
      }
      case DIV_UNCHECKED, REM_UNCHECKED -> {
        // the legalise pass proved the divisor neither 0 nor -1: idiv, ldiv, irem, lrem are Java's / and % there
        TypeKind k = expr(a.get(0));
        expr(a.get(1));
        arithmetic(op == Intrinsic.DIV_UNCHECKED ? Op.Binary.DIV : Op.Binary.REM, k);
        return k;
      }
      case FMA, ABS, MIN, MAX -> {
        if (op == Intrinsic.ABS && a.get(0).prim().isIntegral())
          throw new IllegalStateException("integer abs reaches the emitter only legalised (the legalise pass)");
        // integer min and max are Math's; floating ones are Math's too (Java's own), where fast math left them
        for (Expr x : a) expr(x);
        ClassDesc t = desc(c.type().stackType());
        ClassDesc[] params = new ClassDesc[a.size()];
        java.util.Arrays.fill(params, t);
        code.invokestatic(MATH, op.name().toLowerCase(), MethodTypeDesc.of(t, params));
        return kind(c.type().stackType());
      }
      case FLOAT_BITS -> { expr(a.get(0)); code.invokestatic(FLOAT, "floatToRawIntBits", MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_float)); return TypeKind.INT; }
      case BITS_FLOAT -> { expr(a.get(0)); code.invokestatic(FLOAT, "intBitsToFloat", MethodTypeDesc.of(ConstantDescs.CD_float, ConstantDescs.CD_int)); return TypeKind.FLOAT; }
      case DOUBLE_BITS -> { expr(a.get(0)); code.invokestatic(DOUBLE, "doubleToRawLongBits", MethodTypeDesc.of(ConstantDescs.CD_long, ConstantDescs.CD_double)); return TypeKind.LONG; }
      case BITS_DOUBLE -> { expr(a.get(0)); code.invokestatic(DOUBLE, "longBitsToDouble", MethodTypeDesc.of(ConstantDescs.CD_double, ConstantDescs.CD_long)); return TypeKind.DOUBLE; }
      case POPCOUNT, CLZ, CTZ -> {
        TypeKind k = expr(a.get(0));
        String name = switch (op) { case POPCOUNT -> "bitCount"; case CLZ -> "numberOfLeadingZeros"; default -> "numberOfTrailingZeros"; };
        if (k == TypeKind.LONG) code.invokestatic(LONG, name, MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_long));
        else code.invokestatic(INTEGER, name, MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_int));
        return TypeKind.INT;
      }
      default -> {
        // Math's double functions; a float call (fast math) goes through double, which is exact for these
        for (Expr x : a) if (expr(x) == TypeKind.FLOAT) code.f2d();
        ClassDesc[] params = new ClassDesc[a.size()];
        java.util.Arrays.fill(params, ConstantDescs.CD_double);
        code.invokestatic(MATH, op.name().toLowerCase(), MethodTypeDesc.of(ConstantDescs.CD_double, params));
        if (c.type() == Prim.FLOAT) {
          code.d2f();
          return TypeKind.FLOAT;
        }
        return TypeKind.DOUBLE;
      }
    }
  }

  /**
   * {@code Debug.printf(format, values)} as the {@code jvm} device calls it, each value boxed as its
   * stack type (Debug prints an Integer holding a short as the short): one call, however long the format.
   */
  private void printf(Call c) {
    List<Expr> values = PrintFormat.values(c);
    code.loadConstant(PrintFormat.of(c).text()).loadConstant(values.size()).anewarray(ConstantDescs.CD_Object);
    for (int k = 0; k < values.size(); k++) {
      code.dup().loadConstant(k);
      TypeKind t = expr(values.get(k));
      ClassDesc box = switch (t) {
        case LONG -> LONG;
        case FLOAT -> FLOAT;
        case DOUBLE -> DOUBLE;
        default -> INTEGER;
      };
      code.invokestatic(box, "valueOf", MethodTypeDesc.of(box, t.upperBound()));
      code.aastore();
    }
    code.invokestatic(DEBUG, "printf", MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_String, ConstantDescs.CD_Object.arrayType()));
  }

  // ---- group mode: regions between barriers as loops over the work-items ----------------------

  private void groupPrologue() {
    items = code.allocateLocal(TypeKind.INT);
    code.aload(itemSlot).getfield(ITEM, "s0", ConstantDescs.CD_int).aload(itemSlot).getfield(ITEM, "s1", ConstantDescs.CD_int).imul()
        .aload(itemSlot).getfield(ITEM, "s2", ConstantDescs.CD_int).imul().istore(items);
    done = code.allocateLocal(TypeKind.REFERENCE);
    code.iload(items).newarray(TypeKind.BOOLEAN).astore(done);
    exit = code.allocateLocal(TypeKind.REFERENCE);
    code.iload(items).newarray(TypeKind.INT).astore(exit);
    for (Var v : fission.perItem()) {
      int slot = code.allocateLocal(TypeKind.REFERENCE);
      code.iload(items).newarray(kind(v.type())).astore(slot);
      itemArrays.put(v, slot);
    }
    itemIndex = code.allocateLocal(TypeKind.INT);
    for (int d = 0; d < 3; d++) localIds[d] = code.allocateLocal(TypeKind.INT);
  }

  /** Statements run once for the group: barrier-free runs become regions, barriers end them, what contains a barrier stays structured. */
  private void groupStmts(List<Stmt> stmts) {
    List<Stmt> run = new ArrayList<>();
    for (Stmt s : stmts) {
      if (Fission.isBarrier(s)) {
        region(run);
      } else if (fission.hasBarrier(s)) {
        region(run);
        structured(s);
      } else {
        run.add(s);
      }
    }
    region(run);
  }

  private void structured(Stmt s) {
    switch (s) {
      case Block b -> groupStmts(b.stmts());
      case If i -> {
        Label otherwise = code.newLabel(), end = code.newLabel();
        int choice = code.allocateLocal(TypeKind.INT);
        forEachItem(() -> {
          code.aload(exit).iload(itemIndex);
          bool(i.cond());
          code.iconst_1().iadd().iastore();   // 2 when true, 1 when false
        });
        agree(choice);
        code.iload(choice).iconst_2().if_icmpne(otherwise);
        groupStmts(i.then().stmts());
        code.goto_(end);
        code.labelBinding(otherwise);
        groupStmts(i.otherwise().stmts());
        code.labelBinding(end);
      }
      case Loop l -> {
        Label top = code.newLabel(), next = code.newLabel(), end = code.newLabel();
        groupJumps.put(l.label(), new Label[] {end, next});
        code.labelBinding(top);
        groupStmts(l.body().stmts());
        code.labelBinding(next);
        groupStmts(l.update().stmts());
        code.goto_(top);
        code.labelBinding(end);
      }
      case Labeled l -> {
        Label end = code.newLabel();
        groupJumps.put(l.label(), new Label[] {end, null});
        groupStmts(l.body().stmts());
        code.labelBinding(end);
      }
      default -> throw new IllegalStateException("a barrier in " + s.getClass().getSimpleName() + " cannot run in group mode");
    }
  }

  /** A region: {@code run} for every work-item still running; then, if any left it by a jump, the group follows them. */
  private void region(List<Stmt> run) {
    if (run.isEmpty()) return;
    List<Stmt> body = List.copyOf(run);
    run.clear();
    exits = new ArrayList<>();
    regionReturns = false;
    forEachItem(() -> {
      code.aload(exit).iload(itemIndex).iconst_0().iastore();
      for (Stmt s : body) stmt(s);
    });
    if (exits.isEmpty() && !regionReturns) return;
    int code0 = code.allocateLocal(TypeKind.INT);
    agree(code0);
    for (int k = 0; k < exits.size(); k++) {
      Object[] e = exits.get(k);
      Label[] t = groupJumps.get((dev.loopjit.ir.Label) e[0]);
      code.iload(code0).loadConstant(k + 1).if_icmpeq((Boolean) e[1] ? t[1] : t[0]);
    }
  }

  /** The code every running work-item left in {@code exit}, into {@code slot}; the method returns when every work-item has. */
  private void agree(int slot) {
    code.aload(exit).aload(done).iload(items)
        .invokestatic(ClassDesc.of("dev.loopjit.backend.jvmmt.Barriers"), "agree",
            MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_int.arrayType(), ConstantDescs.CD_boolean.arrayType(), ConstantDescs.CD_int))
        .istore(slot);
    code.iload(slot).iconst_m1().if_icmpeq(methodEnd);
  }

  /** {@code body} for each work-item of the group (x fastest) that has not returned. */
  private void forEachItem(Runnable body) {
    Label[] top = new Label[3], next = new Label[3];
    Label done3 = code.newLabel();
    for (int d = 2; d >= 0; d--) {
      top[d] = code.newLabel();
      next[d] = code.newLabel();
      code.iconst_0().istore(localIds[d]);
      code.labelBinding(top[d]);
      code.iload(localIds[d]).aload(itemSlot).getfield(ITEM, "s" + d, ConstantDescs.CD_int).if_icmpge(d == 2 ? done3 : next[d + 1]);
    }
    // itemIndex = (z · s1 + y) · s0 + x
    code.iload(localIds[2]).aload(itemSlot).getfield(ITEM, "s1", ConstantDescs.CD_int).imul().iload(localIds[1]).iadd()
        .aload(itemSlot).getfield(ITEM, "s0", ConstantDescs.CD_int).imul().iload(localIds[0]).iadd().istore(itemIndex);
    Label end = code.newLabel();
    code.aload(done).iload(itemIndex).baload().ifne(end);
    itemEnd = end;
    regionLabels = new java.util.HashSet<>();
    inItem = true;
    body.run();
    inItem = false;
    code.labelBinding(end);
    for (int d = 0; d <= 2; d++) {
      code.iinc(localIds[d], 1).goto_(top[d]);
      if (d < 2) code.labelBinding(next[d + 1]);
    }
    code.labelBinding(done3);
  }

  /** Whether a jump to {@code target} leaves the region being emitted (to a construct the group runs). */
  private boolean crossing(dev.loopjit.ir.Label target) {
    return inItem && !regionLabels.contains(target);
  }

  /** A jump out of the region: the work-item records where to, and ends its part of the region. */
  private void leaveRegion(dev.loopjit.ir.Label target, boolean isContinue) {
    if (!groupJumps.containsKey(target)) throw new IllegalStateException("jump to " + target + ", which does not enclose it, in " + ir.name());
    int k = -1;
    for (int i = 0; i < exits.size(); i++) if (exits.get(i)[0].equals(target) && exits.get(i)[1].equals(isContinue)) k = i;
    if (k < 0) {
      exits.add(new Object[] {target, isContinue});
      k = exits.size() - 1;
    }
    code.aload(exit).iload(itemIndex).loadConstant(k + 1).iastore().goto_(itemEnd);
  }

  private TypeKind loadVar(Var v) {
    TypeKind k = kind(v.type());
    Integer array = itemArrays.get(v);
    if (array == null) {
      code.loadLocal(k, slot(v));
    } else {
      if (!inItem) throw new IllegalStateException(v + " read outside a region");
      code.aload(array).iload(itemIndex).arrayLoad(k);
    }
    return k;
  }

  private void storeVar(Var v, Runnable value) {
    TypeKind k = kind(v.type());
    Integer array = itemArrays.get(v);
    if (array == null) {
      value.run();
      code.storeLocal(k, slot(v));
    } else {
      if (!inItem) throw new IllegalStateException(v + " assigned outside a region");
      code.aload(array).iload(itemIndex);
      value.run();
      code.arrayStore(k);
    }
  }

  // ---- types and slots --------------------------------------------------------------------------

  private int slot(Var v) {
    Integer s = slots.get(v);
    if (s == null) throw new IllegalStateException("variable " + v + " has no slot in " + ir.name());
    return s;
  }

  /** The kind of a value of type {@code t} in a local or on the stack. */
  static TypeKind kind(Type t) {
    if (t instanceof ArrayType) return TypeKind.REFERENCE;
    return switch (((Prim) t).stackType()) {
      case LONG -> TypeKind.LONG;
      case FLOAT -> TypeKind.FLOAT;
      case DOUBLE -> TypeKind.DOUBLE;
      default -> TypeKind.INT;
    };
  }

  /** The element kind of the Java array that holds {@code p}s on this device ({@code short} for HALF). */
  static TypeKind elementKind(Prim p) {
    return switch (p) {
      case BOOLEAN -> TypeKind.BOOLEAN;
      case BYTE -> TypeKind.BYTE;
      case CHAR -> TypeKind.CHAR;
      case SHORT, HALF -> TypeKind.SHORT;
      case INT -> TypeKind.INT;
      case LONG -> TypeKind.LONG;
      case FLOAT -> TypeKind.FLOAT;
      case DOUBLE -> TypeKind.DOUBLE;
    };
  }

  /** The descriptor of a value of type {@code t}: a primitive, or this device's Java array. */
  static ClassDesc desc(Type t) {
    if (t instanceof ArrayType a) return elementKind(a.element()).upperBound().arrayType();
    return switch (((Prim) t).stackType()) {
      case LONG -> ConstantDescs.CD_long;
      case FLOAT -> ConstantDescs.CD_float;
      case DOUBLE -> ConstantDescs.CD_double;
      default -> ConstantDescs.CD_int;
    };
  }

  /** The type a kernel argument has in the generated method: a local array sized at launch comes as its length. */
  private static Type argType(KernelArg a) {
    return a instanceof KernelArg.Local ? Prim.INT : a.var().type();
  }

  private static String javaType(Type t) {
    ArrayType a = (ArrayType) t;
    return a.element() == Prim.HALF ? "half array" : a.element().javaName() + " array";
  }

  /** Every variable the body mentions, in order of first mention. */
  private static void collect(Stmt s, Map<Var, Boolean> vars) {
    new dev.loopjit.ir.Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Read r) vars.putIfAbsent(r.var(), true);
        return e;
      }

      @Override
      protected List<Stmt> stmts(Stmt x) {
        if (x instanceof Assign a) vars.putIfAbsent(a.var(), true);
        return List.of(x);
      }
    }.rewrite(s);
  }
}
