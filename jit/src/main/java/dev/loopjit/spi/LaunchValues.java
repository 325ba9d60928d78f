// What the host computes for a launch besides trip counts: local arrays sized at run time and host-computed int arguments.
package dev.loopjit.spi;

import dev.loopjit.compiler.HostEval;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Call;
import dev.loopjit.ir.Expr.Const;
import dev.loopjit.ir.Expr.Read;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Uses;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates a kernel's launch expressions on the host, for the runtimes: the lengths of its
 * {@link KernelArg.Local} arrays (sized at run time) and the values of its {@link KernelArg.Computed}
 * arguments (collection shapes). The arguments may be the task's own or the launch's, with each
 * array replaced by its {@link DeviceBuffer}; {@code localSize} is the launch's work-group shape,
 * which local lengths may read ({@code localGroupSizeX}).
 *
 * <p>Dynamic local arrays are laid out one after another, each starting at a multiple of
 * {@link #ALIGNMENT} bytes, after the kernel's constant-size local arrays: that is the slice of CUDA
 * dynamic shared memory each gets, and the bytes checked against the device's local memory.
 */
public final class LaunchValues {
  /** Alignment of each dynamic local array: enough for any element and for 16-byte vector access. */
  public static final long ALIGNMENT = 16;

  private LaunchValues() {}

  /** One dynamic local array of a launch: its argument, its length in elements, bytes, and byte offset in the dynamic area. */
  public record Local(KernelArg.Local arg, long length, long bytes, long offset) {}

  /** Whether the kernel has any argument the host must compute per launch beyond lengths and counts. */
  public static boolean any(KernelIR k) {
    return k.args().stream().anyMatch(a -> a instanceof KernelArg.Local || a instanceof KernelArg.Computed);
  }

  /**
   * The dynamic local arrays of a launch with {@code args} and work-group {@code localSize}; throws
   * IllegalArgumentException (naming {@code task}) for a negative or too large length.
   */
  public static List<Local> locals(KernelIR k, Object[] args, long[] localSize, String task) {
    List<Local> out = new ArrayList<>();
    long offset = 0;
    Map<Var, Object> env = null;
    for (KernelArg a : k.args()) {
      if (!(a instanceof KernelArg.Local l)) continue;
      if (env == null) env = env(k, args);
      long n = ((Number) HostEval.eval(hostForm(l.length(), env, localSize, task), env)).longValue();
      var type = (dev.loopjit.ir.ArrayType) l.var().type();
      if (n < 0)
        throw new IllegalArgumentException("task \"" + task + "\": the local array " + l.var().name() + " would have " + n
            + " elements (Java would throw NegativeArraySizeException)");
      long bytes = n * type.element().bytes();
      offset = (offset + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
      out.add(new Local(l, n, bytes, offset));
      offset += bytes;
    }
    return out;
  }

  /** Bytes of local memory a launch needs: the constant-size arrays plus the dynamic ones, as laid out. */
  public static long localBytes(KernelIR k, Object[] args, long[] localSize, String task) {
    return Uses.of(k.body()).localBytes() + dynamicBytes(locals(k, args, localSize, task));
  }

  /** Bytes of the dynamic area of {@code locals}: where the last one ends. */
  public static long dynamicBytes(List<Local> locals) {
    return locals.isEmpty() ? 0 : locals.get(locals.size() - 1).offset() + locals.get(locals.size() - 1).bytes();
  }

  /**
   * Checks a launch's local memory (the constant-size arrays and {@code locals}) against
   * {@code device}'s; returns the dynamic bytes. Throws IllegalArgumentException naming the task.
   */
  public static long checkLocalMemory(KernelIR k, List<Local> locals, dev.loopjit.api.Device device, String task) {
    return checkLocalMemory(Uses.of(k.body()).localBytes(), locals, device, task);
  }

  /** As {@link #checkLocalMemory(KernelIR, List, dev.loopjit.api.Device, String)}, the kernel's constant-size arrays taking {@code constantBytes} ({@link CompiledKernel#constantLocalBytes()}). */
  public static long checkLocalMemory(long constantBytes, List<Local> locals, dev.loopjit.api.Device device, String task) {
    long dynamic = dynamicBytes(locals), total = constantBytes + dynamic;
    if (total > device.localMemoryBytes()) {
      StringBuilder what = new StringBuilder();
      for (Local l : locals) what.append(what.isEmpty() ? "" : ", ").append(l.arg().var().name()).append(": ").append(l.length()).append(" elements");
      throw new IllegalArgumentException("task \"" + task + "\": this launch needs " + total + " bytes of local memory per work-group ("
          + what + (dynamic < total ? ", and " + (total - dynamic) + " bytes of constant-size arrays" : "") + "); " + device.id() + " has "
          + device.localMemoryBytes() + " bytes per work-group");
    }
    return dynamic;
  }

  /** The value of launch expression {@code e} (a trip count, say) for {@code args}; {@code localSize} may be null. */
  public static Object eval(KernelIR k, Expr e, Object[] args, long[] localSize, String task) {
    Map<Var, Object> env = env(k, args);
    return HostEval.eval(hostForm(e, env, localSize, task), env);
  }

  /**
   * The largest length of the private arrays {@code k} makes with a size known at launch
   * ({@link KernelIR#launchSizes()}) for {@code args}, 0 for none; refuses, before anything runs, a
   * negative one as Java does ({@link NegativeArraySizeException}) and one past
   * {@link dev.loopjit.ir.Target#MAX_PRIVATE} (a kernel's arrays live in each work-item's own memory).
   */
  public static long largestPrivateArray(KernelIR k, Object[] args, String task) {
    long most = 0;
    for (Expr e : k.launchSizes()) {
      long n = ((Number) eval(k, e, args, null, task)).longValue();
      if (n < 0)
        throw new NegativeArraySizeException("task \"" + task + "\": an array made in the kernel would have " + n + " elements ("
            + dev.loopjit.ir.IrPrinter.expr(e) + " for these arguments); nothing ran");
      if (n > dev.loopjit.ir.Target.MAX_PRIVATE)
        throw new IllegalArgumentException("task \"" + task + "\": an array made in the kernel would have " + n + " elements ("
            + dev.loopjit.ir.IrPrinter.expr(e) + "); a kernel's own arrays hold at most " + dev.loopjit.ir.Target.MAX_PRIVATE
            + " (each work-item has its own): pass a larger array as an argument instead; nothing ran");
      most = Math.max(most, n);
    }
    return most;
  }

  /** The value of a {@link KernelArg.Computed} argument for {@code args}. */
  public static int computed(KernelIR k, KernelArg.Computed c, Object[] args, String task) {
    Map<Var, Object> env = env(k, args);
    return ((Number) HostEval.eval(hostForm(c.value(), env, null, task), env)).intValue();
  }

  /**
   * {@code e} with what only the host knows made constant: {@code SHAPE(collection, d)} from the
   * collection argument, {@code LOCAL_SIZE(d)} from the launch.
   */
  private static Expr hostForm(Expr e, Map<Var, Object> env, long[] localSize, String task) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        if (!(x instanceof Call c)) return x;
        if (c.op() == Intrinsic.SHAPE && c.args().get(0) instanceof Read r && env.get(shapeKey(r.var())) instanceof HostArray h)
          return Const.of(h.extent((int) ((Const) c.args().get(1)).longValue()));
        if (c.op() == Intrinsic.LOCAL_SIZE) {
          if (localSize == null) throw new IllegalStateException("task \"" + task + "\": a launch value reads the work-group size, which is not known here");
          int d = (int) ((Const) c.args().get(0)).longValue();
          return Const.of((int) (d < localSize.length ? localSize[d] : 1));
        }
        return x;
      }
    }.rewrite(e);
  }

  /** Scalars as given, arrays by their length (all a launch expression reads of them), collections also by shape. */
  private static Map<Var, Object> env(KernelIR k, Object[] args) {
    Map<Var, Object> env = new HashMap<>();
    for (KernelIR.Param p : k.params()) {
      if (p.var() == null || p.index() >= args.length) continue;   // the bounds report, which no launch value reads
      Object a = args[p.index()];
      HostArray h = a instanceof DeviceBuffer b ? b.host() : p.kind() == KernelIR.Param.Kind.ARRAY ? HostArray.of(a) : null;
      if (h != null) {
        env.put(p.var(), h.length());
        env.put(shapeKey(p.var()), h);
      } else {
        env.put(p.var(), a);
      }
    }
    return env;
  }

  /** The environment's key for a collection parameter's host array (a variable no kernel reads). */
  private static Var shapeKey(Var v) {
    return new Var(v.name() + " (host array)", v.type());
  }
}
