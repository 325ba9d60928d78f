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
   * What passes share besides the IR: the method, the target and the kernel's name supply. The loop
   * facts are the IR's ({@link KernelIR#loops()}): a pass that reads them takes a context
   * {@link #withLoops with} them, never writes them here.
   */
  final class Context {
    final MethodRef method;
    final Target target;
    final Names names;
    final Map<Label, List<Var>> parallelLoops;
    final Map<Label, Src> loopSrc;
    final Map<Var, Src> annotated;

    Context(MethodRef method, Target target, Names names) {
      this(method, target, names, dev.loopjit.ir.LoopFacts.NONE);
    }

    private Context(MethodRef method, Target target, Names names, dev.loopjit.ir.LoopFacts loops) {
      this.method = method;
      this.target = target;
      this.names = names;
      this.parallelLoops = loops.parallelVars();
      this.loopSrc = loops.loopSrc();
      this.annotated = loops.annotated();
    }

    /** This context reading {@code loops} (a kernel's {@link KernelIR#loops()}). */
    Context withLoops(dev.loopjit.ir.LoopFacts loops) {
      return new Context(method, target, names, loops);
    }
  }
}
