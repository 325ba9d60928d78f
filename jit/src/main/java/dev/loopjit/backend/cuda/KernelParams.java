// The kernel parameter ABI shared with PtxEmitter: how each KernelArg becomes a value behind cuLaunchKernel's void** array.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Prim;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.PooledBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The parameters of a PTX {@code .entry}, in the order of {@code ir.args()}:
 * <table>
 * <tr><th>KernelArg</th><th>PTX parameter</th><th>value</th></tr>
 * <tr><td>Array</td><td>{@code .param .u64}</td><td>the device pointer ({@code CUdeviceptr})</td></tr>
 * <tr><td>Length</td><td>{@code .param .u32}</td><td>the array's length in elements</td></tr>
 * <tr><td>Count</td><td>{@code .param .u32}</td><td>the trip count of parallel loop {@code dim}</td></tr>
 * <tr><td>Scalar INT</td><td>{@code .param .u32}</td><td>the int</td></tr>
 * <tr><td>Scalar LONG</td><td>{@code .param .u64}</td><td>the long</td></tr>
 * <tr><td>Scalar FLOAT</td><td>{@code .param .f32}</td><td>the float</td></tr>
 * <tr><td>Scalar DOUBLE</td><td>{@code .param .f64}</td><td>the double</td></tr>
 * <tr><td>Scalar BOOLEAN, BYTE, SHORT, CHAR</td><td>{@code .param .u32}</td><td>as a Java int: 0/1, sign-extended,
 * sign-extended, zero-extended</td></tr>
 * </table>
 * {@code cuLaunchKernel} takes a {@code void*[]} with one pointer to each value; the driver copies
 * the values at launch, so they may live in a confined arena that closes right after.
 */
final class KernelParams {
  private KernelParams() {}

  /**
   * The {@code void*[]} for a launch. {@code args} are the task's arguments with each array
   * replaced by its device buffer; {@code grid.counts()} gives the loop counts.
   */
  static MemorySegment of(KernelIR ir, Object[] args, Grid grid, Arena a, String task) {
    List<KernelArg> list = ir.args();
    MemorySegment pointers = a.allocate(ADDRESS, Math.max(1, list.size()));
    for (int i = 0; i < list.size(); i++) pointers.setAtIndex(ADDRESS, i, value(list.get(i), args, grid, a, task, ir));
    return pointers;
  }

  private static MemorySegment value(KernelArg arg, Object[] args, Grid grid, Arena a, String task, KernelIR ir) {
    return switch (arg) {
      case KernelArg.Array arr -> a.allocateFrom(JAVA_LONG, PooledBuffer.<Long>of(args, arr.param(), task).handle());
      case KernelArg.Length len -> a.allocateFrom(JAVA_INT, PooledBuffer.of(args, len.param(), task).host().length());
      case KernelArg.Count c -> a.allocateFrom(JAVA_INT, (int) grid.counts()[c.dim()]);
      case KernelArg.Scalar s -> {
        if (!(s.var().type() instanceof Prim p))
          throw new IllegalStateException("kernel " + ir.name() + ": scalar argument " + s.var() + " has type " + s.var().type());
        Object v = args[s.param()];
        if (v == null) throw new IllegalArgumentException("task \"" + task + "\": argument " + s.param() + " is null");
        yield scalar(p, v, a, task);
      }
    };
  }

  /** A scalar as the PTX parameter of its type holds it; the narrow types widen to 32 bits as on the JVM stack. */
  static MemorySegment scalar(Prim p, Object v, Arena a, String task) {
    long l = switch (v) {
      case Boolean b -> b ? 1 : 0;
      case Character c -> c;
      case Number n -> n.longValue();
      default -> throw new IllegalArgumentException("task \"" + task + "\": a " + v.getClass().getName() + " is not a scalar argument");
    };
    double d = v instanceof Number n ? n.doubleValue() : l;
    return switch (p) {
      case BOOLEAN -> a.allocateFrom(JAVA_INT, l != 0 ? 1 : 0);
      case BYTE -> a.allocateFrom(JAVA_INT, (byte) l);
      case SHORT -> a.allocateFrom(JAVA_INT, (short) l);
      case CHAR -> a.allocateFrom(JAVA_INT, (char) l);
      case INT -> a.allocateFrom(JAVA_INT, (int) l);
      case LONG -> a.allocateFrom(JAVA_LONG, l);
      case FLOAT -> a.allocateFrom(JAVA_FLOAT, (float) d);
      case DOUBLE -> a.allocateFrom(JAVA_DOUBLE, d);
      case HALF -> throw new IllegalStateException("task \"" + task + "\": half is a storage type, never a scalar argument");
    };
  }
}
