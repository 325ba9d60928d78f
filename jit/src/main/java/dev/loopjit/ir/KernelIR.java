// A kernel in the IR: parameters, body, and (after lowering) launch shape and device argument list.
package dev.loopjit.ir;

import java.util.List;

/**
 * One method in the IR. The parser fills {@code name}, {@code params} and {@code body}; the
 * {@code parallel} pass sets {@code launch}; the last pass, {@code arguments}, fixes {@code args},
 * the argument list every emitter and runtime follow.
 *
 * @param name   a C identifier for the entry point
 * @param source {@code Kernels.saxpy}, for comments and messages
 * @param params the Java parameters in order
 * @param body   the body
 * @param launch how the kernel is launched (null before the {@code parallel} pass)
 * @param args   the device kernel's arguments in order (empty before the {@code arguments} pass)
 * @param boundsSites the array accesses the {@code bounds} pass guarded, by id from 1; when there are
 *               any, the last parameter is the hidden report array they write to ({@link #boundsReport()})
 * @param assumedSites the unguarded accesses whose index arithmetic the {@code bounds} pass wrote as signed
 *               (no wrap-around), each with the upper bound the runtime must prove for the task's
 *               arguments before it runs this kernel ({@code spi.KernelFacts#mayFail}); empty unless
 *               the target asked for it ({@code Target.signedIndices})
 * @param loops  what the front end learned of the loops, until the {@code parallel} pass reads it ({@link LoopFacts})
 * @param temps  the compiler's temporaries (values the operand stack held, made by the front end and {@code inline}),
 *               which {@code simplify} may forward into their one use and {@code reduce} may see through
 * @param launchSizes the lengths of the private arrays sized at launch ({@code new float[n]}), as the host
 *               computes them from the task's arguments ({@code launchSized} pass): each must be at least 0
 *               and at most the target's {@code privateCapacity} for this kernel to run
 */
public record KernelIR(String name, Src source, List<Param> params, Stmt.Block body, Launch launch, List<KernelArg> args,
    List<BoundsSite> boundsSites, List<BoundsSite> assumedSites, LoopFacts loops, java.util.Set<Var> temps, List<Expr> launchSizes) {
  public KernelIR {
    launchSizes = launchSizes == null ? List.of() : List.copyOf(launchSizes);
    params = List.copyOf(params);
    args = List.copyOf(args);
    boundsSites = List.copyOf(boundsSites);
    assumedSites = List.copyOf(assumedSites);
    loops = loops == null ? LoopFacts.NONE : loops;
    temps = temps == null ? java.util.Set.of() : java.util.Set.copyOf(temps);
  }

  /** A kernel with no loop facts (after the {@code parallel} pass, or written by hand). */
  public KernelIR(String name, Src source, List<Param> params, Stmt.Block body, Launch launch, List<KernelArg> args,
      List<BoundsSite> boundsSites, List<BoundsSite> assumedSites) {
    this(name, source, params, body, launch, args, boundsSites, assumedSites, LoopFacts.NONE, java.util.Set.of(), List.of());
  }

  /** A kernel with no guarded array access. */
  public KernelIR(String name, Src source, List<Param> params, Stmt.Block body, Launch launch, List<KernelArg> args) {
    this(name, source, params, body, launch, args, List.of(), List.of());
  }

  /**
   * The hidden parameter the {@code bounds} pass added (a {@code long[1]} the runtime zeroes before
   * and reads after a launch; it follows the Java parameters), or null when every access is proven.
   */
  public Param boundsReport() {
    return boundsSites.isEmpty() ? null : params.get(params.size() - 1);
  }

  /**
   * How a Java parameter enters the kernel. A {@code CONTEXT} (the KernelContext) and a {@code VALUE}
   * (a vector or HalfFloat, e.g. a Float4, or an object of the program's own classes) have no
   * variable: a value is passed as its fields, SCALAR parameters after the Java parameters and the
   * fields the kernel reads; an object as the fields the kernel reads through it, after those.
   *
   * @param reduce the parameter is marked {@code @Reduce} (the output of a reduction)
   */
  public record Param(int index, Var var, Kind kind, boolean reduce) {
    public enum Kind { SCALAR, ARRAY, CONTEXT, VALUE }

    /** A parameter that is not a reduction's output. */
    public Param(int index, Var var, Kind kind) {
      this(index, var, kind, false);
    }
  }

  /** This kernel with {@code temps} as its compiler temporaries. */
  public KernelIR withTemps(java.util.Set<Var> temps) {
    return new KernelIR(name, source, params, body, launch, args, boundsSites, assumedSites, loops, temps, launchSizes);
  }

  /** This kernel with {@code loops} as its loop facts. */
  public KernelIR withLoops(LoopFacts loops) {
    return new KernelIR(name, source, params, body, launch, args, boundsSites, assumedSites, loops, temps, launchSizes);
  }

  public KernelIR withBody(Stmt.Block body) {
    return new KernelIR(name, source, params, body, launch, args, boundsSites, assumedSites, loops, temps, launchSizes);
  }

  public KernelIR withLaunch(Launch launch, Stmt.Block body) {
    return new KernelIR(name, source, params, body, launch, args, boundsSites, assumedSites, loops, temps, launchSizes);
  }

  public KernelIR withArgs(List<KernelArg> args, Stmt.Block body) {
    return new KernelIR(name, source, params, body, launch, args, boundsSites, assumedSites, loops, temps, launchSizes);
  }

  /** This kernel with the {@code bounds} pass's guards: {@code report} appended to the parameters. */
  public KernelIR withBoundsChecks(Param report, List<BoundsSite> sites, Stmt.Block body) {
    List<Param> all = new java.util.ArrayList<>(params);
    all.add(report);
    return new KernelIR(name, source, all, body, launch, args, sites, assumedSites, loops, temps, launchSizes);
  }

  /** This kernel with indices written as signed arithmetic where the launch must prove {@code sites} ({@link #assumedSites}). */
  /** This kernel with its private arrays sized at launch given a capacity: their lengths as the host computes them, and its sites naming them. */
  public KernelIR withLaunchSizes(List<Expr> sizes, List<BoundsSite> sites, Stmt.Block body) {
    return new KernelIR(name, source, params, body, launch, args, sites, assumedSites, loops, temps, sizes);
  }

  public KernelIR withAssumedSites(List<BoundsSite> sites, Stmt.Block body) {
    return new KernelIR(name, source, params, body, launch, args, boundsSites, sites, loops, temps, launchSizes);
  }
}
