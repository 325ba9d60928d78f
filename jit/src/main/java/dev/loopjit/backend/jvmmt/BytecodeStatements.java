// Statements to JVM bytecode: structured control flow as labels and jumps, assignments to locals, array stores.
package dev.loopjit.backend.jvmmt;

import static dev.loopjit.backend.jvmmt.BytecodeTypes.FLOAT;
import static dev.loopjit.backend.jvmmt.BytecodeTypes.elementKind;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Alloc;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The statements of the kernel method. A block may start a lane iteration that runs as vectors
 * ({@link BytecodeLanes}); in group mode a jump out of the region being emitted, or a return, is the
 * work-item's and not the method's ({@link BytecodeGroups}).
 */
final class BytecodeStatements {
  private final BytecodeBody body;
  private final CodeBuilder code;

  BytecodeStatements(BytecodeBody body) {
    this.body = body;
    this.code = body.code;
  }

  void block(Block b) {
    List<Stmt> stmts = b.stmts();
    for (int i = 0; i < stmts.size(); i++) {
      LaneVectors.Choice choice = body.lanes.choiceAt(stmts.get(i));
      stmt(stmts.get(i));
      if (choice != null) body.lanes.iteration(choice.plan(), choice.groups(), stmts.get(++i));
    }
  }

  void stmt(Stmt s) {
    BytecodeLanes lanes = body.lanes;
    BytecodeGroups groups = body.groups;
    if (s.src() != Src.NONE) body.at(s.src());
    switch (s) {
      case Block b when lanes.isLaneLoop(b) -> lanes.laneLoop(b);
      case Block b -> block(b);
      case Assign a when lanes.isLaneStart(a) -> lanes.laneStart(a);
      case Assign a -> assign(a);
      case Store st -> store(st);
      case Eval e -> {
        TypeKind k = expr(e.call());
        if (k.slotSize() == 2) code.pop2();
        else if (k.slotSize() == 1) code.pop();
      }
      case If i when i.otherwise().isEmpty() && i.then().stmts().size() == 1 && i.then().stmts().get(0) instanceof Break b
          && !groups.crossing(b.target()) -> body.expressions.jump(i.cond(), true, target(b.target())[0]);
      case If i when i.otherwise().isEmpty() && i.then().stmts().size() == 1 && i.then().stmts().get(0) instanceof Continue c
          && !groups.crossing(c.target()) && target(c.target())[1] != null -> body.expressions.jump(i.cond(), true, target(c.target())[1]);
      case If i -> {
        Label otherwise = code.newLabel(), end = code.newLabel();
        body.expressions.jumpUnless(i.cond(), otherwise);
        block(i.then());
        if (!i.otherwise().isEmpty()) code.goto_(end);
        code.labelBinding(otherwise);
        block(i.otherwise());
        code.labelBinding(end);
      }
      case Loop l -> {
        Label top = code.newLabel(), next = code.newLabel(), end = code.newLabel();
        body.jumps.put(l.label(), new Label[] {end, next});
        groups.enclose(l.label());
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
        body.jumps.put(l.label(), new Label[] {end, null});
        groups.enclose(l.label());
        block(l.body());
        code.labelBinding(end);
      }
      case Break b when groups.crossing(b.target()) -> groups.leaveRegion(b.target(), false);
      case Continue c when groups.crossing(c.target()) -> groups.leaveRegion(c.target(), true);
      case Break b -> code.goto_(target(b.target())[0]);
      case Continue c -> {
        Label next = target(c.target())[1];
        if (next == null) throw new IllegalStateException("continue " + c.target() + " targets a non-loop");
        code.goto_(next);
      }
      case Return r -> {
        if (r.value() != null) throw new IllegalStateException("a kernel returns no value: " + r.src().describe());
        if (groups.inItem()) groups.itemReturns();
        else code.return_();
      }
    }
  }

  private Label[] target(dev.loopjit.ir.Label l) {
    Label[] t = body.jumps.get(l);
    if (t == null) throw new IllegalStateException("jump to " + l + ", which does not enclose it, in " + body.ir.name());
    return t;
  }

  private void switchStmt(Switch sw) {
    Label end = code.newLabel();
    body.jumps.put(sw.label(), new Label[] {end, null});
    body.groups.enclose(sw.label());
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
    if (body.groups.isPerItem(a.var())) {
      body.groups.store(a.var(), () -> expr(a.value()));
      return;
    }
    int slot = body.slot(a.var());
    if (a.value() instanceof Alloc alloc) {
      ArrayType t = alloc.type();
      switch (t.space()) {
        case PRIVATE -> {   // sized at launch (pass launchSized): its own length, so the JVM checks indices against it
          if (alloc.length() != null) expr(alloc.length());
          else code.loadConstant(t.length());
          code.newarray(elementKind(t.element()));
        }
        case LOCAL -> body.localArray(t, () -> code.loadConstant(t.length()));
        case GLOBAL -> throw new IllegalStateException("cannot allocate a global array: " + a.src().describe());
      }
      code.astore(slot);
      return;
    }
    TypeKind k = expr(a.value());
    code.storeLocal(k, slot);
  }

  private void store(Store st) {
    ArrayType t = (ArrayType) st.array().type();
    expr(st.array());
    expr(st.index());
    expr(st.value());
    if (t.element() == Prim.HALF) code.invokestatic(FLOAT, "floatToFloat16", MethodTypeDesc.of(ConstantDescs.CD_short, ConstantDescs.CD_float));
    body.guarded(st.array(), () -> code.arrayStore(elementKind(t.element())));
  }

  private TypeKind expr(Expr e) {
    return body.expressions.expr(e);
  }
}
