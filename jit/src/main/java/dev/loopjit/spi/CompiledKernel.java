// A compiled kernel of a compiling runtime: the driver's handle, its code, the task it was made for, and its limits.
package dev.loopjit.spi;

import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;

/**
 * A kernel made by a {@link CompilingRuntime}: the driver's handle ({@code H}: a cl_kernel, a
 * CUfunction), the {@link DeviceCode} (whose IR says how to bind arguments and size the grid), the
 * task it was made for and the largest work-group the driver runs it with.
 */
public final class CompiledKernel<H> implements DeviceKernel {
  private final DeviceCode code;
  private final H handle;
  private final String task;
  private final long maxGroup;
  /** The variants of the task's kernel on this device and which one this is; set once by the runtime that made it. */
  private Variants variants;
  private Variants.Variant variant;
  /**
   * Facts every launch reads, found once when the kernel is made (walking the IR per launch cost a
   * training step more host time than its kernels took on a GPU): how each parameter is used, and
   * the bytes of the kernel's constant-size local arrays.
   */
  private final Access[] accesses;
  private final long constantLocalBytes;

  /**
   * @param task     {@code graph.task}, for messages
   * @param maxGroup the largest work-group the driver runs this kernel with (registers, local memory)
   */
  public CompiledKernel(DeviceCode code, H handle, String task, long maxGroup) {
    this.code = code;
    this.handle = handle;
    this.task = task;
    this.maxGroup = maxGroup;
    this.accesses = code.accesses() != null ? code.accesses().toArray(Access[]::new) : KernelFacts.accesses(code.ir());
    this.constantLocalBytes = dev.loopjit.ir.Uses.of(code.ir().body()).localBytes();
  }

  public DeviceCode code() {
    return code;
  }

  /** Records that this kernel is {@code variant} of {@code variants} ({@link CompilingRuntime} does, once). */
  void variantOf(Variants variants, Variants.Variant variant) {
    this.variants = variants;
    this.variant = variant;
  }

  /** The target this kernel was compiled for; null for one made outside a {@link CompilingRuntime}. */
  public dev.loopjit.ir.Target target() {
    return variant == null ? null : variant.target();
  }

  @Override
  public dev.loopjit.ir.KernelIR workIr() {
    return variants == null ? null : variants.workIr();
  }

  @Override
  public String variant() {
    return variants == null ? "" : variants.describe(variant);
  }

  public H handle() {
    return handle;
  }

  public KernelIR ir() {
    return code.ir();
  }

  /** The task it was made for, {@code graph.task}, for messages. */
  public String task() {
    return task;
  }

  /** The largest work-group: the driver's limit for this kernel, and the compiler's (a reduction's local arrays). */
  public long maxGroup() {
    return ir().launch() instanceof Launch.Loops l && l.maxGroupSize() > 0 ? Math.min(maxGroup, l.maxGroupSize()) : maxGroup;
  }

  /** Whether the kernel strides over its range (a reduction): its grid fills the device rather than covering every iteration. */
  public boolean gridStride() {
    return ir().launch() instanceof Launch.Loops l && l.gridStride();
  }

  @Override
  public boolean prologue() {
    return ir().launch() instanceof Launch.Loops l && l.prologue();
  }

  @Override
  public boolean epilogue() {
    return ir().launch() instanceof Launch.Loops l && l.epilogue();
  }

  @Override
  public Access access(int param) {
    return accesses[param];
  }

  @Override
  public java.util.List<dev.loopjit.ir.BoundsSite> boundsSites() {
    return ir().boundsSites();
  }

  @Override
  public boolean mayFail(Object[] args) {
    return KernelFacts.mayFail(ir(), args);
  }

  @Override
  public boolean explicit() {
    return ir().launch() instanceof Launch.Explicit;
  }

  @Override
  public int lanes() {
    return ir().launch() instanceof Launch.Loops l ? l.lanes() : 1;
  }

  @Override
  public int rows() {
    return ir().launch() instanceof Launch.Loops l ? l.rows() : 1;
  }

  @Override
  public long[] loopCounts(Object[] args) {
    return KernelFacts.loopCounts(ir(), args);
  }

  @Override
  public long localMemoryBytes(Object[] args, long[] localSize) {
    return constantLocalBytes + LaunchValues.dynamicBytes(LaunchValues.locals(ir(), args, localSize, task));
  }

  /** Bytes of the kernel's local arrays of constant size (the dynamic ones come with each launch). */
  public long constantLocalBytes() {
    return constantLocalBytes;
  }
}
