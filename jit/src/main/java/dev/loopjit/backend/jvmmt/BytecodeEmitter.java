// Lowered IR to JVM bytecode with java.lang.classfile: the hidden class per kernel, its run and item methods, and the kernel method's start.
package dev.loopjit.backend.jvmmt;

import static dev.loopjit.backend.jvmmt.BytecodeTypes.DOUBLE;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.FAILURES;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.FLOAT;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.INTEGER;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.ITEM;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.LONG;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.OOB;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.argType;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.desc;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.javaType;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.kind;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Read;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.Assign;
import dev.loopjit.ir.Type;
import dev.loopjit.ir.Var;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
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
 *
 * <p>This file is the class and the start of the {@code kernel} method; the body is written by its
 * parts on a {@link BytecodeBody}: {@link BytecodeStatements}, {@link BytecodeExpressions}, {@link
 * BytecodeIntrinsics}, {@link BytecodeLanes} (lane iterations as Vector API vectors) and {@link
 * BytecodeGroups} (a work-group with barriers as loops over its work-items), with the types of
 * {@link BytecodeTypes}.
 */
final class BytecodeEmitter {
  private static final ClassDesc GENERATED = ClassDesc.of("dev.loopjit.backend.jvmmt.GeneratedKernel");
  private static final MethodTypeDesc RUN = MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_Object.arrayType(), ITEM);

  private final KernelIR ir;
  private final Map<Var, String> arrayNames = new HashMap<>();
  // Group mode (a KernelContext kernel with barriers, Fission): the method runs a whole work-group (BytecodeGroups).
  private final Fission fission;
  // Vector lanes (LaneVectors): lane count's statement -> its iteration as vectors (BytecodeLanes).
  private final Map<Stmt, LaneVectors.Choice> vectorChoices;

  private BytecodeEmitter(KernelIR ir, boolean vectorLanes) {
    this.ir = ir;
    this.fission = Fission.of(ir);
    this.vectorChoices = vectorLanes && fission == null ? BytecodeLanes.choose(ir.body()) : Map.of();
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
      // the ClassFile API may run this handler again (to rewrite jumps or dead code): each run gets a fresh body
      cb.withMethodBody("kernel", kernelType, ClassFile.ACC_STATIC | ClassFile.ACC_PRIVATE,
          c -> kernel(new BytecodeBody(ir, c, arrayNames, fission, vectorChoices)));
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

  // ---- the kernel method: arguments and variables in locals, then the body --------------------------

  private void kernel(BytecodeBody body) {
    CodeBuilder code = body.code;
    List<KernelArg> args = ir.args();
    for (int k = 0; k < args.size(); k++) if (!(args.get(k) instanceof KernelArg.Local)) body.slots.put(args.get(k).var(), code.parameterSlot(k));
    // a local array sized at launch arrives as its length: the group's array for it, shared by its work-items
    for (int k = 0; k < args.size(); k++) {
      if (!(args.get(k) instanceof KernelArg.Local l)) continue;
      int slot = code.allocateLocal(TypeKind.REFERENCE), length = code.parameterSlot(k);
      body.localArray((ArrayType) l.var().type(), () -> code.iload(length));
      code.astore(slot);
      body.slots.put(l.var(), slot);
    }
    Map<Var, Boolean> vars = new LinkedHashMap<>();
    collect(ir.body(), vars);
    for (Var v : vars.keySet()) {
      if (body.slots.containsKey(v)) continue;
      TypeKind k = kind(v.type());
      int slot = code.allocateLocal(k);
      body.slots.put(v, slot);
      switch (k) {
        case INT -> code.iconst_0();
        case LONG -> code.lconst_0();
        case FLOAT -> code.fconst_0();
        case DOUBLE -> code.dconst_0();
        default -> code.aconst_null();
      }
      code.storeLocal(k, slot);
    }
    if (fission != null) body.groups.kernel(ir.body().stmts());
    else body.statements.block(ir.body());
    code.return_();
    for (BytecodeBody.Handler h : body.handlers) {
      code.labelBinding(h.label());
      code.loadConstant(h.where()).loadConstant(h.array()).loadConstant(h.source())
          .invokestatic(FAILURES, "outOfBounds", MethodTypeDesc.of(OOB, OOB, ConstantDescs.CD_String, ConstantDescs.CD_String, ConstantDescs.CD_String))
          .athrow();
    }
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
