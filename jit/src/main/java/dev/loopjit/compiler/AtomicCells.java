// An AtomicInteger a kernel is given or makes before its loop: one int in the device's memory, its methods atomic adds and compare-and-sets.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.List;

/**
 * A kernel's {@code AtomicInteger} parameter (TornadoVM's atomics API) is an int array of one
 * element in the device's global memory: the host sets it from {@code get()} when it copies the
 * object to the device and {@code set}s it when it copies it back ({@code HostArray.cell}). Its
 * methods become one atomic operation each, so every work-item's update counts, as with threads
 * in Java: {@code incrementAndGet()} is {@code atomicAdd(cell, 0, 1) + 1}, {@code get()} an atomic
 * add of 0 (the value now, never a stale copy), {@code compareAndSet} a compare-and-swap. Which
 * work-item gets which value depends on the order they run, as it does for threads; the final
 * count does not.
 *
 * <p>One the kernel method makes before its {@code @Parallel} loop ({@code new AtomicInteger(200)},
 * shared by every iteration in Java) is a hidden cell parameter after all the others, one per
 * {@code new} in the method's code ({@link #made(MethodRef)} tells the host how many to pass): the
 * {@code new} stores its initial value, a write before the loop, so it runs once in the prologue
 * launch before any iteration. One made inside a {@code @Parallel} loop (an object per iteration),
 * in an explicit {@code KernelContext} kernel (an object per work-item) or in a helper is refused.
 */
public final class AtomicCells {
  static final String OWNER = "java/util/concurrent/atomic/AtomicInteger";

  private AtomicCells() {}

  /** {@code cell.name(args)}, its result (if any) pushed. */
  static void invoke(OperandStack ops, Expr cell, String name, Expr[] args) {
    switch (name) {
      case "get", "intValue", "getPlain", "getOpaque", "getAcquire" -> ops.push(add(ops, cell, Const.of(0)));
      case "incrementAndGet" -> ops.push(new Binary(Op.Binary.ADD, add(ops, cell, Const.of(1)), Const.of(1)));
      case "getAndIncrement" -> ops.push(add(ops, cell, Const.of(1)));
      case "decrementAndGet" -> ops.push(new Binary(Op.Binary.SUB, add(ops, cell, Const.of(-1)), Const.of(1)));
      case "getAndDecrement" -> ops.push(add(ops, cell, Const.of(-1)));
      case "addAndGet" -> {
        Expr delta = ops.once(args[0]);
        ops.push(new Binary(Op.Binary.ADD, add(ops, cell, delta), delta));
      }
      case "getAndAdd" -> ops.push(add(ops, cell, args[0]));
      case "compareAndSet", "weakCompareAndSet", "weakCompareAndSetPlain", "weakCompareAndSetVolatile" -> {
        Expr expected = ops.once(args[0]);
        ops.spillLoads();
        Expr old = ops.result(new Call(Intrinsic.ATOMIC_CAS, Prim.INT, List.of(cell, Const.of(0), expected, args[1])), Prim.INT);
        ops.push(new Select(new Compare(Op.Compare.EQ, old, expected), Const.of(1), Const.of(0)));
      }
      default -> throw Refusal.error(ops.src, "AtomicInteger." + name, "'AtomicInteger." + name + "' is not supported in a kernel; "
          + "a kernel's AtomicInteger takes get, incrementAndGet, getAndIncrement, decrementAndGet, getAndDecrement, addAndGet, "
          + "getAndAdd and compareAndSet");
    }
  }

  /** The old value of an atomic add of {@code delta} to the cell, computed once at statement level. */
  private static Expr add(OperandStack ops, Expr cell, Expr delta) {
    ops.spillLoads();
    return ops.result(new Call(Intrinsic.ATOMIC_ADD, Prim.INT, List.of(cell, Const.of(0), delta)), Prim.INT);
  }

  /** The value {@code new AtomicInteger} leaves on the stack until its constructor runs. */
  record Made(int bci) {}

  /**
   * {@code new AtomicInteger} at {@code bci} of {@code code}: its mark, or the refusal where it
   * would not be one object shared by the kernel's iterations.
   */
  static Made made(MethodCode code, int bci, Src caller, Src at) {
    String made = "new java.util.concurrent.atomic.AtomicInteger";
    if (caller != null)
      throw Refusal.error(at, made, "'new AtomicInteger' in a method a kernel calls is not supported; make it in the kernel method "
          + "itself, before its @Parallel loop, or pass it to the task as a parameter");
    if (java.util.Arrays.asList(code.method.method().getParameterTypes()).contains(dev.loopjit.api.KernelContext.class))
      throw Refusal.error(at, made, "'new AtomicInteger' in a KernelContext kernel is not supported: each work-item would make its "
          + "own; pass the AtomicInteger to the task as a parameter to share one");
    for (MethodCode.ParallelRange r : code.parallel)
      if (bci >= r.start() && bci < r.end())
        throw Refusal.error(at, made, "'new AtomicInteger' inside a @Parallel loop is not supported (one per iteration); make it "
            + "before the loop, where every iteration shares it, or pass it to the task as a parameter");
    return new Made(bci);
  }

  /** Its constructor: the cell's initial value stored (0 for {@code new AtomicInteger()}), the mark replaced by the cell. */
  static void construct(OperandStack ops, Made made, String desc, Expr[] args, Names names) {
    Expr initial = switch (desc) {
      case "()V" -> Const.of(0);
      case "(I)V" -> args[0];
      default -> throw new IllegalStateException("AtomicInteger constructor " + desc);
    };
    Var cell = cell(names, made.bci());
    ops.spillLoads();
    ops.out.add(new Stmt.Store(new Read(cell), Const.of(0), initial, ops.src));
    for (int k = 0; k < ops.values.size(); k++) if (ops.values.get(k) == made) ops.values.set(k, new Read(cell));
  }

  /** The cell parameter of the {@code new AtomicInteger} at {@code bci}. */
  static Var cell(Names names, int bci) {
    return names.madeCells.computeIfAbsent(bci, b -> names.fresh("atomic_" + b, ArrayType.global(Prim.INT)));
  }

  /** The offsets of the {@code new AtomicInteger}s in the code of {@code code}'s method, in order: one hidden parameter each. */
  static List<Integer> sites(MethodCode code) {
    List<Integer> out = new java.util.ArrayList<>();
    for (MethodCode.Insn i : code.insns)
      if (i.ins() instanceof java.lang.classfile.instruction.NewObjectInstruction n && n.className().asInternalName().equals(OWNER)) out.add(i.bci());
    return out;
  }

  /** How many AtomicIntegers {@code method} makes in its own code: the host passes one fresh cell for each, after every other argument. */
  public static int made(MethodRef method) {
    try {
      return sites(MethodCode.read(method, null)).size();
    } catch (RuntimeException e) {
      return 0;   // no code to read: the plan refuses the kernel when it compiles it
    }
  }
}
