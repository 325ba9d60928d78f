// The skeleton every compiling backend shares: key, generate, driver cache, dump, build, numbered errors, launch shape.
package dev.loopjit.spi;

import dev.loopjit.api.Device;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Target;
import java.util.HashMap;
import java.util.List;
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

  /** The variants of a task's kernel on this device, by kernel (method or prebuilt) and whether the task's arguments are fixed. */
  private final Map<List<Object>, Variants> variants = new HashMap<>();

  /** The variants of {@code task}'s kernel, lowered the first time a task of this kernel is prepared here. */
  private Variants variants(TaskSpec task) {
    return variants.computeIfAbsent(variantsKey(task), k -> Variants.of(task, recipe.target(device, variant(), options), options));
  }

  private static List<Object> variantsKey(TaskSpec task) {
    return List.of(task.method() != null ? task.method() : task.prebuilt(), task.method() != null && task.fixedArguments());
  }

  /**
   * The task's kernel for its arguments: the variant they take ({@link Variants#choose}: unchecked
   * where the host proves every access, signed where it proves the indices, in lanes on a CPU where
   * the trip counts fit the block), built now unless this plan or the device's caches hold it.
   */
  @Override
  public final Prepared prepare(TaskSpec task) {
    long t0 = System.nanoTime();   // the JIT's time includes lowering the variants, the first time
    boolean known = variants.containsKey(variantsKey(task));
    Variants vs = variants(task);
    Variants.Variant v = vs.choose(task.args().toArray());
    return build(task, vs, v, known ? 0 : System.nanoTime() - t0);
  }

  /** As {@link #prepare}, after building every other variant of the task's kernel ({@code withPreCompilation}). */
  @Override
  public final Prepared prepareAll(TaskSpec task) {
    long t0 = System.nanoTime();
    Variants vs = variants(task);
    Variants.Variant chosen = vs.choose(task.args().toArray());
    long compile = System.nanoTime() - t0, driver = 0;
    int built = 0;
    for (Variants.Variant v : vs.all()) {
      if (v == chosen) continue;
      Prepared p = build(task, vs, v, 0);
      compile += p.compileNanos();
      driver += p.driverCompileNanos();
      built += p.built();
    }
    Prepared p = build(task, vs, chosen, 0);
    return new Prepared(p.kernel(), built + p.built() > 0, compile + p.compileNanos(), driver + p.driverCompileNanos(), built + p.built());
  }

  /** The kernel of variant {@code v}: from this plan's kernels, else its code from the recipe and its program from the caches or the driver. */
  private Prepared build(TaskSpec task, Variants vs, Variants.Variant v, long loweringNanos) {
    long t0 = System.nanoTime();
    Target target = v.target();
    Key key = new Key(task.method() != null ? task.method() : task.prebuilt(), target);
    CompiledKernel<H> k = kernels.get(key);
    if (k != null) return new Prepared(k, false, loweringNanos, 0);
    DeviceCode code = task.prebuilt() != null ? Prebuilt.code(task, recipe, device.toString()) : recipe.generate(task, target, options);
    long compileNanos = loweringNanos + System.nanoTime() - t0;
    String buildOptions = buildOptions(target);
    P program = programs.cached(code, buildOptions);
    boolean compiled = false;
    long driverNanos = 0;
    if (options.flag("printKernel") || program == null && options.dump(recipe.language()))
      System.out.println("// " + recipe.displayName() + " of " + task.display() + " for " + device + " (" + v.name() + ")\n" + recipe.show(code));
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
    k.variantOf(vs, v);
    kernels.put(key, k);
    return new Prepared(k, compiled, compileNanos, driverNanos);
  }

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
