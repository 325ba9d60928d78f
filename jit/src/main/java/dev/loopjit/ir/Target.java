// What a compile target can do, declared up front so the compiler refuses what a device lacks.
package dev.loopjit.ir;

import java.util.Set;

/**
 * A compile target: the language emitted and the device capabilities the compiler checks before
 * emitting (rather than learning them from a driver error).
 *
 * @param language         {@code "opencl"}, {@code "ptx"} or {@code "spirv"}
 * @param variant          e.g. {@code "sm_90"} for PTX; empty otherwise
 * @param fp64             doubles allowed
 * @param fp16             half arithmetic (half storage is always allowed)
 * @param int64Atomics     64-bit atomic add allowed
 * @param localMemoryBytes local (shared) memory per work-group
 * @param maxWorkGroupSize largest work-group
 * @param fastMath         relax strict Java float semantics
 * @param natives          intrinsics the language computes exactly itself; null for all
 * @param cpu              the device is a CPU (PoCL): kernels take the shape its work-group vectoriser wants
 * @param boundsChecks     array indices must be checked by the generated code (the {@code bounds} pass): true
 *                         for devices that would otherwise touch memory outside an array; false when the
 *                         settings turn checks off, or for code that gets Java's own checks (JVM bytecode)
 * @param lanes            CPU targets: iterations of the innermost {@code @Parallel} dimension one work-item
 *                         computes side by side (the {@code coarsen} pass), a power of two; 1 for one iteration
 *                         per work-item. The runtime asks for it only where the trip count is a multiple
 *                         of it and no access needs a check ({@code spi.CompilingRuntime})
 * @param rows             with {@code lanes}: iterations of the next dimension (y) each work-item computes too,
 *                         a power of two; 1 for one
 * @param signedIndices    without bounds checks: the runtime proves this kernel's indices at launch (their
 *                         upper bounds, {@code KernelIR.assumedSites}), so the {@code bounds} pass writes
 *                         their sums and products as plain signed arithmetic ({@code ADD_NO_WRAP},
 *                         {@code MUL_NO_WRAP}) instead of Java's wrap-around; false for the code the
 *                         setting {@code boundsChecks=false} asks for
 * @param reduceReset      TornadoVM's reductions: each {@code @Reduce} element a kernel updates is set to its
 *                         operator's neutral element (0, 1, +∞, −∞; the type's MAX/MIN for integers) in the
 *                         prologue launch, so every execution starts afresh instead of from the array's value
 *                         (the setting {@code reduceReset})
 * @param privateCapacity  the elements declared for each private array sized at launch ({@code new float[n]},
 *                         n known at launch): Java's length is n, checked against it; the runtime picks a
 *                         capacity of at least every such n for a launch ({@code spi.Variants})
 *
 * <p>The language {@code "jvm"} (the {@code jvm-mt} device: JVM bytecode run on the machine's cores)
 * is {@link #chunked()}: its work-items are contiguous chunks of the {@code @Parallel} range.
 */
public record Target(String language, String variant, boolean fp64, boolean fp16, boolean int64Atomics,
    long localMemoryBytes, int maxWorkGroupSize, boolean fastMath, Set<Intrinsic> natives, boolean cpu, boolean boundsChecks, int lanes, int rows,
    boolean signedIndices, boolean reduceReset, int privateCapacity) {

  public Target {
    natives = natives == null ? null : Set.copyOf(natives);
    if (lanes < 1 || Integer.bitCount(lanes) != 1 || rows < 1 || Integer.bitCount(rows) != 1)
      throw new IllegalArgumentException("lanes and rows must be powers of two, not " + lanes + " and " + rows);
    if (privateCapacity < 1 || privateCapacity > MAX_PRIVATE)
      throw new IllegalArgumentException("a private array's capacity is 1 to " + MAX_PRIVATE + ", not " + privateCapacity);
  }

  /** The capacity of private arrays sized at launch unless a launch asks for more ({@link #withPrivateCapacity}): a GPU reserves it for every thread. */
  public static final int PRIVATE_CAPACITY = 16;
  /** The most elements a kernel's private array may have (its constant size, or its capacity when sized at launch). */
  public static final int MAX_PRIVATE = 16384;

  /**
   * The target of {@code language} with every capability, named one by one with the {@code with…}
   * methods: doubles, halves and 64-bit atomics allowed, 48 KiB of local memory and work-groups of up
   * to 1,024, strict float semantics, every intrinsic native, a GPU-shaped kernel, one iteration per
   * work-item, reductions as Java's, and indices checked by the generated code (JVM bytecode, the
   * language {@code "jvm"}, gets Java's own checks).
   */
  public static Target of(String language) {
    return new Target(language, "", true, true, true, 48 * 1024, 1024, false, null, false, !language.equals("jvm"), 1, 1, false, false,
        PRIVATE_CAPACITY);
  }

  /** This target for the sub-target {@code variant} ({@code "sm_90"}, a SPIR-V version), or none (empty). */
  public Target withVariant(String variant) {
    return edit(t -> t.variant = variant);
  }

  /** This target with doubles allowed, or not. */
  public Target withFp64(boolean on) {
    return edit(t -> t.fp64 = on);
  }

  /** This target with half arithmetic allowed, or not (half storage always is). */
  public Target withFp16(boolean on) {
    return edit(t -> t.fp16 = on);
  }

  /** This target with 64-bit atomic add allowed, or not. */
  public Target withInt64Atomics(boolean on) {
    return edit(t -> t.int64Atomics = on);
  }

  /** This target with work-groups of at most {@code size} work-items. */
  public Target withMaxWorkGroupSize(int size) {
    return edit(t -> t.maxWorkGroupSize = size);
  }

  /** This target with relaxed float semantics, or Java's strict ones. */
  public Target withFastMath(boolean on) {
    return edit(t -> t.fastMath = on);
  }

  /** This target whose language computes exactly {@code natives} itself (null: every intrinsic). */
  public Target withNatives(Set<Intrinsic> natives) {
    return edit(t -> t.natives = natives);
  }

  /** This target for a CPU device (kernels shaped for its work-group vectoriser), or a GPU. */
  public Target withCpu(boolean on) {
    return edit(t -> t.cpu = on);
  }

  /** This target with bounds checks on or off (on: no signed indices). */
  public Target withBoundsChecks(boolean on) {
    return edit(t -> {
      t.boundsChecks = on;
      if (on) t.signedIndices = false;
    });
  }

  /** This target with {@code bytes} of local memory per work-group for the arrays a kernel declares with a constant size. */
  public Target withLocalMemoryBytes(long bytes) {
    return edit(t -> t.localMemoryBytes = bytes);
  }

  /** This target with {@code lanes} iterations of the innermost {@code @Parallel} dimension per work-item, times {@code rows} of the next. */
  public Target withLanes(int lanes, int rows) {
    return edit(t -> {
      t.lanes = lanes;
      t.rows = rows;
    });
  }

  /** This target (without bounds checks) with the indices the launch proves written as signed arithmetic, or not. */
  public Target withSignedIndices(boolean on) {
    return edit(t -> t.signedIndices = on && !t.boundsChecks);
  }

  /** This target with {@code @Reduce} elements reset to their neutral element in the prologue launch (TornadoVM's reductions), or not. */
  public Target withReduceReset(boolean on) {
    return edit(t -> t.reduceReset = on);
  }

  /**
   * This target with {@code capacity} elements declared for each private array sized at launch
   * ({@code new float[n]} with n known at launch): the runtime asks for the next power of two of the
   * largest n where the default ({@link #PRIVATE_CAPACITY}) is too small.
   */
  public Target withPrivateCapacity(int capacity) {
    return edit(t -> t.privateCapacity = capacity);
  }

  /** A target's fields, changed by one {@code with…} method. */
  private static final class Fields {
    String language, variant;
    boolean fp64, fp16, int64Atomics, fastMath, cpu, boundsChecks, signedIndices, reduceReset;
    long localMemoryBytes;
    int maxWorkGroupSize, lanes, rows, privateCapacity;
    Set<Intrinsic> natives;
  }

  private Target edit(java.util.function.Consumer<Fields> change) {
    Fields f = new Fields();
    f.language = language;
    f.variant = variant;
    f.fp64 = fp64;
    f.fp16 = fp16;
    f.int64Atomics = int64Atomics;
    f.localMemoryBytes = localMemoryBytes;
    f.maxWorkGroupSize = maxWorkGroupSize;
    f.fastMath = fastMath;
    f.natives = natives;
    f.cpu = cpu;
    f.boundsChecks = boundsChecks;
    f.lanes = lanes;
    f.rows = rows;
    f.signedIndices = signedIndices;
    f.reduceReset = reduceReset;
    f.privateCapacity = privateCapacity;
    change.accept(f);
    return new Target(f.language, f.variant, f.fp64, f.fp16, f.int64Atomics, f.localMemoryBytes, f.maxWorkGroupSize, f.fastMath, f.natives, f.cpu,
        f.boundsChecks, f.lanes, f.rows, f.signedIndices, f.reduceReset, f.privateCapacity);
  }

  /** A target with every capability, for dumping code with no device (strict float semantics): {@link #of} for a variant. */
  public static Target offline(String language, String variant) {
    return of(language).withVariant(variant);
  }

  /** An offline target whose language has exact instructions for {@code natives} only (null: all). */
  public static Target offline(String language, String variant, Set<Intrinsic> natives, boolean fastMath) {
    return of(language).withVariant(variant).withNatives(natives).withFastMath(fastMath);
  }

  /**
   * Whether a work-item runs a contiguous chunk of the {@code @Parallel} range as plain loops (the
   * {@code jvm} language: a task per chunk on a core) rather than one iteration: the {@code chunk}
   * pass makes the loops, and {@code reduce} combines a chunk's partial result once, with no tree.
   */
  public boolean chunked() {
    return language.equals("jvm");
  }

  /**
   * Whether this language's drivers run a barrier under a condition that is the same for the whole
   * work-group (inside an {@code if}, after an early {@code return}) as OpenCL says. PoCL 3.1, which
   * builds OpenCL C and SPIR-V here, does not, so for those the {@code barriers} pass
   * ({@link FlatBarriers}) moves every such barrier to the top of the kernel or of a loop.
   */
  public boolean conditionalBarriers() {
    return !language.equals("opencl") && !language.equals("spirv");
  }

  /** Whether the target computes {@code op} itself. */
  public boolean isNative(Intrinsic op) {
    return natives == null || natives.contains(op);
  }
}
