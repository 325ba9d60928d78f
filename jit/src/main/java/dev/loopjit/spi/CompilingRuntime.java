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
 * @param <K> the backend's kernel
 */
public abstract class CompilingRuntime<P, K extends CompiledKernel> implements DeviceRuntime {
  protected final Device device;
  protected final Recipe recipe;
  protected final Options options;
  private final Map<Key, K> kernels = new HashMap<>();

  /** A kernel of the plan: a method (or a prebuilt kernel) for a target. */
  private record Key(Object kernel, Target target) {}

  protected CompilingRuntime(Device device, Recipe recipe, Options options) {
    this.device = device;
    this.recipe = recipe;
    this.options = options;
  }

  @Override
  public final Device device() {
    return device;
  }

  /** The device's programs, shared by its plans. */
  protected abstract ProgramCache<P> programs();

  /** The recipe's sub-target for this device ({@code "sm_90"}), or empty. */
  protected String variant() {
    return "";
  }

  /** The driver's build options for {@code target}. */
  protected String buildOptions(Target target) {
    return "";
  }

  /** The kernel named {@code code.ir().name()} from {@code program}, for {@code task}. */
  protected abstract K createKernel(P program, DeviceCode code, String task);

  /** What the device's limits allow {@code kernel}, for its launch shape. */
  protected abstract WorkGroups.Limits limits(K kernel);

  /** Releases a kernel when the runtime closes. */
  protected void release(K kernel) {}

  @Override
  public final Prepared prepare(TaskSpec task) {
    Target target = recipe.target(device, variant(), options);
    Key key = new Key(task.method() != null ? task.method() : task.prebuilt(), target);
    K k = kernels.get(key);
    if (k != null) return new Prepared(k, false, 0, 0);
    long t0 = System.nanoTime();
    DeviceCode code = task.prebuilt() != null ? Prebuilt.code(task, recipe, device.toString()) : recipe.generate(task, target, options);
    long compileNanos = System.nanoTime() - t0;
    String buildOptions = buildOptions(target);
    P program = programs().cached(code, buildOptions);
    boolean compiled = false;
    long driverNanos = 0;
    if (program == null) {
      if (options.dump(recipe.language()))
        System.out.println("// " + recipe.displayName() + " of " + task.display() + " for " + device + "\n" + code.text());
      try {
        ProgramCache.Built<P> b = programs().build(code, buildOptions, options);
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

  /** The launch shape of {@code grid} for {@code kernel}: its work-groups within the device's and the kernel's limits. */
  protected final WorkGroups.Shape shape(K kernel, Grid grid) {
    return WorkGroups.choose(grid, kernel.explicit(), kernel.gridStride(), limits(kernel), kernel.task());
  }

  /** Releases the plan's kernels; subclasses then release their own queue or stream. */
  protected final void releaseKernels() {
    for (K k : kernels.values()) release(k);
    kernels.clear();
  }
}
