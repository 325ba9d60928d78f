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
 */
public record KernelIR(String name, Src source, List<Param> params, Stmt.Block body, Launch launch, List<KernelArg> args) {
  public KernelIR {
    params = List.copyOf(params);
    args = List.copyOf(args);
  }

  /**
   * How a Java parameter enters the kernel.
   *
   * @param reduce the parameter is marked {@code @Reduce} (the output of a reduction)
   */
  public record Param(int index, Var var, Kind kind, boolean reduce) {
    public enum Kind { SCALAR, ARRAY, CONTEXT }

    /** A parameter that is not a reduction's output. */
    public Param(int index, Var var, Kind kind) {
      this(index, var, kind, false);
    }
  }

  public KernelIR withBody(Stmt.Block body) {
    return new KernelIR(name, source, params, body, launch, args);
  }

  public KernelIR withLaunch(Launch launch, Stmt.Block body) {
    return new KernelIR(name, source, params, body, launch, args);
  }

  public KernelIR withArgs(List<KernelArg> args, Stmt.Block body) {
    return new KernelIR(name, source, params, body, launch, args);
  }
}
