// A prebuilt task as device code: the hand-written text, with an IR that only says how to bind its arguments.
package dev.loopjit.spi;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.PrebuiltKernel;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link DeviceCode} of a {@link PrebuiltKernel}: its code as written, and a body-less IR
 * whose parameters and arguments are the task's arguments in order (an array's buffer, a value),
 * launched on the plan's grid, with the accesses the kernel declared.
 */
public final class Prebuilt {
  private Prebuilt() {}

  /** The code of a prebuilt {@code task} for a device whose recipe speaks {@code language}. */
  public static DeviceCode code(TaskSpec task, Recipe recipe, String device) {
    PrebuiltKernel k = task.prebuilt();
    if (!k.language().equals(recipe.language()))
      throw new KernelCompilationException("(prebuilt)", k.entryPoint(), -1, "prebuilt " + k.language(), "task \"" + task.qualifiedName()
          + "\": " + task.display() + " cannot run on " + device + ", which runs " + recipe.displayName());
    List<KernelIR.Param> params = new ArrayList<>();
    List<KernelArg> args = new ArrayList<>();
    List<DeviceKernel.Access> accesses = new ArrayList<>();
    for (int i = 0; i < task.args().size(); i++) {
      Object a = task.args().get(i);
      HostArray h = HostArray.of(a);
      Var v = new Var("arg" + i, h != null ? ArrayType.global(h.element()) : prim(a));
      params.add(new KernelIR.Param(i, v, h != null ? KernelIR.Param.Kind.ARRAY : KernelIR.Param.Kind.SCALAR));
      args.add(h != null ? new KernelArg.Array(i, v) : new KernelArg.Scalar(i, v));
      accesses.add(switch (k.accesses().get(i)) {
        case READ, READ_ONLY -> DeviceKernel.Access.READ;
        case WRITE, WRITE_ONLY -> DeviceKernel.Access.WRITE;
        case READ_WRITE -> DeviceKernel.Access.READ_WRITE;
        case NONE -> DeviceKernel.Access.NONE;
      });
    }
    KernelIR ir = new KernelIR(k.entryPoint(), new Src("(prebuilt)", k.entryPoint(), -1, null), params, Stmt.Block.EMPTY,
        new Launch.Explicit(), args);
    return new DeviceCode(ir, k.language(), k.code(), null, List.copyOf(accesses));
  }

  private static Prim prim(Object a) {
    return switch (a) {
      case Boolean b -> Prim.BOOLEAN;
      case Byte b -> Prim.BYTE;
      case Short s -> Prim.SHORT;
      case Character c -> Prim.CHAR;
      case Integer x -> Prim.INT;
      case Long x -> Prim.LONG;
      case Float x -> Prim.FLOAT;
      case Double x -> Prim.DOUBLE;
      default -> throw new IllegalArgumentException("not a primitive value: " + a);
    };
  }
}
