// A lowering pass: KernelIR in, KernelIR out, with a name for -Dloopjit.dump=<name>.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Var;
import java.util.List;
import java.util.Map;

/** One named step of the lowering. */
interface Pass {
  String name();

  KernelIR run(KernelIR ir, Context cx);

  /**
   * What passes share besides the IR: the target, the kernel's name supply, what the front end
   * learned about loops, and the vars the {@code parallel} pass introduced for the trip counts.
   */
  final class Context {
    final MethodRef method;
    final Target target;
    final Names names;
    final Map<Label, List<Var>> parallelLoops;
    final Map<Label, Src> loopSrc;
    final Map<Var, Src> annotated;

    Context(MethodRef method, Target target, Names names, Map<Label, List<Var>> parallelLoops, Map<Label, Src> loopSrc,
        Map<Var, Src> annotated) {
      this.annotated = annotated;
      this.method = method;
      this.target = target;
      this.names = names;
      this.parallelLoops = parallelLoops;
      this.loopSrc = loopSrc;
    }
  }
}
