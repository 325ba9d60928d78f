// Parse: turns each basic block's bytecode into IR statements by running the operand stack symbolically.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Type;
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
  /** The KernelContext on the stack or in a local. */
  private enum ContextRef { INSTANCE }

  /** A pending three-way compare (lcmp, fcmpl, fcmpg, dcmpl, dcmpg): consumed by the following if. */
  private record Cmp3(Expr a, Expr b, int nanResult) {}

  private static final Object CONFLICT = new Object();
  private static final String TYPES = "dev/loopjit/types/";
  private static final String CONTEXT = "dev/loopjit/api/KernelContext";

  private final MethodCode code;
  private final Cfg cfg;
  private final Src caller;
  private final Names names;
  private final String prefix;
  private final Map<String, Var> locals = new HashMap<>();
  private final Map<Cfg.Node, Map<Cfg.Node, List<Object>>> outStacks = new HashMap<>();
  private final Map<Cfg.Node, Map<Integer, Object>> entryRefs = new HashMap<>();
  private final Map<Cfg.Node, Map<Integer, Object>> exitRefs = new HashMap<>();
  final List<Var> params = new ArrayList<>();
  final List<Stmt> prologue = new ArrayList<>();

  // per block
  private List<Object> stack;
  private Map<Integer, Object> refs;
  private List<Stmt> out;
  private Src src;

  private Translator(MethodCode code, Cfg cfg, Src caller, Names names, String prefix) {
    this.code = code;
    this.cfg = cfg;
    this.caller = caller;
    this.names = names;
    this.prefix = prefix;
  }

  /**
   * Translates every block of {@code code}. {@code caller} is the call site when inlining (else
   * null); {@code prefix} starts the names of its locals. Parameters become {@link #params}.
   */
  static Translator run(MethodCode code, Cfg cfg, Src caller, Names names, String prefix) {
    Translator t = new Translator(code, cfg, caller, names, prefix);
    t.declareParams();
    java.util.Set<Cfg.Node> reachable = new java.util.HashSet<>(List.of(cfg.nodes.get(0)));
    for (Cfg.Node n : cfg.nodes) {
      if (!reachable.contains(n)) continue; // only behind a branch that folded to a constant
      t.block(n);
      reachable.addAll(n.succs);
    }
    cfg.analyze(cfg.nodes.get(0));
    t.checkLoopBindings();
    return t;
  }

  private Src at(int bci) {
    return code.src(bci, caller);
  }

  private void declareParams() {
    Class<?>[] types = code.method.method().getParameterTypes();
    Map<Integer, Object> refs0 = new HashMap<>();
    int slot = 0;
    Src where = at(0);
    for (int i = 0; i < types.length; i++) {
      Class<?> c = types[i];
      String name = prefix + code.method.parameterName(i);
      Prim p = Prim.of(c);
      Prim element = dev.loopjit.runtime.HostArray.elementOf(c);
      Var v;
      if (p != null) {
        // A kernel's own narrow parameters keep their type (they are device arguments); a callee's arrive as ints.
        v = names.fresh(name, caller == null ? p : p.stackType());
        if (v.type() == p.stackType()) locals.put(slot + ":" + p.stackType(), v);
        else prologue.add(new Stmt.Assign(local(slot, Prim.INT, name), new Convert(Prim.INT, new Read(v)), where));
      } else if (element != null) {
        v = names.fresh(name, ArrayType.global(element));
        refs0.put(slot, new Read(v));
      } else if (c == dev.loopjit.api.KernelContext.class) {
        v = null;
        refs0.put(slot, ContextRef.INSTANCE);
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

  private Var temp(Type type) {
    return names.temp(prefix + "t", type);
  }

  // ---------------------------------------------------------------- blocks

  private void block(Cfg.Node n) {
    stack = n.rpo == 0 ? new ArrayList<>() : entryStack(n);
    refs = new HashMap<>(entryRefs.getOrDefault(n, Map.of()));
    out = new ArrayList<>();
    if (n.rpo == 0) out.addAll(prologue);
    for (int i = n.first; i <= n.last; i++) {
      MethodCode.Insn insn = code.insns.get(i);
      src = at(insn.bci());
      if (i == n.last && isExit(insn.ins())) {
        n.exit = exit(n, insn.ins());
      } else {
        instruction(insn.ins());
      }
    }
    if (n.exit == null) n.exit = new Cfg.Jump(n.succs.get(0));
    flowOut(n);
    n.stmts = out;
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
        if (!stack.isEmpty()) throw Refusal.unsupported(src, "a loop inside an expression");
        continue;
      }
      Map<Integer, Object> in = entryRefs.get(s);
      if (in == null) entryRefs.put(s, new HashMap<>(refs));
      else for (Integer slot : new ArrayList<>(union(in, refs))) if (!Objects.equals(in.get(slot), refs.get(slot))) in.put(slot, CONFLICT);
      List<Object> values = new ArrayList<>();
      for (Object v : stack) values.add(materialize(v));
      outStacks.computeIfAbsent(s, k -> new LinkedHashMap<>()).put(n, values);
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
      if (!(first instanceof Expr e && e.type() instanceof Prim p)) throw Refusal.unsupported(src, "an array chosen by ?: or a branch");
      Var t = temp(p);
      for (var pred : from.entrySet()) pred.getKey().stmts.add(new Stmt.Assign(t, (Expr) pred.getValue().get(k), src));
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

  // ---------------------------------------------------------------- stack

  private void push(Object v) {
    stack.add(v);
  }

  private Object popAny() {
    if (stack.isEmpty()) throw new IllegalStateException("operand stack underflow at " + src);
    return stack.remove(stack.size() - 1);
  }

  private Expr pop() {
    return (Expr) materialize(popAny());
  }

  private Object materialize(Object v) {
    if (v instanceof Cmp3 c) {
      Expr lt = new Compare(Op.Compare.LT, c.a(), c.b()), gt = new Compare(Op.Compare.GT, c.a(), c.b());
      Expr eq = new Compare(Op.Compare.EQ, c.a(), c.b());
      return new Select(lt, Const.of(-1), new Select(gt, Const.of(1), new Select(eq, Const.of(0), Const.of(c.nanResult()))));
    }
    return v;
  }

  private Expr popArray() {
    Object v = popAny();
    if (v instanceof Expr e && e.type() instanceof ArrayType) return e;
    throw Refusal.unsupported(src, "an object that is not an array here");
  }

  private static int category(Object v) {
    return v instanceof Expr e && e.type() instanceof Prim p && p.isWide() ? 2 : 1;
  }

  /** Spills pending stack values that read {@code v}, before {@code v} changes. */
  private void spillReads(Var v) {
    spill(e -> reads(e, v));
  }

  /** Spills pending stack values that read memory, before memory may change. */
  private void spillLoads() {
    spill(Translator::readsMemory);
  }

  private void spill(java.util.function.Predicate<Expr> affected) {
    for (int k = 0; k < stack.size(); k++) {
      if (stack.get(k) instanceof Cmp3) stack.set(k, materialize(stack.get(k)));
      if (stack.get(k) instanceof Expr e && e.type() instanceof Prim p && affected.test(e)) {
        Var t = temp(p);
        out.add(new Stmt.Assign(t, e, src));
        stack.set(k, new Read(t));
      }
    }
  }

  static boolean reads(Expr e, Var v) {
    return switch (e) {
      case Read r -> r.var().equals(v);
      case Const c -> false;
      case Alloc a -> false;
      case Unary u -> reads(u.x(), v);
      case Binary b -> reads(b.a(), v) || reads(b.b(), v);
      case Compare c -> reads(c.a(), v) || reads(c.b(), v);
      case Logic l -> reads(l.a(), v) || reads(l.b(), v);
      case Convert c -> reads(c.x(), v);
      case Select s -> reads(s.cond(), v) || reads(s.a(), v) || reads(s.b(), v);
      case Load l -> reads(l.array(), v) || reads(l.index(), v);
      case Length l -> reads(l.array(), v);
      case Call c -> c.args().stream().anyMatch(x -> reads(x, v));
      case Invoke i -> i.args().stream().anyMatch(x -> reads(x, v));
    };
  }

  static boolean readsMemory(Expr e) {
    return switch (e) {
      case Load l -> true;
      case Call c -> c.op().hasEffect() || c.args().stream().anyMatch(Translator::readsMemory);
      case Invoke i -> true;
      case Read r -> false;
      case Const c -> false;
      case Alloc a -> false;
      case Length l -> false;
      case Unary u -> readsMemory(u.x());
      case Binary b -> readsMemory(b.a()) || readsMemory(b.b());
      case Compare c -> readsMemory(c.a()) || readsMemory(c.b());
      case Logic l -> readsMemory(l.a()) || readsMemory(l.b());
      case Convert c -> readsMemory(c.x());
      case Select s -> readsMemory(s.cond()) || readsMemory(s.a()) || readsMemory(s.b());
    };
  }

  /** Puts a computed value on the stack; one with an effect becomes a statement first. */
  private void pushResult(Expr call, Prim type) {
    if (type == null) {
      out.add(new Stmt.Eval(call, src));
      return;
    }
    Var t = temp(type.stackType());
    out.add(new Stmt.Assign(t, call, src));
    push(new Read(t));
  }

  // ---------------------------------------------------------------- instructions

  private void instruction(java.lang.classfile.Instruction ins) {
    switch (ins) {
      case LoadInstruction l -> {
        if (l.typeKind() == TypeKind.REFERENCE) {
          Object b = refs.get(l.slot());
          if (b == null || b == CONFLICT)
            throw Refusal.unsupported(src, b == null ? "an object local variable" : "an array variable that may refer to different arrays");
          push(b);
        } else {
          push(new Read(local(l.slot(), prim(l.typeKind()))));
        }
      }
      case StoreInstruction s -> {
        if (s.typeKind() == TypeKind.REFERENCE) storeRef(s.slot(), popAny());
        else {
          Expr v = pop();
          Var var = local(s.slot(), prim(s.typeKind()));
          spillReads(var);
          out.add(new Stmt.Assign(var, v, src));
        }
      }
      case IncrementInstruction i -> {
        Var var = local(i.slot(), Prim.INT);
        spillReads(var);
        out.add(new Stmt.Assign(var, new Binary(Op.Binary.ADD, new Read(var), Const.of(i.constant())), src));
      }
      case ConstantInstruction c -> push(constant(c.constantValue()));
      case OperatorInstruction o -> operator(o);
      case ConvertInstruction c -> push(new Convert(prim(c.toType()), pop()));
      case ArrayLoadInstruction a -> {
        if (a.typeKind() == TypeKind.REFERENCE) throw Refusal.unsupported(src, "an array of objects");
        Expr index = pop();
        push(new Load(popArray(), index));
      }
      case ArrayStoreInstruction a -> {
        if (a.typeKind() == TypeKind.REFERENCE) throw Refusal.unsupported(src, "an array of objects");
        Expr value = pop(), index = pop();
        Expr array = popArray();
        refuseTableWrite(array);
        spillLoads();
        out.add(new Stmt.Store(array, index, value, src));
      }
      case InvokeInstruction inv -> invoke(inv);
      case FieldInstruction f -> field(f);
      case NewPrimitiveArrayInstruction n -> {
        // A variable right away: javac fills array initializers ({1, 2}) before storing the array anywhere.
        Expr count = pop();
        ArrayType type = new ArrayType(prim(n.typeKind()), ArrayType.Space.PRIVATE, constantSize(count, "new " + n.typeKind().name().toLowerCase() + "[n]"));
        Var array = names.fresh(prefix + "array", type);
        out.add(new Stmt.Assign(array, new Alloc(type), src));
        push(new Read(array));
      }
      case StackInstruction s -> stackOp(s.opcode());
      case NopInstruction n -> {}
      case NewObjectInstruction n -> throw Refusal.unsupported(src, "new " + javaName(n.className().asSymbol()));
      case NewReferenceArrayInstruction n -> throw Refusal.unsupported(src, "new " + javaName(n.componentType().asSymbol()) + "[]");
      case NewMultiArrayInstruction n -> throw Refusal.unsupported(src, "a multi-dimensional array (new " + javaName(n.arrayType().asSymbol()) + ")");
      case TypeCheckInstruction t -> throw Refusal.unsupported(src, t.opcode() == Opcode.INSTANCEOF ? "instanceof" : "a cast to " + javaName(t.type().asSymbol()));
      case MonitorInstruction m -> throw Refusal.unsupported(src, "synchronized");
      case InvokeDynamicInstruction i -> throw Refusal.unsupported(src, "a lambda, method reference or string concatenation (invokedynamic " + i.name() + ")");
      default -> throw Refusal.unsupported(src, "the bytecode " + ins.opcode().name().toLowerCase());
    }
  }

  private static String javaName(ClassDesc d) {
    return d.isArray() ? javaName(d.componentType()) + "[]" : d.packageName().isEmpty() ? d.displayName() : d.packageName() + "." + d.displayName();
  }

  private int constantSize(Expr count, String what) {
    if (!(count instanceof Const c)) throw Refusal.unsupported(src, what + " with a size that is not a constant");
    int n = (int) c.longValue();
    if (n < 0 || n > 16384) throw Refusal.error(src, what, "array size " + n + " is out of range (0 to 16384) for a kernel array");
    return n;
  }

  private void storeRef(int slot, Object v) {
    if (v instanceof Alloc a) {
      Var var = locals.computeIfAbsent(slot + ":" + a.type(), k -> {
        String n = code.nameOf(slot, "[");
        return names.fresh(prefix + (n != null ? n : "a" + slot), a.type());
      });
      out.add(new Stmt.Assign(var, a, src));
      refs.put(slot, new Read(var));
    } else if (v == ContextRef.INSTANCE || (v instanceof Expr e && e.type() instanceof ArrayType)) {
      refs.put(slot, v);
    } else {
      throw Refusal.unsupported(src, "an object local variable");
    }
  }

  /** Tables are copies of static arrays: a write would not reach the real one, so it is refused. */
  private void refuseTableWrite(Expr array) {
    if (array instanceof Read r && names.tables.containsValue(r.var()))
      throw Refusal.unsupported(src, "writing the static array " + r.var().name());
  }

  private Expr constant(java.lang.constant.ConstantDesc v) {
    return switch (v) {
      case Integer i -> Const.of(i);
      case Long l -> Const.of(l);
      case Float f -> Const.of(f);
      case Double d -> Const.of(d);
      case null -> throw Refusal.unsupported(src, "null");
      case String s -> throw Refusal.unsupported(src, "a String");
      default -> throw Refusal.unsupported(src, "the constant " + v);
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
      case ARRAYLENGTH -> push(new Length(popArray()));
      case INEG, LNEG, FNEG, DNEG -> push(new Unary(Op.Unary.NEG, pop()));
      case LCMP, FCMPL, FCMPG, DCMPL, DCMPG -> {
        Expr b = pop(), a = pop();
        push(new Cmp3(a, b, op == Opcode.FCMPG || op == Opcode.DCMPG ? 1 : -1));
      }
      default -> {
        Expr b = pop(), a = pop();
        String n = op.name();
        Op.Binary bin = switch (n.substring(1)) {
          case "ADD" -> Op.Binary.ADD; case "SUB" -> Op.Binary.SUB; case "MUL" -> Op.Binary.MUL;
          case "DIV" -> Op.Binary.DIV; case "REM" -> Op.Binary.REM; case "AND" -> Op.Binary.AND;
          case "OR" -> Op.Binary.OR; case "XOR" -> Op.Binary.XOR; case "SHL" -> Op.Binary.SHL;
          case "SHR" -> Op.Binary.SHR; case "USHR" -> Op.Binary.USHR;
          default -> throw Refusal.unsupported(src, "the bytecode " + n.toLowerCase());
        };
        push(new Binary(bin, a, b));
      }
    }
  }

  private void stackOp(Opcode op) {
    switch (op) {
      case POP -> popAny();
      case POP2 -> {
        if (category(popAny()) == 1) popAny();
      }
      case SWAP -> {
        Object a = popAny(), b = popAny();
        push(a);
        push(b);
      }
      case DUP -> {
        Object a = single(popAny());
        push(a);
        push(a);
      }
      case DUP_X1 -> {
        Object a = single(popAny()), b = popAny();
        push(a); push(b); push(a);
      }
      case DUP_X2 -> {
        Object a = single(popAny()), b = popAny();
        if (category(b) == 2) { push(a); push(b); push(a); }
        else { Object c = popAny(); push(a); push(c); push(b); push(a); }
      }
      case DUP2 -> {
        Object a = single(popAny());
        if (category(a) == 2) { push(a); push(a); }
        else { Object b = single(popAny()); push(b); push(a); push(b); push(a); }
      }
      case DUP2_X1 -> {
        Object a = single(popAny());
        if (category(a) == 2) { Object b = popAny(); push(a); push(b); push(a); }
        else { Object b = single(popAny()), c = popAny(); push(b); push(a); push(c); push(b); push(a); }
      }
      case DUP2_X2 -> {
        Object a = single(popAny());
        if (category(a) == 2) {
          Object b = popAny();
          if (category(b) == 2) { push(a); push(b); push(a); }
          else { Object c = popAny(); push(a); push(c); push(b); push(a); }
        } else {
          Object b = single(popAny()), c = popAny();
          if (category(c) == 2) { push(b); push(a); push(c); push(b); push(a); }
          else { Object d = popAny(); push(b); push(a); push(d); push(c); push(b); push(a); }
        }
      }
      default -> throw Refusal.unsupported(src, "the bytecode " + op.name().toLowerCase());
    }
  }

  /** A value about to be duplicated: anything but a variable, constant or reference is computed once into a temporary. */
  private Object single(Object v) {
    v = materialize(v);
    if (v instanceof Expr e && e.type() instanceof Prim p && !(e instanceof Read) && !(e instanceof Const)) {
      Var t = temp(p);
      out.add(new Stmt.Assign(t, e, src));
      return new Read(t);
    }
    return v;
  }

  // ---------------------------------------------------------------- calls and fields

  private void invoke(InvokeInstruction inv) {
    String owner = inv.owner().asInternalName(), name = inv.name().stringValue(), desc = inv.type().stringValue();
    var type = inv.typeSymbol();
    int n = type.parameterCount();
    Expr[] args = new Expr[n];
    Object[] raw = new Object[n];
    for (int i = n - 1; i >= 0; i--) {
      raw[i] = materialize(popAny());
      if (raw[i] instanceof Expr e) args[i] = e;
    }
    Prim result = type.returnType().isPrimitive() && !type.returnType().descriptorString().equals("V")
        ? Prim.ofDescriptor(type.returnType().descriptorString().charAt(0)) : null;
    String display = owner.substring(owner.lastIndexOf('/') + 1) + "." + name;
    switch (inv.opcode()) {
      case INVOKESTATIC -> {
        for (Object a : raw) if (!(a instanceof Expr)) throw Refusal.unsupported(src, "passing a KernelContext to " + display);
        if (owner.equals("java/lang/Math") && name.equals("clamp")) {
          push(clamp(desc, args));
          return;
        }
        Intrinsics.Mapping m = Intrinsics.lookup(owner, name, desc);
        if (m != null) {
          push(new Call(m.op(), m.result(), List.of(args)));
          return;
        }
        if (!type.returnType().isPrimitive() && !type.returnType().descriptorString().equals("V"))
          throw Refusal.unsupported(src, "calling " + display + ", which returns an object");
        spillLoads();
        pushResult(new Invoke(owner, name, desc, result == null ? null : result.stackType(), List.of(args)), result);
      }
      case INVOKEVIRTUAL, INVOKEINTERFACE -> {
        Object receiver = popAny();
        if (receiver == ContextRef.INSTANCE && owner.equals(CONTEXT)) context(name, args);
        else if (receiver instanceof Expr e && e.type() instanceof ArrayType && owner.startsWith(TYPES)) offHeap(e, name, args);
        else throw Refusal.unsupported(src, "the virtual call " + display);
      }
      default -> throw Refusal.unsupported(src, "calling " + (name.equals("<init>") ? "a constructor of " + display.replace(".<init>", "") : display));
    }
  }

  /**
   * {@code Math.clamp(value, min, max)} as {@code min(max, max(value, min))}, which is its result
   * whenever Java returns one; where Java would throw (min > max, a NaN bound) a device gives that
   * expression's value instead.
   */
  private Expr clamp(String desc, Expr[] a) {
    Prim result = Prim.ofDescriptor(desc.charAt(desc.length() - 1));
    Prim work = desc.startsWith("(JII") ? Prim.LONG : result;
    Expr lo = a[1].prim() == work ? a[1] : new Convert(work, a[1]), hi = a[2].prim() == work ? a[2] : new Convert(work, a[2]);
    Expr v = new Call(Intrinsic.MIN, work, List.of(hi, new Call(Intrinsic.MAX, work, List.of(a[0], lo))));
    return work == result ? v : new Convert(result, v);
  }

  private void offHeap(Expr array, String name, Expr[] args) {
    switch (name) {
      case "get" -> push(new Load(array, args[0]));
      case "set" -> {
        spillLoads();
        out.add(new Stmt.Store(array, args[0], args[1], src));
      }
      case "getSize" -> push(new Length(array));
      default -> throw Refusal.unsupported(src, "the array method " + name + "() (kernels use get, set and getSize)");
    }
  }

  private void context(String name, Expr[] args) {
    switch (name) {
      case "localBarrier" -> out.add(new Stmt.Eval(new Call(Intrinsic.BARRIER_LOCAL, null, List.of()), src));
      case "globalBarrier" -> out.add(new Stmt.Eval(new Call(Intrinsic.BARRIER_GLOBAL, null, List.of()), src));
      case "allocateIntLocalArray", "allocateLongLocalArray", "allocateFloatLocalArray", "allocateDoubleLocalArray" -> {
        Prim e = switch (name) {
          case "allocateIntLocalArray" -> Prim.INT; case "allocateLongLocalArray" -> Prim.LONG;
          case "allocateFloatLocalArray" -> Prim.FLOAT; default -> Prim.DOUBLE;
        };
        push(new Alloc(new ArrayType(e, ArrayType.Space.LOCAL, constantSize(args[0], name + "(n)"))));
      }
      case "atomicAdd" -> {
        Prim t = ((ArrayType) args[0].type()).element().stackType();
        spillLoads();
        pushResult(new Call(Intrinsic.ATOMIC_ADD, t, List.of(args)), t);
      }
      default -> throw Refusal.unsupported(src, "KernelContext." + name);
    }
  }

  private void field(FieldInstruction f) {
    String name = f.name().stringValue();
    switch (f.opcode()) {
      case GETFIELD -> {
        Object receiver = popAny();
        Intrinsic op = receiver == ContextRef.INSTANCE ? contextField(name) : null;
        if (op == null) throw Refusal.unsupported(src, "reading the field " + name + " of an object");
        push(new Call(op, Prim.INT, List.of(Const.of("xyz".indexOf(Character.toLowerCase(name.charAt(name.length() - 1)))))));
      }
      case GETSTATIC -> push(staticConstant(f));
      case PUTFIELD -> throw Refusal.unsupported(src, "writing the field " + name + " of an object");
      default -> throw Refusal.unsupported(src, "writing the static field " + name);
    }
  }

  private static Intrinsic contextField(String name) {
    return switch (name.substring(0, name.length() - 1)) {
      case "globalId" -> Intrinsic.GLOBAL_ID;
      case "localId" -> Intrinsic.LOCAL_ID;
      case "groupId" -> Intrinsic.GROUP_ID;
      case "globalGroupSize" -> Intrinsic.GLOBAL_SIZE;
      case "localGroupSize" -> Intrinsic.LOCAL_SIZE;
      default -> null;
    };
  }

  /** A static final primitive field is read once, at compile time, and becomes a constant; a table, a private array. */
  private Object staticConstant(FieldInstruction f) {
    String owner = f.owner().asInternalName(), name = f.name().stringValue();
    if (name.equals("$assertionsDisabled")) return Const.of(1); // assertions are off in kernels
    if (f.typeSymbol().isArray()) return table(owner, name);
    try {
      Class<?> c = Class.forName(owner.replace('/', '.'), true, code.method.owner().getClassLoader());
      java.lang.reflect.Field field = c.getDeclaredField(name);
      int mods = field.getModifiers();
      if (!java.lang.reflect.Modifier.isFinal(mods) || !field.getType().isPrimitive())
        throw Refusal.unsupported(src, "the static field " + c.getSimpleName() + "." + name
            + (field.getType().isPrimitive() ? " (only static final primitives can be read)" : ""));
      field.setAccessible(true);
      Object v = field.get(null);
      return switch (v) {
        case Boolean b -> Const.of(b ? 1 : 0);
        case Character ch -> Const.of((int) ch);
        case Byte b -> Const.of((int) b);
        case Short s -> Const.of((int) s);
        case Integer i -> Const.of(i);
        case Long l -> Const.of(l);
        case Float x -> Const.of(x);
        case Double d -> Const.of(d);
        default -> throw new IllegalStateException(String.valueOf(v));
      };
    } catch (ReflectiveOperationException | RuntimeException e) {
      if (e instanceof dev.loopjit.api.KernelCompilationException k) throw k;
      throw Refusal.unsupported(src, "the static field " + owner.replace('/', '.') + "." + name);
    }
  }

  /**
   * A {@code static final} primitive array read in a kernel: a private array filled with its
   * values where it is read (one per field and kernel; no kernel may write it).
   */
  private Expr table(String owner, String name) {
    Object values;
    try {
      values = StaticArrays.read(Class.forName(owner.replace('/', '.'), true, code.method.owner().getClassLoader()), name);
    } catch (ClassNotFoundException | RuntimeException e) {
      values = null;
    }
    String what = "the static array " + owner.substring(owner.lastIndexOf('/') + 1).replace('$', '.') + "." + name;
    if (values == null) throw Refusal.unsupported(src, what + " (only static final arrays of primitives can be read)");
    int n = java.lang.reflect.Array.getLength(values);
    Prim element = Prim.of(values.getClass().getComponentType());
    ArrayType type = new ArrayType(element, ArrayType.Space.PRIVATE, constantSize(Const.of(n), what));
    Var table = names.tables.computeIfAbsent(owner + "." + name, k -> names.fresh(name, type));
    out.add(new Stmt.Assign(table, new Alloc(type), src));
    for (int i = 0; i < n; i++) {
      Object v = java.lang.reflect.Array.get(values, i);
      Expr c = switch (v) {
        case Integer x -> x == 0 ? null : Const.of(x);
        case Long x -> x == 0 ? null : Const.of(x);
        case Float x -> Float.floatToRawIntBits(x) == 0 ? null : Const.of(x);
        case Double x -> Double.doubleToRawLongBits(x) == 0 ? null : Const.of(x);
        case Short x -> x == 0 ? null : Const.of((int) x);
        case Byte x -> x == 0 ? null : Const.of((int) x);
        case Character x -> x == 0 ? null : Const.of((int) x);
        case Boolean x -> x ? Const.of(1) : null;
        default -> throw new IllegalStateException(String.valueOf(v));
      };
      if (c != null) out.add(new Stmt.Store(new Read(table), Const.of(i), c, src));
    }
    return new Read(table);
  }

  // ---------------------------------------------------------------- block exits

  private Cfg.Exit exit(Cfg.Node n, java.lang.classfile.Instruction ins) {
    switch (ins) {
      case ReturnInstruction r -> {
        Expr v = r.typeKind() == TypeKind.VOID ? null : r.typeKind() == TypeKind.REFERENCE ? refuseRefReturn() : pop();
        return new Cfg.Ret(v, src);
      }
      case ThrowInstruction t -> throw Refusal.unsupported(src, "throw");
      case TableSwitchInstruction t -> {
        Expr sel = pop();
        List<Integer> values = new ArrayList<>();
        List<Cfg.Node> targets = new ArrayList<>();
        for (SwitchCase c : t.cases()) {
          values.add(c.caseValue());
          targets.add(node(code.bciOf(c.target())));
        }
        return new Cfg.Table(sel, values, targets, node(code.bciOf(t.defaultTarget())), src);
      }
      case LookupSwitchInstruction t -> {
        Expr sel = pop();
        List<Integer> values = new ArrayList<>();
        List<Cfg.Node> targets = new ArrayList<>();
        for (SwitchCase c : t.cases()) {
          values.add(c.caseValue());
          targets.add(node(code.bciOf(c.target())));
        }
        return new Cfg.Table(sel, values, targets, node(code.bciOf(t.defaultTarget())), src);
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
        return new Cfg.Branch(cond, target, next, src);
      }
      default -> throw new IllegalStateException(ins.toString());
    }
  }

  private Expr refuseRefReturn() {
    throw Refusal.unsupported(src, "returning an object or array");
  }

  private Cfg.Node node(int bci) {
    for (Cfg.Node n : cfg.nodes) if (n.startBci == bci) return n;
    throw new IllegalStateException("no block at " + bci);
  }

  private Expr condition(Opcode op) {
    return switch (op) {
      case IFEQ, IFNE, IFLT, IFGE, IFGT, IFLE -> {
        Object top = popAny();
        Op.Compare cmp = compare(op.name().substring(2));
        if (top instanceof Cmp3 c) yield threeWay(cmp, c);
        yield new Compare(cmp, (Expr) top, Const.of(0));
      }
      case IF_ICMPEQ, IF_ICMPNE, IF_ICMPLT, IF_ICMPGE, IF_ICMPGT, IF_ICMPLE -> {
        Expr b = pop(), a = pop();
        yield new Compare(compare(op.name().substring(7)), a, b);
      }
      case IF_ACMPEQ, IF_ACMPNE -> throw Refusal.unsupported(src, "comparing object references");
      case IFNULL, IFNONNULL -> throw Refusal.unsupported(src, "a null check");
      default -> throw Refusal.unsupported(src, "the bytecode " + op.name().toLowerCase());
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
  private static Expr threeWay(Op.Compare op, Cmp3 c) {
    boolean floating = c.a().prim().isFloating();
    if (!floating || op == Op.Compare.EQ || op == Op.Compare.NE) return new Compare(op, c.a(), c.b());
    boolean trueOnNaN = switch (op) {
      case LT -> c.nanResult() < 0; case LE -> c.nanResult() <= 0; case GT -> c.nanResult() > 0; default -> c.nanResult() >= 0;
    };
    return trueOnNaN ? new Unary(Op.Unary.NOT, new Compare(op.negate(), c.a(), c.b())) : new Compare(op, c.a(), c.b());
  }
}
