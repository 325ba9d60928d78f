// An AtomicInteger a kernel is given: one int in the device's memory, its methods the device's atomic add and compare-and-set.
package dev.loopjit.compiler;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import java.util.List;

/**
 * A kernel's {@code AtomicInteger} parameter (TornadoVM's atomics API) is an int array of one
 * element in the device's global memory: the host sets it from {@code get()} when it copies the
 * object to the device and {@code set}s it when it copies it back ({@code HostArray.cell}). Its
 * methods become one atomic operation each, so every work-item's update counts, as with threads
 * in Java: {@code incrementAndGet()} is {@code atomicAdd(cell, 0, 1) + 1}, {@code get()} an atomic
 * add of 0 (the value now, never a stale copy), {@code compareAndSet} a compare-and-swap. Which
 * work-item gets which value depends on the order they run, as it does for threads; the final
 * count does not. One made in the kernel ({@code new AtomicInteger(200)}) is refused: a kernel
 * cannot make memory its work-items share.
 */
final class AtomicCells {
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

  /** The refusal of {@code new AtomicInteger(...)} inside a kernel. */
  static KernelCompilationException made(Src at) {
    return Refusal.error(at, "new java.util.concurrent.atomic.AtomicInteger", "'new AtomicInteger' in a kernel is not supported "
        + "(a kernel cannot make memory its work-items share); pass the AtomicInteger to the task as a parameter: "
        + "the device counts on it and the plan copies its value to and from the device as it copies an array");
  }
}
