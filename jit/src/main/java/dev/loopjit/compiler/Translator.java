// Parse: turns each basic block's bytecode into IR statements by running the operand stack symbolically.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.*;
import java.lang.constant.ClassDesc;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The operand stack disappears here: each instruction pushes an expression or emits a statement.
 * Values still on the stack when a block ends flow into temporaries of the successor (the
 * {@code ?:} of Java). Pending expressions are spilled into temporaries before anything could
 * change what they read (a store to a local they read, a memory write, a call). Reference locals
 * (arrays, the KernelContext) are tracked per block as bindings to what they refer to, not as
 * variables.
 */
final class Translator {
  private static final Object CONFLICT = new Object();

  private final MethodCode code;
  private final Cfg cfg;
  private final Src caller;
  /** The offset of the instruction being translated. */
  private int bci;
  private final Names names;
  private final String prefix;
  private final Map<String, Var> locals = new HashMap<>();
  /** Arrays {@code newarray} made that no local holds yet: named after the first local that does ({@link #nameArray}). */
  private final java.util.Set<Var> unnamedArrays = new java.util.HashSet<>();
  private final Map<Cfg.Node, Map<Cfg.Node, List<Object>>> outStacks = new HashMap<>();
  private final Map<Cfg.Node, Map<Integer, Object>> entryRefs = new HashMap<>();
  private final Map<Cfg.Node, Map<Integer, Object>> exitRefs = new HashMap<>();
  /** Per block, the reference bindings each (forward) predecessor ended with: where they differ, {@link ArrayChoices}. */
  private final Map<Cfg.Node, Map<Cfg.Node, Map<Integer, Object>>> predRefs = new HashMap<>();
  final List<Var> params = new ArrayList<>();
  /** A kernel's vector and HalfFloat parameters, one variable per field (the host passes them after the arguments). */
  final List<Var> valueFields = new ArrayList<>();
  /** A helper returning a vector: the caller's variables its {@code return} assigns (else empty). */
  private List<Var> results = List.of();
  final List<Stmt> prologue = new ArrayList<>();

  // per block
  private OperandStack ops;
  private Map<Integer, Object> refs;
  private final Members members;

  private Translator(MethodCode code, Cfg cfg, Src caller, Names names, String prefix) {
    this.code = code;
    this.cfg = cfg;
    this.caller = caller;
    this.names = names;
    this.prefix = prefix;
    this.members = new Members(code, names, prefix);
  }

  /**
   * Translates every block of {@code code}. {@code caller} is the call site when inlining (else
   * null); {@code prefix} starts the names of its locals. Parameters become {@link #params}.
   */
  static Translator run(MethodCode code, Cfg cfg, Src caller, Names names, String prefix, List<Var> results) {
    Translator t = new Translator(code, cfg, caller, names, prefix);
    t.results = results;
    t.declareParams();
    java.util.Set<Cfg.Node> reachable = new java.util.HashSet<>(List.of(cfg.nodes.get(0)));
    for (Cfg.Node n : cfg.nodes) {
      if (!reachable.contains(n)) continue; // only behind a branch that folded to a constant
      t.block(n);
      reachable.addAll(n.succs);
    }
    cfg.analyze(cfg.nodes.get(0));
    t.checkLoopBindings();
    t.members.valueLocals.check();
    return t;
  }

  private Src at(int bci) {
    return code.src(bci, caller);
  }

  private void declareParams() {
    Class<?>[] types = code.method.method().getParameterTypes();
    Map<Integer, Object> refs0 = new HashMap<>();
    int slot = 0;
    if (code.method.isInstance()) refs0.put(slot++, OperandStack.ReceiverRef.INSTANCE);
    Src where = at(0);
    for (int i = 0; i < types.length; i++) {
      Class<?> c = types[i];
      String name = prefix + code.method.parameterName(i);
      Prim p = Prim.of(c);
      Prim element = Members.arrayElement(c);
      Var v;
      if (p != null) {
        // A kernel's own narrow parameters keep their type (they are device arguments); a callee's arrive as ints.
        v = names.fresh(name, caller == null ? p : p.stackType());
        if (v.type() == p.stackType()) locals.put(slot + ":" + p.stackType(), v);
        else prologue.add(new Stmt.Assign(local(slot, Prim.INT, name), new Convert(Prim.INT, new Read(v)), where));
      } else if (element != null) {
        v = names.fresh(name, ArrayType.global(element));
        refs0.put(slot, new Read(v));
      } else if (Printing.boxedParameter(c) != null) {
        // An Integer, Long, Float or Double parameter: its value (a task refuses null), unboxed where the code asks
        v = names.fresh(name, Printing.boxedParameter(c));
        refs0.put(slot, new Printing.Boxed(new Read(v), Printing.boxedParameter(c)));
      } else if (c == dev.loopjit.api.KernelContext.class) {
        v = null;
        refs0.put(slot, OperandStack.ContextRef.INSTANCE);
      } else if (ValueObjects.kind(c) != null) {
        // A HalfFloat or vector (Float4, Int3, …) parameter is its fields: a helper's one parameter each (Members passes them so),
        // a kernel's primitives the host passes after the arguments (its Java parameter is then no device argument).
        ValueObjects.Kind kind = ValueObjects.kind(c);
        List<Var> vars = new ArrayList<>();
        List<Expr> fields = new ArrayList<>();
        for (int f = 0; f < kind.fields; f++) {
          Var field = names.fresh(kind.fields == 1 ? name : name + "_" + kind.fieldName(f), kind.element.stackType());
          vars.add(field);
          fields.add(new Read(field));
        }
        (caller != null ? params : valueFields).addAll(vars);
        members.valueLocals.sharedReference(vars);   // the caller's or the host's object
        refs0.put(slot++, new ValueObjects.Value(kind, fields));
        if (caller == null) params.add(null);
        continue;
      } else if (caller == null && ObjectFields.isProgramObject(c)) {
        // An object of the program's classes: no argument itself; the fields the kernel reads through it are (ObjectFields).
        refs0.put(slot++, new ObjectFields.Ref(i, c, ""));
        params.add(null);
        continue;
      } else {
        throw Refusal.unsupported(where, "a parameter of type " + c.getTypeName());
      }
      params.add(v);
      slot += p != null && p.isWide() ? 2 : 1;
    }
    entryRefs.put(cfg.nodes.get(0), refs0);
  }

  /** The variable for a primitive local slot (one per slot and type). */
  private Var local(int slot, Prim type, String fallback) {
    return locals.computeIfAbsent(slot + ":" + type, k -> {
      String kinds = switch (type) { case INT -> "IZBCS"; case LONG -> "J"; case FLOAT -> "F"; default -> "D"; };
      String n = code.nameOf(slot, kinds);
      return names.fresh(prefix + (n != null ? n : fallback != null ? fallback : "v" + slot), type);
    });
  }

  private Var local(int slot, Prim type) {
    return local(slot, type, null);
  }

  /** The int variable of {@code slot} (a @Parallel induction variable). */
  Var localVar(int slot) {
    return local(slot, Prim.INT);
  }

  private Var temp(Prim type) {
    return names.temp(prefix + "t", type);
  }

  // ---------------------------------------------------------------- blocks

  private void block(Cfg.Node n) {
    ops = new OperandStack(n.rpo == 0 ? List.of() : entryStack(n), names, prefix);
    members.ops = ops;
    refs = new HashMap<>(entryRefs.getOrDefault(n, Map.of()));
    chooseArrays(n);
    if (n.rpo == 0) ops.out.addAll(prologue);
    for (int i = n.first; i <= n.last; i++) {
      MethodCode.Insn insn = code.insns.get(i);
      ops.src = at(insn.bci());
      bci = insn.bci();
      if (i == n.last && isExit(insn.ins())) {
        n.exit = exit(n, insn.ins());
      } else {
        instruction(insn.ins());
      }
    }
    if (n.exit == null) n.exit = new Cfg.Jump(n.succs.get(0));
    flowOut(n);
    n.stmts = ops.out;
    exitRefs.put(n, refs);
  }

  private static boolean isExit(java.lang.classfile.Instruction ins) {
    return ins instanceof BranchInstruction || ins instanceof TableSwitchInstruction
        || ins instanceof LookupSwitchInstruction || ins instanceof ReturnInstruction || ins instanceof ThrowInstruction;
  }

  /** Hands the remaining stack and the reference bindings to each successor. */
  private void flowOut(Cfg.Node n) {
    for (Cfg.Node s : n.succs) {
      if (s.rpo <= n.rpo) { // back edge: loop headers start with an empty stack
        if (!ops.values.isEmpty()) throw Refusal.unsupported(ops.src, "a loop inside an expression");
        continue;
      }
      predRefs.computeIfAbsent(s, k -> new LinkedHashMap<>()).put(n, refs);
      Map<Integer, Object> in = entryRefs.get(s);
      if (in == null) entryRefs.put(s, new HashMap<>(refs));
      else for (Integer slot : new ArrayList<>(union(in, refs))) if (!Objects.equals(in.get(slot), refs.get(slot))) in.put(slot, CONFLICT);
      List<Object> values = new ArrayList<>();
      for (Object v : ops.values) values.add(ops.materialize(v));
      outStacks.computeIfAbsent(s, k -> new LinkedHashMap<>()).put(n, values);
    }
  }

  /** An array variable whose predecessors left different arrays in it becomes a choice among them, where it can. */
  private void chooseArrays(Cfg.Node n) {
    for (var e : refs.entrySet()) {
      if (e.getValue() != CONFLICT) continue;
      Map<Cfg.Node, Object> ends = new LinkedHashMap<>();
      for (var pred : predRefs.get(n).entrySet()) ends.put(pred.getKey(), pred.getValue().get(e.getKey()));
      Object merged = ArrayChoices.merge(ends, names, prefix, at(code.insns.get(n.first).bci()));
      if (merged != null) {
        e.setValue(merged);
        entryRefs.get(n).put(e.getKey(), merged);
      }
    }
  }

  /**
   * The stack a block starts with, from what its predecessors (all translated already: blocks go
   * in reverse postorder) left. Where they agree the value flows in as is; where they differ each
   * assigns a new temporary at its end.
   */
  private List<Object> entryStack(Cfg.Node n) {
    Map<Cfg.Node, List<Object>> from = outStacks.getOrDefault(n, Map.of());
    if (from.isEmpty()) return new ArrayList<>();
    List<List<Object>> all = new ArrayList<>(from.values());
    int height = all.get(0).size();
    for (List<Object> l : all) if (l.size() != height) throw new IllegalStateException("stack heights differ at " + n);
    List<Object> result = new ArrayList<>();
    for (int k = 0; k < height; k++) {
      Object first = all.get(0).get(k);
      boolean same = true;
      for (List<Object> l : all) same &= l.get(k).equals(first);
      if (same) {
        result.add(first);
        continue;
      }
      // A HalfFloat or vector value chosen by ?: or a branch: one variable per field.
      int slot = k;
      if (first instanceof ValueObjects.Value v0 && all.stream().allMatch(l -> l.get(slot) instanceof ValueObjects.Value v && v.kind() == v0.kind())) {
        List<Var> fields = new ArrayList<>();
        for (int i = 0; i < v0.kind().fields; i++) fields.add(temp(v0.kind().element.stackType()));
        for (var pred : from.entrySet()) {
          members.valueLocals.chosen((ValueObjects.Value) pred.getValue().get(k));
          for (int i = 0; i < fields.size(); i++)
            pred.getKey().stmts.add(new Stmt.Assign(fields.get(i), ((ValueObjects.Value) pred.getValue().get(k)).fields().get(i), ops.src));
        }
        members.valueLocals.sharedReference(fields);
        result.add(new ValueObjects.Value(v0.kind(), fields.stream().map(f -> (Expr) new Read(f)).toList()));
        continue;
      }
      if (!(first instanceof Expr e && e.type() instanceof Prim p)) {
        Map<Cfg.Node, Object> ends = new LinkedHashMap<>();
        for (var pred : from.entrySet()) ends.put(pred.getKey(), pred.getValue().get(k));
        Object merged = ArrayChoices.merge(ends, names, prefix, ops.src);   // an array chosen by ?: (FloatArray p = c ? a : b)
        if (merged == null) throw Refusal.unsupported(ops.src, "an object chosen by ?: or a branch");
        result.add(merged);
        continue;
      }
      Var t = temp(p);
      for (var pred : from.entrySet()) pred.getKey().stmts.add(new Stmt.Assign(t, (Expr) pred.getValue().get(k), ops.src));
      result.add(new Read(t));
    }
    return result;
  }

  private static List<Integer> union(Map<Integer, Object> a, Map<Integer, Object> b) {
    List<Integer> l = new ArrayList<>(a.keySet());
    for (Integer k : b.keySet()) if (!a.containsKey(k)) l.add(k);
    return l;
  }

  /** After all blocks: a loop may not carry a different array binding around its back edge. */
  private void checkLoopBindings() {
    for (Cfg.Loop l : cfg.loops.values())
      for (Cfg.Node latch : l.latches()) {
        Map<Integer, Object> in = entryRefs.get(l.header()), back = exitRefs.get(latch);
        for (Integer slot : in.keySet())
          if (back.containsKey(slot) && in.get(slot) != CONFLICT && !Objects.equals(in.get(slot), back.get(slot)))
            throw Refusal.unsupported(at(l.header().startBci), "an array variable that refers to different arrays in different iterations");
      }
  }

  // ---------------------------------------------------------------- instructions

  private void instruction(java.lang.classfile.Instruction ins) {
    switch (ins) {
      case LoadInstruction l -> {
        if (l.typeKind() == TypeKind.REFERENCE) {
          Object b = refs.get(l.slot());
          if (b == null || b == CONFLICT)
            throw Refusal.unsupported(ops.src, b == null ? "an object local variable" : "an array variable that may refer to different arrays");
          ops.push(b);
        } else {
          ops.push(new Read(local(l.slot(), prim(l.typeKind()))));
        }
      }
      case StoreInstruction s -> {
        if (s.typeKind() == TypeKind.REFERENCE) storeRef(s.slot(), ops.popAny());
        else {
          Expr v = ops.pop();
          Var var = local(s.slot(), prim(s.typeKind()));
          ops.spillReads(var);
          ops.out.add(new Stmt.Assign(var, v, ops.src));
        }
      }
      case IncrementInstruction i -> {
        Var var = local(i.slot(), Prim.INT);
        ops.spillReads(var);
        ops.out.add(new Stmt.Assign(var, new Binary(Op.Binary.ADD, new Read(var), Const.of(i.constant())), ops.src));
      }
      case ConstantInstruction c -> ops.push(c.constantValue() instanceof String text ? new Printing.Text(text) : constant(c.constantValue()));
      case OperatorInstruction o -> operator(o);
      case ConvertInstruction c -> ops.push(new Convert(prim(c.toType()), ops.pop()));
      case ArrayLoadInstruction a when ops.below(1) instanceof ArrayChoices.Choice c -> {
        Expr index = ops.pop();
        ops.popAny();
        if (a.typeKind() == TypeKind.REFERENCE) throw Refusal.unsupported(ops.src, "an array of objects");
        ops.push(ArrayChoices.load(ops, c, index));
      }
      case ArrayLoadInstruction a -> {
        Expr index = ops.pop();
        Expr array = ops.popArray();
        if (a.typeKind() != TypeKind.REFERENCE) ops.push(new Load(array, index));
        else if (ValueObjects.isHalfArray(array)) ops.push(ValueObjects.loadHalf(array, index));   // HalfFloat[] local array
        else throw Refusal.unsupported(ops.src, "an array of objects");
      }
      case ArrayStoreInstruction a when a.typeKind() == TypeKind.REFERENCE -> {
        Object value = ops.popAny();
        Expr index = ops.pop();
        Object array = ops.popAny();
        if (array instanceof Printing.Boxes b) Printing.store(ops, b, index, value);
        else if (ValueObjects.isHalfArray(array)) ValueObjects.storeHalf(ops, (Expr) array, index, value, "a HalfFloat[] element");
        else throw Refusal.unsupported(ops.src, "an array of objects");
      }
      case ArrayStoreInstruction a when ops.below(2) instanceof ArrayChoices.Choice c -> {
        Expr value = ops.pop(), index = ops.pop();
        ops.popAny();
        ArrayChoices.store(ops, c, index, value);
      }
      case ArrayStoreInstruction a -> {
        Expr value = ops.pop(), index = ops.pop();
        Expr array = ops.popArray();
        ops.refuseTableWrite(array);
        ops.spillLoads();
        ops.out.add(new Stmt.Store(array, index, value, ops.src));
      }
      case InvokeInstruction inv -> members.invoke(inv);
      case FieldInstruction f -> members.field(f);
      case NewPrimitiveArrayInstruction n -> {
        // A variable right away: javac fills array initializers ({1, 2}) before storing the array anywhere.
        // A size that is not a constant is one the host must know at launch (pass launchSized).
        Expr count = ops.pop();
        boolean fixed = count instanceof Const;
        ArrayType type = new ArrayType(prim(n.typeKind()), ArrayType.Space.PRIVATE,
            fixed ? ops.constantSize(count, "new " + n.typeKind().name().toLowerCase() + "[n]") : ArrayType.RUNTIME);
        Var array = names.fresh(prefix + "array", type);
        ops.out.add(new Stmt.Assign(array, fixed ? new Alloc(type) : new Alloc(type, count), ops.src));
        unnamedArrays.add(array);
        ops.push(new Read(array));
      }
      case StackInstruction s -> ops.stackOp(s.opcode());
      case NopInstruction n -> {}
      case NewObjectInstruction n when ValueObjects.kind(n.className().asInternalName()) != null ->
          ops.push(new ValueObjects.Uninit(ValueObjects.kind(n.className().asInternalName())));
      case NewObjectInstruction n when OffHeapCollections.newVector(n.className().asInternalName()) != null ->
          ops.push(OffHeapCollections.newVector(n.className().asInternalName()));
      case NewObjectInstruction n when n.className().asInternalName().equals(AtomicCells.OWNER) -> ops.push(AtomicCells.made(code, bci, caller, ops.src));
      case NewObjectInstruction n -> throw Refusal.unsupported(ops.src, "new " + javaName(n.className().asSymbol()));
      case NewReferenceArrayInstruction n when n.componentType().asInternalName().equals("java/lang/Object") ->
          ops.push(Printing.array(ops, ops.pop()));   // the varargs of Debug.printf
      case NewReferenceArrayInstruction n -> throw Refusal.unsupported(ops.src, "new " + javaName(n.componentType().asSymbol()) + "[]");
      case NewMultiArrayInstruction n -> throw Refusal.unsupported(ops.src, "a multi-dimensional array (new " + javaName(n.arrayType().asSymbol()) + ")");
      case TypeCheckInstruction t -> throw Refusal.unsupported(ops.src, t.opcode() == Opcode.INSTANCEOF ? "instanceof" : "a cast to " + javaName(t.type().asSymbol()));
      case MonitorInstruction m -> throw Refusal.unsupported(ops.src, "synchronized");
      case InvokeDynamicInstruction i -> throw Refusal.unsupported(ops.src, "a lambda, method reference or string concatenation (invokedynamic " + i.name() + ")");
      default -> throw Refusal.unsupported(ops.src, "the bytecode " + ins.opcode().name().toLowerCase());
    }
  }

  private static String javaName(ClassDesc d) {
    return d.isArray() ? javaName(d.componentType()) + "[]" : d.packageName().isEmpty() ? d.displayName() : d.packageName() + "." + d.displayName();
  }


  /**
   * {@code int[] t = new int[4]}: the array {@code newarray} made takes the local's name ({@code t},
   * for messages and listings), where nothing but this block's statements mentions it yet.
   */
  private Read nameArray(int slot, Read r) {
    String n = code.nameOf(slot, "[");
    if (n == null || ops.values.stream().anyMatch(x -> x instanceof Expr e && Effects.reads(e, r.var()))) return r;
    boolean allocatedHere = ops.out.stream().anyMatch(st -> st instanceof Stmt.Assign a && a.var().equals(r.var()));
    if (!allocatedHere) return r;
    Var named = names.fresh(prefix + n, r.var().type());
    Rewriter rename = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        return e instanceof Read x && x.var().equals(r.var()) ? new Read(named) : e;
      }

      @Override
      protected List<Stmt> stmts(Stmt x) {
        return x instanceof Stmt.Assign a && a.var().equals(r.var()) ? List.of(new Stmt.Assign(named, a.value(), a.src())) : List.of(x);
      }
    };
    List<Stmt> renamed = new ArrayList<>();
    for (Stmt st : ops.out) renamed.addAll(rename.rewrite(st));
    ops.out.clear();
    ops.out.addAll(renamed);
    return new Read(named);
  }

  private void storeRef(int slot, Object v) {
    if (v instanceof Alloc a) {
      Var var = locals.computeIfAbsent(slot + ":" + a.type(), k -> {
        String n = code.nameOf(slot, "[");
        return names.fresh(prefix + (n != null ? n : "a" + slot), a.type());
      });
      ops.out.add(new Stmt.Assign(var, a, ops.src));
      refs.put(slot, new Read(var));
    } else if (v == OperandStack.ContextRef.INSTANCE || v instanceof ArrayChoices.Choice || (v instanceof Expr e && e.type() instanceof ArrayType)) {
      refs.put(slot, v instanceof Read r && unnamedArrays.remove(r.var()) ? nameArray(slot, r) : v);
    } else if (v instanceof ValueObjects.Value val) {
      // A value object in a local: one variable per field and slot, the same in every block.
      List<Var> vars = new ArrayList<>();
      for (int i = 0; i < val.kind().fields; i++) {
        int field = i;
        vars.add(locals.computeIfAbsent(slot + ":" + val.kind() + ":" + i, k -> {
          String n = code.nameOf(slot, "L");
          return names.fresh(prefix + (n != null ? n : "v" + slot) + (val.kind().fields > 1 ? "_" + val.kind().fieldName(field) : ""), val.kind().element.stackType());
        }));
      }
      members.valueLocals.local(vars);
      members.valueLocals.assigned(val, vars);
      refs.put(slot, ValueObjects.store(ops, val, vars));
    } else {
      throw Refusal.unsupported(ops.src, "an object local variable");
    }
  }


  private Expr constant(java.lang.constant.ConstantDesc v) {
    return switch (v) {
      case Integer i -> Const.of(i);
      case Long l -> Const.of(l);
      case Float f -> Const.of(f);
      case Double d -> Const.of(d);
      case null -> throw Refusal.unsupported(ops.src, "null");
      case String s -> throw Refusal.unsupported(ops.src, "a String");
      default -> throw Refusal.unsupported(ops.src, "the constant " + v);
    };
  }

  static Prim prim(TypeKind k) {
    return switch (k) {
      case BOOLEAN -> Prim.BOOLEAN;
      case BYTE -> Prim.BYTE;
      case CHAR -> Prim.CHAR;
      case SHORT -> Prim.SHORT;
      case INT -> Prim.INT;
      case LONG -> Prim.LONG;
      case FLOAT -> Prim.FLOAT;
      case DOUBLE -> Prim.DOUBLE;
      default -> throw new IllegalArgumentException(k.name());
    };
  }

  private void operator(OperatorInstruction o) {
    Opcode op = o.opcode();
    switch (op) {
      case ARRAYLENGTH -> ops.push(ops.peek() instanceof ArrayChoices.Choice ? ArrayChoices.length((ArrayChoices.Choice) ops.popAny()) : new Length(ops.popArray()));
      case INEG, LNEG, FNEG, DNEG -> ops.push(new Unary(Op.Unary.NEG, ops.pop()));
      case LCMP, FCMPL, FCMPG, DCMPL, DCMPG -> {
        Expr b = ops.pop(), a = ops.pop();
        ops.push(new OperandStack.Cmp3(a, b, op == Opcode.FCMPG || op == Opcode.DCMPG ? 1 : -1));
      }
      default -> {
        Expr b = ops.pop(), a = ops.pop();
        String n = op.name();
        Op.Binary bin = switch (n.substring(1)) {
          case "ADD" -> Op.Binary.ADD; case "SUB" -> Op.Binary.SUB; case "MUL" -> Op.Binary.MUL;
          case "DIV" -> Op.Binary.DIV; case "REM" -> Op.Binary.REM; case "AND" -> Op.Binary.AND;
          case "OR" -> Op.Binary.OR; case "XOR" -> Op.Binary.XOR; case "SHL" -> Op.Binary.SHL;
          case "SHR" -> Op.Binary.SHR; case "USHR" -> Op.Binary.USHR;
          default -> throw Refusal.unsupported(ops.src, "the bytecode " + n.toLowerCase());
        };
        ops.push(new Binary(bin, a, b));
      }
    }
  }

  // ---------------------------------------------------------------- block exits

  private Cfg.Exit exit(Cfg.Node n, java.lang.classfile.Instruction ins) {
    switch (ins) {
      case ReturnInstruction r -> {
        Expr v = r.typeKind() == TypeKind.VOID ? null : r.typeKind() == TypeKind.REFERENCE ? refReturn() : ops.pop();
        return new Cfg.Ret(v, ops.src);
      }
      case ThrowInstruction t -> throw Refusal.unsupported(ops.src, "throw");
      case TableSwitchInstruction t -> {
        return table(t.cases(), t.defaultTarget());
      }
      case LookupSwitchInstruction t -> {
        return table(t.cases(), t.defaultTarget());
      }
      case BranchInstruction b -> {
        Cfg.Node target = node(code.bciOf(b.target()));
        if (b.opcode() == Opcode.GOTO || b.opcode() == Opcode.GOTO_W) return new Cfg.Jump(target);
        Cfg.Node next = n.succs.stream().filter(s -> s != target).findFirst().orElse(target);
        Expr cond = Fold.fold(condition(b.opcode()));
        if (cond instanceof Const c) { // e.g. `assert`: assertions are off, so its check is dead code
          Cfg.Node live = c.longValue() != 0 ? target : next, dead = live == target ? next : target;
          if (dead != live) {
            n.succs.remove(dead);
            dead.preds.remove(n);
          }
          return new Cfg.Jump(live);
        }
        return new Cfg.Branch(cond, target, next, ops.src);
      }
      default -> throw new IllegalStateException(ins.toString());
    }
  }

  /** A tableswitch or lookupswitch: both are a list of (value, target) and a default. */
  private Cfg.Exit table(List<SwitchCase> cases, java.lang.classfile.Label dflt) {
    Expr sel = ops.pop();
    List<Integer> values = new ArrayList<>();
    List<Cfg.Node> targets = new ArrayList<>();
    for (SwitchCase c : cases) {
      values.add(c.caseValue());
      targets.add(node(code.bciOf(c.target())));
    }
    return new Cfg.Table(sel, values, targets, node(code.bciOf(dflt)), ops.src);
  }

  /**
   * A HalfFloat is returned as its float value (the caller wraps it again); a vector by assigning its
   * fields to the caller's variables ({@link #results}), the return then carrying no value; anything
   * else is refused.
   */
  private Expr refReturn() {
    Object top = ops.popAny();
    if (top instanceof ValueObjects.Value v && v.kind() == ValueObjects.Kind.HALF) return v.fields().get(0);
    if (top instanceof ValueObjects.Value v && v.kind().fields == results.size()) {
      ValueObjects.store(ops, v, results);
      return null;
    }
    throw Refusal.unsupported(ops.src, "returning an object or array");
  }

  private Cfg.Node node(int bci) {
    for (Cfg.Node n : cfg.nodes) if (n.startBci == bci) return n;
    throw new IllegalStateException("no block at " + bci);
  }

  private Expr condition(Opcode op) {
    return switch (op) {
      case IFEQ, IFNE, IFLT, IFGE, IFGT, IFLE -> {
        Object top = ops.popAny();
        Op.Compare cmp = compare(op.name().substring(2));
        if (top instanceof OperandStack.Cmp3 c) yield threeWay(cmp, c);
        yield new Compare(cmp, (Expr) top, Const.of(0));
      }
      case IF_ICMPEQ, IF_ICMPNE, IF_ICMPLT, IF_ICMPGE, IF_ICMPGT, IF_ICMPLE -> {
        Expr b = ops.pop(), a = ops.pop();
        yield new Compare(compare(op.name().substring(7)), a, b);
      }
      case IF_ACMPEQ, IF_ACMPNE -> throw Refusal.unsupported(ops.src, "comparing object references");
      case IFNULL, IFNONNULL -> throw Refusal.unsupported(ops.src, "a null check");
      default -> throw Refusal.unsupported(ops.src, "the bytecode " + op.name().toLowerCase());
    };
  }

  private static Op.Compare compare(String s) {
    return switch (s) {
      case "EQ" -> Op.Compare.EQ; case "NE" -> Op.Compare.NE; case "LT" -> Op.Compare.LT;
      case "GE" -> Op.Compare.GE; case "GT" -> Op.Compare.GT; default -> Op.Compare.LE;
    };
  }

  /**
   * {@code if (cmp(a, b) OP 0)}: for floats, true on NaN exactly when {@code nanResult OP 0}. IEEE
   * comparisons are false on NaN (but NE), so a NaN-true test becomes the negation of its opposite.
   */
  private static Expr threeWay(Op.Compare op, OperandStack.Cmp3 c) {
    boolean floating = c.a().prim().isFloating();
    if (!floating || op == Op.Compare.EQ || op == Op.Compare.NE) return new Compare(op, c.a(), c.b());
    boolean trueOnNaN = switch (op) {
      case LT -> c.nanResult() < 0; case LE -> c.nanResult() <= 0; case GT -> c.nanResult() > 0; default -> c.nanResult() >= 0;
    };
    return trueOnNaN ? new Unary(Op.Unary.NOT, new Compare(op.negate(), c.a(), c.b())) : new Compare(op, c.a(), c.b());
  }
}
