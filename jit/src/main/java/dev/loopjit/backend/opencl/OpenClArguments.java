// Binds a launch's arguments to an OpenCL kernel in the order the IR's argument list gives.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Prim;
import dev.loopjit.spi.CompiledKernel;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.PooledBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Binds a launch's arguments to a cl_kernel (which holds its argument values, so each runtime makes
 * its own from the shared program), in the order of {@code ir.args()}: an array's cl_mem, an
 * array's length (int), a scalar as the C type of its variable (byte→char, short→short,
 * char→ushort, boolean→int 0/1, …), a loop count (int).
 */
final class OpenClArguments {
  private OpenClArguments() {}

  /** Sets every argument of {@code k} for a launch; {@code args} has each array replaced by its buffer. */
  static void bind(OpenCl cl, CompiledKernel<MemorySegment> k, Object[] args, Grid grid, Arena a) {
    KernelIR ir = k.ir();
    String task = k.task();
    List<KernelArg> list = ir.args();
    for (int i = 0; i < list.size(); i++) {
      MemorySegment value = switch (list.get(i)) {
        case KernelArg.Array arr -> a.allocateFrom(ADDRESS, PooledBuffer.<MemorySegment>of(args, arr.param(), task).handle());
        case KernelArg.Length len -> a.allocateFrom(JAVA_INT, PooledBuffer.of(args, len.param(), task).host().length());
        case KernelArg.Scalar s -> scalar(ir, task, s, args[s.param()], a);
        case KernelArg.Count c -> a.allocateFrom(JAVA_INT, (int) grid.counts()[c.dim()]);
      };
      int rc = cl.setKernelArg(k.handle(), i, value.byteSize(), value);
      if (rc != OpenCl.SUCCESS)
        throw new OpenClException(rc, "task \"" + task + "\": clSetKernelArg " + i + " (" + list.get(i) + ") of kernel " + ir.name());
    }
  }

  private static MemorySegment scalar(KernelIR ir, String task, KernelArg.Scalar s, Object v, Arena a) {
    if (!(s.var().type() instanceof Prim p))
      throw new IllegalStateException("kernel " + ir.name() + ": scalar argument " + s.var() + " has type " + s.var().type());
    if (v == null) throw new IllegalArgumentException("task \"" + task + "\": argument " + s.param() + " is null");
    long l = switch (v) {
      case Boolean b -> b ? 1 : 0;
      case Character c -> c;
      case Number n -> n.longValue();
      default -> throw new IllegalArgumentException("task \"" + task + "\": argument " + s.param() + " is a " + v.getClass().getName());
    };
    double d = v instanceof Number n ? n.doubleValue() : l;
    return switch (p) {
      case BOOLEAN, INT -> a.allocateFrom(JAVA_INT, (int) l);
      case BYTE -> a.allocateFrom(JAVA_BYTE, (byte) l);
      case SHORT, CHAR -> a.allocateFrom(JAVA_SHORT, (short) l);
      case LONG -> a.allocateFrom(JAVA_LONG, l);
      case FLOAT -> a.allocateFrom(JAVA_FLOAT, (float) d);
      case DOUBLE -> a.allocateFrom(JAVA_DOUBLE, d);
      case HALF -> a.allocateFrom(JAVA_SHORT, Float.floatToFloat16((float) d));
    };
  }
}
