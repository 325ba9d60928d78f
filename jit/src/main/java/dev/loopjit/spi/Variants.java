// Every variant of a task's kernel on one device, lowered once when the plan is prepared, and the one a launch's arguments take.
package dev.loopjit.spi;

import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Target;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The variants a task's kernel can need on one device, each a {@link Target} and its lowered
 * kernel, made once when the plan prepares the task, and the choice among them for a task's
 * arguments ({@link #choose}). From the device's target (its code checks every array index):
 * <ul>
 * <li>{@code unchecked}: no index checks, where the host proves every checked access within its
 *     array for the arguments ({@link KernelFacts#mayFail}); the common kernel then runs exactly the
 *     unchecked code;
 * <li>{@code signed}: unchecked, with the indices the host proves written as plain signed
 *     arithmetic ({@link KernelIR#assumedSites}), where the proof holds for the arguments;
 * <li>{@code lanes L × R}: on CPU devices, unchecked, {@code L} iterations of x and {@code R} of y
 *     per work-item (the {@code coarsen} pass picks the block its kernel's shape wants), where the trip
 *     counts are multiples of the block; {@code lanes L} alone where only x is; {@code rows R} alone
 *     (one iteration of x, R of y jammed) where x fits no lanes but y is a multiple of R.
 * <li>{@code capacity C}: for a kernel that makes arrays with a size known at launch
 *     ({@code new float[n]}), the room reserved for each, the next power of two of the largest n (at
 *     least 16), so another size within it reuses the kernel.
 * </ul>
 * A task whose arguments may change between executions (it reads fields of its object, or static
 * fields) has the checked variant only. Which variants exist depends on the kernel, never on the
 * arguments (but for the capacity, which a launch whose arrays outgrow it asks for anew), so a device
 * that builds them all when the plan is prepared ({@code ExecutionPlan.withPreCompilation()}) builds
 * nothing for a later size. The choice lowers only
 * the variants it reads (a cold start pays for no other); the whole list is lowered the first time it
 * is asked for ({@link #all()}: pre-compilation, the profile).
 */
public final class Variants {
  /** One variant: a name for the profile ({@code "checked"}, {@code "signed, lanes 16 × 8"}), its target and its lowered kernel. */
  public record Variant(String name, Target target, KernelIR ir) {}

  /** The most rows of y a work-item computes with lanes (the pass uses 4 or 8: docs/performance-log.md). */
  static final int ROWS = 8;

  private final MethodRef method;
  private final Target base;
  private final Options options;
  private final boolean fixed;
  /** Every target lowered so far, in the order first lowered (the base first). */
  private final Map<Target, KernelIR> lowered = new LinkedHashMap<>();
  /** The variants by target, made once: the same object whether the choice or the list made it first. */
  private final Map<Target, Variant> made = new LinkedHashMap<>();
  /** Every variant, once listed; null before. */
  private List<Variant> all;

  private Variants(MethodRef method, Target base, Options options, boolean fixed) {
    this.method = method;
    this.base = base;
    this.options = options;
    this.fixed = fixed;
  }

  /**
   * The variants of {@code task}'s kernel from the device's target {@code base}: for a prebuilt
   * kernel, or a task whose arguments may change, {@code base} alone.
   */
  public static Variants of(TaskSpec task, Target base, Options options) {
    return new Variants(task.method(), base, options, task.method() != null && task.fixedArguments());
  }

  /** Every variant, the device's own target first (lowered the first time it is asked for). */
  public synchronized List<Variant> all() {
    if (all == null) all = List.copyOf(enumerate());
    return all;
  }

  /** The variant a launch with {@code args} (the task's arguments) takes. */
  public synchronized Variant choose(Object[] args) {
    return variant(signedWhereProven(args, inLanesWhereSafe(args, uncheckedWhereSafe(args, withCapacityFor(args, base)))));
  }

  /**
   * {@code target} with a private capacity that holds every private array sized at launch
   * ({@link KernelIR#launchSizes()}) for these arguments: the next power of two of the largest, at
   * least {@link Target#PRIVATE_CAPACITY} (a GPU reserves it for every thread); a size that cannot be is
   * refused before anything runs ({@link LaunchValues#largestPrivateArray}).
   */
  private Target withCapacityFor(Object[] args, Target target) {
    if (method == null) return target;
    KernelIR k = lower(target);
    if (k.launchSizes().isEmpty()) return target;
    long most = LaunchValues.largestPrivateArray(k, args, method.display());
    if (target.chunked()) return target;   // JVM bytecode makes each at its own length: no capacity to choose
    int capacity = most <= Target.PRIVATE_CAPACITY ? Target.PRIVATE_CAPACITY : Integer.highestOneBit((int) most - 1) << 1;
    return capacity == target.privateCapacity() ? target : target.withPrivateCapacity(capacity);
  }

  /** Which variant {@code v} is and how many there are, for the profile: {@code "unchecked, lanes 16 × 4 (4 of 6)"}; empty for a kernel with one. */
  public String describe(Variant v) {
    List<Variant> every = all();
    return every.size() == 1 ? "" : v.name() + " (" + (every.indexOf(v) + 1) + " of " + every.size() + ")";
  }

  private Variant variant(Target t) {
    return made.computeIfAbsent(t, x -> new Variant(name(x), x, method == null ? null : lower(x)));
  }

  /**
   * The lowered kernel a launch's work is counted from, one iteration per work-item: the unchecked
   * variant where there is one, else the device's own; where a work-item runs a chunk of the range (the
   * {@code jvm} language), the kernel lowered once for the compiler's reference target (OpenCL C);
   * null for a prebuilt kernel. Lowered the first time it is asked for (a profiled launch).
   */
  public synchronized KernelIR workIr() {
    if (method == null) return null;
    if (work == null)
      work = base.chunked() ? lower(Target.offline("opencl", "").withBoundsChecks(false))
          : fixed && base.boundsChecks() && !lower(base).boundsSites().isEmpty() ? lower(uncheckedOf(base)) : lower(base);
    return work;
  }

  private KernelIR work;

  /** Every variant the choice can return, lowering each target once. */
  private List<Variant> enumerate() {
    List<Variant> out = new ArrayList<>();
    if (method == null) {
      out.add(variant(base));
      return out;
    }
    List<Target> reachable = new ArrayList<>();
    reachable.add(base);
    Target unchecked = base.boundsChecks() ? (fixed && !lower(base).boundsSites().isEmpty() ? uncheckedOf(base) : null) : base;
    if (unchecked != null && unchecked != base) reachable.add(unchecked);
    if (unchecked != null && lanesApply(unchecked)) {
      for (int rows : new int[] {ROWS, 1}) {
        Target t = unchecked.withLanes(options.lanes(), rows);
        if (!(lower(t).launch() instanceof Launch.Loops l) || l.lanes() == 1) break;
        reachable.add(t);
        if (l.rows() == 1) break;   // the pass took x alone: no row block to fall back from
      }
      Target rowsAlone = unchecked.withLanes(1, ROWS);
      if (lower(rowsAlone).launch() instanceof Launch.Loops l && l.rows() > 1) reachable.add(rowsAlone);
    }
    for (Target t : reachable) {
      if (!t.signedIndices()) add(out, t);
      else {
        if (!lower(t).assumedSites().isEmpty()) add(out, t);
        add(out, t.withSignedIndices(false));
      }
    }
    return out;
  }

  private void add(List<Variant> out, Target t) {
    Variant v = variant(t);
    if (!out.contains(v)) out.add(v);
  }

  private KernelIR lower(Target t) {
    return lowered.computeIfAbsent(t, x -> dev.loopjit.compiler.Compiler.compile(method, x, options.dump(), options.flag("verifyIr")));
  }

  private Target uncheckedOf(Target t) {
    return t.withBoundsChecks(false).withSignedIndices(options.signedIndices());
  }

  private boolean lanesApply(Target t) {
    return options.lanes() > 1 && t.cpu() && !t.chunked() && !t.boundsChecks() && fixed;
  }

  /**
   * {@code target}, or the same without bounds checks when no checked access of the task's kernel
   * can fail with these arguments (when they never change): each is below a trip count no larger
   * than its array, as vector add's {@code a[i]} and {@code b[i]} for {@code i < c.length}.
   */
  private Target uncheckedWhereSafe(Object[] args, Target target) {
    if (method == null || !target.boundsChecks() || !fixed) return target;
    KernelIR checked = lower(target);
    return checked.boundsSites().isEmpty() || KernelFacts.mayFail(checked, args) ? target : uncheckedOf(target);
  }

  /**
   * {@code target}, or the same with lanes (and rows) per work-item on a CPU device, when its kernel
   * checks no access and its trip counts are multiples of the block the pass picked; where y is not
   * a multiple of its rows, x alone is tried; one that fits no block keeps one iteration per work-item.
   */
  private Target inLanesWhereSafe(Object[] args, Target target) {
    if (method == null || !lanesApply(target)) return target;
    for (int rows : new int[] {ROWS, 1}) {
      Target t = target.withLanes(options.lanes(), rows);
      KernelIR k = lower(t);
      if (!(k.launch() instanceof Launch.Loops l) || l.lanes() == 1) break;   // the kernel's shape takes no lanes
      long[] counts = KernelFacts.loopCounts(k, args);
      if (counts[0] == 0 || counts[0] % l.lanes() != 0) break;
      if (l.rows() == 1 || counts[1] > 0 && counts[1] % l.rows() == 0) return t;
    }
    // x fits no lanes (a dense layer's 10 outputs): rows of y alone, where the kernel has rows and y is a multiple of them
    Target t = target.withLanes(1, ROWS);
    KernelIR k = lower(t);
    if (!(k.launch() instanceof Launch.Loops l) || l.rows() == 1) return target;
    long[] counts = KernelFacts.loopCounts(k, args);
    return counts[0] > 0 && counts.length > 1 && counts[1] > 0 && counts[1] % l.rows() == 0 ? t : target;
  }

  /**
   * {@code target}, or the same without signed indices where its kernel wrote none or the host
   * cannot prove the bounds it assumed for them ({@link KernelIR#assumedSites}) for these arguments.
   */
  private Target signedWhereProven(Object[] args, Target target) {
    if (method == null || !target.signedIndices()) return target;
    KernelIR k = lower(target);
    return k.assumedSites().isEmpty() || KernelFacts.mayFail(k, k.assumedSites(), args) ? target.withSignedIndices(false) : target;
  }

  /** A variant's name in the profile. */
  private String name(Target t) {
    List<String> parts = new ArrayList<>();
    parts.add(t.boundsChecks() ? "checked" : "unchecked");
    if (t.signedIndices()) parts.add("signed");
    if (t.lanes() > 1 || t.rows() > 1) {
      KernelIR k = method == null ? null : lower(t);
      if (k != null && k.launch() instanceof Launch.Loops l)
        parts.add(l.lanes() == 1 ? "rows " + l.rows() : "lanes " + l.lanes() + (l.rows() > 1 ? " × " + l.rows() : ""));
    }
    return String.join(", ", parts);
  }

  @Override
  public String toString() {
    List<Variant> every = all();
    return every.size() + " variant" + (every.size() == 1 ? "" : "s") + " " + every.stream().map(Variant::name).toList();
  }
}
