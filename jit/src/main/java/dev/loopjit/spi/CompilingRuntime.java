// The skeleton every compiling backend shares: key, generate, driver cache, dump, build, numbered errors, launch shape.
package dev.loopjit.spi;

import dev.loopjit.api.Device;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.compiler.MethodRef;
import dev.loopjit.compiler.Target;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link DeviceRuntime} for a device that runs generated code (OpenCL, CUDA, SPIR-V). It owns the
 * whole way from a task to a kernel: the target from the backend's {@link Recipe}, the plan's own
 * kernels by (method, target), the code from the recipe, the device's {@link ProgramCache} (memory
 * and disk), the dump ({@code loopjit.dump=<language>}), the driver's build with its errors turned
 * into a {@link KernelCompilationException} that shows the numbered code, and the launch shape from
 * {@link WorkGroups}. A backend writes the calls that differ: build options, making a kernel from a
 * program, allocation, copies, launch, events.
 *
 * @param <P> the driver's program (module) handle
 * @param <H> the driver's kernel handle
 */
public abstract class CompilingRuntime<P, H> implements DeviceRuntime {
  protected final Device device;
  protected final Recipe recipe;
  protected final Options options;
  private final ProgramCache<P> programs;
  private final Map<Key, CompiledKernel<H>> kernels = new HashMap<>();

  /** A kernel of the plan: a method (or a prebuilt kernel) for a target. */
  private record Key(Object kernel, Target target) {}

  /** A runtime of {@code device} whose kernels come from {@code recipe}, built through the device's {@code programs}. */
  protected CompilingRuntime(Device device, Recipe recipe, Options options, ProgramCache<P> programs) {
    this.device = device;
    this.recipe = recipe;
    this.options = options;
    this.programs = programs;
  }

  @Override
  public final Device device() {
    return device;
  }

  /** The recipe's sub-target for this device ({@code "sm_90"}), or empty. */
  protected String variant() {
    return "";
  }

  /** The driver's build options for {@code target}. */
  protected String buildOptions(Target target) {
    return "";
  }

  /** The kernel named {@code code.ir().name()} from {@code program}, for {@code task}. */
  protected abstract CompiledKernel<H> createKernel(P program, DeviceCode code, String task);

  /** What the device's limits allow {@code kernel}, for its launch shape. */
  protected abstract WorkGroups.Limits limits(CompiledKernel<H> kernel);

  /** Releases a kernel when the runtime closes. */
  protected void release(CompiledKernel<H> kernel) {}

  @Override
  public final Prepared prepare(TaskSpec task) {
    long t0 = System.nanoTime();   // the JIT's time includes choosing the variant (it compiles the checked kernel to see its bounds)
    Target target = signedWhereProven(task, inLanesWhereSafe(task, uncheckedWhereSafe(task, recipe.target(device, variant(), options))));
    Key key = new Key(task.method() != null ? task.method() : task.prebuilt(), target);
    CompiledKernel<H> k = kernels.get(key);
    if (k != null) return new Prepared(k, false, 0, 0);
    DeviceCode code = task.prebuilt() != null ? Prebuilt.code(task, recipe, device.toString()) : recipe.generate(task, target, options);
    long compileNanos = System.nanoTime() - t0;
    String buildOptions = buildOptions(target);
    P program = programs.cached(code, buildOptions);
    boolean compiled = false;
    long driverNanos = 0;
    if (options.flag("printKernel") || program == null && options.dump(recipe.language()))
      System.out.println("// " + recipe.displayName() + " of " + task.display() + " for " + device + "\n" + recipe.show(code));
    if (program == null) {
      try {
        ProgramCache.Built<P> b = programs.build(code, buildOptions, options);
        program = b.program();
        compiled = b.fromSource();
        driverNanos = b.driverNanos();
      } catch (BuildFailure f) {
        throw buildError(task, code, buildOptions, f);
      }
    }
    k = createKernel(program, code, task.qualifiedName());
    kernels.put(key, k);
    return new Prepared(k, compiled, compileNanos, driverNanos);
  }

  /**
   * {@code target}, or the same without bounds checks when no checked access of the task's kernel
   * can fail with the task's arguments (when they never change, {@link TaskSpec#fixedArguments}): each is below a
   * trip count no larger than its array ({@link KernelFacts#mayFail}), as vector add's {@code a[i]}
   * and {@code b[i]} for {@code i < c.length}. The common kernel then runs exactly the unchecked code.
   */
  private Target uncheckedWhereSafe(TaskSpec task, Target target) {
    if (task.method() == null || !target.boundsChecks() || !task.fixedArguments()) return target;
    dev.loopjit.ir.KernelIR checked = dev.loopjit.compiler.Compiler.compile(task.method(), target, options.dump(), options.flag("verifyIr"));
    return checked.boundsSites().isEmpty() || KernelFacts.mayFail(checked, task.args().toArray()) ? target
        : target.withBoundsChecks(false).withSignedIndices(options.signedIndices());
  }

  /**
   * {@code target}, or the same without signed indices where the kernel compiled for it
   * ({@code target} proven at launch, {@link #uncheckedWhereSafe}) wrote none or the host cannot prove
   * the bounds it assumed for them ({@link dev.loopjit.ir.KernelIR#assumedSites}) for this task's arguments.
   */
  private Target signedWhereProven(TaskSpec task, Target target) {
    if (!target.signedIndices()) return target;
    dev.loopjit.ir.KernelIR k = dev.loopjit.compiler.Compiler.compile(task.method(), target, options.dump(), options.flag("verifyIr"));
    return k.assumedSites().isEmpty() || KernelFacts.mayFail(k, k.assumedSites(), task.args().toArray()) ? target.withSignedIndices(false) : target;
  }

  /**
   * {@code target}, or the same with up to {@link Options#lanes()} iterations of x (and up to
   * {@link #ROWS} of y) per work-item (the {@code coarsen} pass, which picks the block its kernel's
   * shape wants), for a CPU device when the task's arguments never change, its kernel checks no
   * access ({@code target} is already unchecked) and its trip counts are multiples of the block:
   * then every lane is an iteration of the range and none could fail alone. The pass's choice is
   * read back from the compiled kernel's launch; where y is not a multiple of its rows, x alone is
   * tried. Another size with the same divisibility reuses the kernel; one that fits no block gets the
   * one-iteration kernel.
   */
  private Target inLanesWhereSafe(TaskSpec task, Target target) {
    int lanes = options.lanes();
    if (lanes == 1 || !target.cpu() || target.chunked() || target.boundsChecks() || task.method() == null || !task.fixedArguments()) return target;
    Object[] args = task.args().toArray();
    for (int rows : new int[] {ROWS, 1}) {
      Target t = target.withLanes(lanes, rows);
      dev.loopjit.ir.KernelIR k = dev.loopjit.compiler.Compiler.compile(task.method(), t, options.dump(), options.flag("verifyIr"));
      if (!(k.launch() instanceof dev.loopjit.ir.Launch.Loops l) || l.lanes() == 1) return target;   // the kernel's shape takes no block
      long[] counts = KernelFacts.loopCounts(k, args);
      if (counts[0] == 0 || counts[0] % l.lanes() != 0) return target;
      if (l.rows() == 1 || counts[1] > 0 && counts[1] % l.rows() == 0) return t;
    }
    return target;
  }

  /** The most rows of y a work-item computes with lanes (the pass uses 4 or 8: docs/performance-log.md). */
  private static final int ROWS = 8;

  private KernelCompilationException buildError(TaskSpec task, DeviceCode code, String buildOptions, BuildFailure f) {
    String what = recipe.displayName();
    StringBuilder msg = new StringBuilder(task.display()).append(": the generated ").append(what).append(" does not build for ")
        .append(device).append(" (").append(f.code()).append(buildOptions.isEmpty() ? "" : ", options \"" + buildOptions + "\"")
        .append("):\n").append(f.log().isBlank() ? "(the driver gave no build log)" : f.log()).append("\n--- generated ")
        .append(what).append(" ---\n");
    String[] lines = code.text().split("\n", -1);
    for (int i = 0; i < lines.length; i++) msg.append(String.format("%4d  %s%n", i + 1, lines[i]));
    MethodRef m = task.method();
    return new KernelCompilationException(m != null ? m.owner().getName() : "(prebuilt)", m != null ? m.name() : task.prebuilt().entryPoint(),
        -1, what + " build", msg.toString());
  }

  @Override
  public final Timing copyIn(DeviceBuffer buffer) {
    return copy(buffer, true);
  }

  @Override
  public final Timing copyOut(DeviceBuffer buffer) {
    return copy(buffer, false);
  }

  /** Copies between {@code buffer}'s host array and the device, in the direction asked. */
  protected abstract Timing copy(DeviceBuffer buffer, boolean toDevice);

  /** The launch shape of {@code grid} for {@code kernel}: its work-groups within the device's and the kernel's limits. */
  protected final WorkGroups.Shape shape(CompiledKernel<H> kernel, Grid grid) {
    if (kernel.lanes() > 1 && grid.local() == null && grid.dims() >= 2) grid = WorkGroups.coarsened(grid);
    WorkGroups.Shape s = WorkGroups.choose(grid, kernel.explicit(), kernel.gridStride(), limits(kernel), kernel.task());
    if (options.flag("threadInfo")) System.out.println("task " + kernel.task() + " on " + device + ": " + s);
    return s;
  }

  /** The kernel of a launch, as this runtime made it. */
  @SuppressWarnings("unchecked")
  protected final CompiledKernel<H> kernel(DeviceKernel k) {
    return (CompiledKernel<H>) k;
  }

  /** Releases the plan's kernels; subclasses then release their own queue or stream. */
  protected final void releaseKernels() {
    for (CompiledKernel<H> k : kernels.values()) release(k);
    kernels.clear();
  }
}
