// What one launch of a task did, for Profile: the lowered kernel's per-work-item counts times the work-items of the launch.
package dev.loopjit.runtime;

import dev.loopjit.api.Profile;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Var;
import dev.loopjit.ir.WorkCounter;
import dev.loopjit.spi.CompiledKernel;
import dev.loopjit.spi.DeviceKernel;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.KernelFacts;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.TaskSpec;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@link Profile.Work} of one launch: {@link WorkCounter} over the kernel as the device runs it
 * (a compiled kernel's lowered IR; for the {@code jvm}, which runs the Java method itself, for a
 * chunked target such as {@code jvm-mt}'s, and for a coarsened variant whose loops the host cannot
 * count, {@link DeviceKernel#workIr()}: one iteration per work-item, lowered once with the kernel's
 * variants, never per launch), with the launch's arguments and grid,
 * times the work-items counted (the {@code @Parallel} iterations, or the explicit grid). Null when
 * there is no IR to count (a prebuilt kernel, a method only the jvm can run).
 */
final class KernelWork {
  private KernelWork() {}

  static Profile.Work of(TaskSpec task, DeviceKernel kernel, Grid grid, Options options) {
    if (task.prebuilt() != null) return null;
    try {
      if (kernel instanceof CompiledKernel<?> c && c.target() != null && (!c.target().chunked() || c.explicit())) {
        Profile.Work w = of(c.ir(), task.args(), grid);
        // A coarsened variant (lanes, rows, blocks per work-item on a CPU) has loops whose trip counts
        // depend on the work-item: its work is the Java loop's, counted below as for the jvm.
        if (w.exact() || c.explicit()) return w;
      }
      // The jvm calls the method once, and a chunked target's work-item (jvm-mt) is a chunk of the
      // range whose bounds the host does not see: count the IR of one iteration per work-item over
      // the @Parallel loops' trip counts.
      KernelIR ir = kernel.workIr();
      if (ir == null) return null;
      if (ir.launch() instanceof Launch.Loops) {
        long[] counts = KernelFacts.loopCounts(ir, task.args().toArray());
        long[] global = {1, 1, 1};
        System.arraycopy(counts, 0, global, 0, counts.length);
        grid = new Grid(counts.length, global, null, counts);
      }
      return of(ir, task.args(), grid);
    } catch (RuntimeException e) {
      return null;   // nothing to count: the profile shows the time alone
    }
  }

  /** The work of {@code ir} launched on {@code grid} with these task arguments. */
  static Profile.Work of(KernelIR ir, List<Object> args, Grid grid) {
    Map<Var, Object> values = new HashMap<>();
    Set<Var> counts = new HashSet<>();
    for (KernelIR.Param p : ir.params()) {
      if (p.index() >= args.size()) continue;   // the bounds report: not the task's
      Object v = value(args.get(p.index()));
      if (v != null) values.put(p.var(), v);
    }
    for (KernelArg a : ir.args()) {
      switch (a) {
        case KernelArg.Array x when x.param() >= args.size() -> {}
        case KernelArg.Length x when x.param() >= args.size() -> values.put(x.var(), 1);
        case KernelArg.Array x -> { Object v = value(args.get(x.param())); if (v != null) values.put(x.var(), v); }
        case KernelArg.Length x -> { Object v = value(args.get(x.param())); if (v != null) values.put(x.var(), v); }
        case KernelArg.Scalar x -> { Object v = value(args.get(x.param())); if (v != null) values.put(x.var(), v); }
        case KernelArg.Count x -> {
          values.put(x.var(), (int) Math.min(Integer.MAX_VALUE, grid.counts()[x.dim()]));
          counts.add(x.var());
        }
        case KernelArg.Computed x -> values.put(x.var(), dev.loopjit.spi.LaunchValues.computed(ir, x, args.toArray(), ir.name()));
        case KernelArg.Local x -> {}   // a work-group array: its accesses are local, not global, memory
      }
    }
    long[] global = {1, 1, 1};
    for (int d = 0; d < grid.dims(); d++) global[d] = grid.global()[d];
    long[] local = null;
    if (grid.local() != null) {
      local = new long[] {1, 1, 1};
      for (int d = 0; d < grid.dims() && d < grid.local().length; d++) local[d] = grid.local()[d];
    }
    WorkCounter.Count one = WorkCounter.perWorkItem(ir, new WorkCounter.Launch(values, global, local, counts));
    long items = 1;
    for (int d = 0; d < grid.dims(); d++) items *= Math.max(0, global[d]);
    WorkCounter.Count all = one.times(items);
    return new Profile.Work(all.bytesRead(), all.bytesWritten(), all.flops(), items, all.estimate());
  }

  /** What the host knows of a task argument: a primitive as its stack value, an array by its length, else nothing. */
  private static Object value(Object a) {
    HostArray h = HostArray.of(a);
    if (h != null) return h.length();
    return switch (a) {
      case Byte b -> (int) b;
      case Short s -> (int) s;
      case Character c -> (int) c;
      case Integer i -> i;
      case Long l -> l;
      case Float f -> f;
      case Double d -> d;
      case Boolean b -> b;
      case null, default -> null;
    };
  }
}
