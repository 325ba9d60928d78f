// Group mode (Fission): a kernel with barriers runs its whole work-group, each region between barriers a loop over the work-items.
package dev.loopjit.backend.jvmmt;

import static dev.loopjit.backend.jvmmt.BytecodeTypes.ITEM;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.kind;

import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The method runs a whole work-group ({@link Fission}): statements that contain a barrier stay
 * structured and run once for the group, the barrier-free runs between them become regions, each a
 * loop over the work-items that have not returned. Variables living across regions are arrays of
 * one value per work-item; a jump out of a region is recorded per work-item and agreed by all
 * ({@link Barriers#agree}) before the group follows it.
 */
final class BytecodeGroups {
  private final BytecodeBody body;
  private final CodeBuilder code;
  private final Fission fission;                                      // null: not a group-mode kernel
  private final Map<Var, Integer> itemArrays = new HashMap<>();      // variables living across regions: one value per work-item
  private final Map<dev.loopjit.ir.Label, Label[]> groupJumps = new HashMap<>();
  private final int[] localIds = new int[3];
  private boolean inItem;                                             // emitting a region, for work-item `itemIndex`
  private int itemIndex, items, done, exit;
  private java.util.Set<dev.loopjit.ir.Label> regionLabels;
  private List<Object[]> exits;                                       // the region's jumps out of it: {IR label, continue?}
  private boolean regionReturns;
  private Label itemEnd, methodEnd;

  BytecodeGroups(BytecodeBody body, Fission fission) {
    this.body = body;
    this.code = body.code;
    this.fission = fission;
  }

  /** The kernel's statements, run for the whole group. */
  void kernel(List<Stmt> stmts) {
    prologue();
    methodEnd = code.newLabel();
    stmts(stmts);
    code.labelBinding(methodEnd);
  }

  /** Whether a region is being emitted: the code runs for one work-item. */
  boolean inItem() {
    return inItem;
  }

  /** The local holding the work-item's local id in dimension {@code d}, in a region. */
  int localId(int d) {
    return localIds[d];
  }

  /** Whether {@code v} lives across regions, one value per work-item. */
  boolean isPerItem(Var v) {
    return itemArrays.containsKey(v);
  }

  /** A construct labelled {@code l} begins: in a region, jumps to it stay in the region. */
  void enclose(dev.loopjit.ir.Label l) {
    if (inItem) regionLabels.add(l);
  }

  /** A return in a region: this work-item is done, and takes no part in the later regions. */
  void itemReturns() {
    code.aload(done).iload(itemIndex).iconst_1().bastore().goto_(itemEnd);
    regionReturns = true;
  }

  private void prologue() {
    items = code.allocateLocal(TypeKind.INT);
    code.aload(body.itemSlot).getfield(ITEM, "s0", ConstantDescs.CD_int).aload(body.itemSlot).getfield(ITEM, "s1", ConstantDescs.CD_int).imul()
        .aload(body.itemSlot).getfield(ITEM, "s2", ConstantDescs.CD_int).imul().istore(items);
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
  private void stmts(List<Stmt> stmts) {
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
      case Block b -> stmts(b.stmts());
      case If i -> {
        Label otherwise = code.newLabel(), end = code.newLabel();
        int choice = code.allocateLocal(TypeKind.INT);
        forEachItem(() -> {
          code.aload(exit).iload(itemIndex);
          body.expressions.bool(i.cond());
          code.iconst_1().iadd().iastore();   // 2 when true, 1 when false
        });
        agree(choice);
        code.iload(choice).iconst_2().if_icmpne(otherwise);
        stmts(i.then().stmts());
        code.goto_(end);
        code.labelBinding(otherwise);
        stmts(i.otherwise().stmts());
        code.labelBinding(end);
      }
      case Loop l -> {
        Label top = code.newLabel(), next = code.newLabel(), end = code.newLabel();
        groupJumps.put(l.label(), new Label[] {end, next});
        code.labelBinding(top);
        stmts(l.body().stmts());
        code.labelBinding(next);
        stmts(l.update().stmts());
        code.goto_(top);
        code.labelBinding(end);
      }
      case Labeled l -> {
        Label end = code.newLabel();
        groupJumps.put(l.label(), new Label[] {end, null});
        stmts(l.body().stmts());
        code.labelBinding(end);
      }
      default -> throw new IllegalStateException("a barrier in " + s.getClass().getSimpleName() + " cannot run in group mode");
    }
  }

  /** A region: {@code run} for every work-item still running; then, if any left it by a jump, the group follows them. */
  private void region(List<Stmt> run) {
    if (run.isEmpty()) return;
    List<Stmt> region = List.copyOf(run);
    run.clear();
    exits = new ArrayList<>();
    regionReturns = false;
    forEachItem(() -> {
      code.aload(exit).iload(itemIndex).iconst_0().iastore();
      for (Stmt s : region) body.statements.stmt(s);
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

  /** {@code each} for each work-item of the group (x fastest) that has not returned. */
  private void forEachItem(Runnable each) {
    Label[] top = new Label[3], next = new Label[3];
    Label done3 = code.newLabel();
    for (int d = 2; d >= 0; d--) {
      top[d] = code.newLabel();
      next[d] = code.newLabel();
      code.iconst_0().istore(localIds[d]);
      code.labelBinding(top[d]);
      code.iload(localIds[d]).aload(body.itemSlot).getfield(ITEM, "s" + d, ConstantDescs.CD_int).if_icmpge(d == 2 ? done3 : next[d + 1]);
    }
    // itemIndex = (z · s1 + y) · s0 + x
    code.iload(localIds[2]).aload(body.itemSlot).getfield(ITEM, "s1", ConstantDescs.CD_int).imul().iload(localIds[1]).iadd()
        .aload(body.itemSlot).getfield(ITEM, "s0", ConstantDescs.CD_int).imul().iload(localIds[0]).iadd().istore(itemIndex);
    Label end = code.newLabel();
    code.aload(done).iload(itemIndex).baload().ifne(end);
    itemEnd = end;
    regionLabels = new java.util.HashSet<>();
    inItem = true;
    each.run();
    inItem = false;
    code.labelBinding(end);
    for (int d = 0; d <= 2; d++) {
      code.iinc(localIds[d], 1).goto_(top[d]);
      if (d < 2) code.labelBinding(next[d + 1]);
    }
    code.labelBinding(done3);
  }

  /** Whether a jump to {@code target} leaves the region being emitted (to a construct the group runs). */
  boolean crossing(dev.loopjit.ir.Label target) {
    return inItem && !regionLabels.contains(target);
  }

  /** A jump out of the region: the work-item records where to, and ends its part of the region. */
  void leaveRegion(dev.loopjit.ir.Label target, boolean isContinue) {
    if (!groupJumps.containsKey(target)) throw new IllegalStateException("jump to " + target + ", which does not enclose it, in " + body.ir.name());
    int k = -1;
    for (int i = 0; i < exits.size(); i++) if (exits.get(i)[0].equals(target) && exits.get(i)[1].equals(isContinue)) k = i;
    if (k < 0) {
      exits.add(new Object[] {target, isContinue});
      k = exits.size() - 1;
    }
    code.aload(exit).iload(itemIndex).loadConstant(k + 1).iastore().goto_(itemEnd);
  }

  /** Pushes {@code v}: its local, or in a region the work-item's element of its per-item array. */
  TypeKind load(Var v) {
    TypeKind k = kind(v.type());
    Integer array = itemArrays.get(v);
    if (array == null) {
      code.loadLocal(k, body.slot(v));
    } else {
      if (!inItem) throw new IllegalStateException(v + " read outside a region");
      code.aload(array).iload(itemIndex).arrayLoad(k);
    }
    return k;
  }

  /** Stores the value {@code value} pushes in {@code v}: its local, or in a region the work-item's element of its per-item array. */
  void store(Var v, Runnable value) {
    TypeKind k = kind(v.type());
    Integer array = itemArrays.get(v);
    if (array == null) {
      value.run();
      code.storeLocal(k, body.slot(v));
    } else {
      if (!inItem) throw new IllegalStateException(v + " assigned outside a region");
      code.aload(array).iload(itemIndex);
      value.run();
      code.arrayStore(k);
    }
  }
}
