// PtxEmitter on hand-built lowered kernels: every one assembles with ptxas for sm_80 and sm_90.
package dev.loopjit.backend.cuda;

import static dev.loopjit.backend.cuda.Ir.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.loopjit.compiler.Target;
import dev.loopjit.ir.*;
import dev.loopjit.ir.Op.Binary;
import dev.loopjit.ir.Op.Compare;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class PtxEmitterTest {
  static final Target SM90 = Target.offline("ptx", "sm_90");

  static String assembled(KernelIR k) {
    String ptx = PtxEmitter.emit(k, SM90);
    Assumptions.assumeTrue(Ptxas.present(), "ptxas is not installed");
    for (String sm : List.of("sm_80", "sm_90")) {
      String text = sm.equals("sm_90") ? ptx : PtxEmitter.emit(k, new Target("ptx", sm, true, true, true, 48 * 1024, 1024, false, false));
      Ptxas.Result r = Ptxas.assemble(text, sm);
      assertTrue(r.ok(), () -> sm + ": " + r.output() + "\n" + text);
    }
    return ptx;
  }

  @Test
  void saxpy() {
    Var a = var("a", Prim.FLOAT), x = global("x", Prim.FLOAT), y = global("y", Prim.FLOAT), i = var("i", Prim.INT), n = var("n", Prim.INT);
    KernelIR k = kernel("saxpy", args(a, x, y, n),
        set(i, call(Intrinsic.GLOBAL_ID, Prim.INT, c(0))),
        when(cmp(Compare.LT, read(i), read(n)), block(
            store(y, read(i), bin(Binary.ADD, bin(Binary.MUL, read(a), load(x, read(i))), load(y, read(i)))))));
    System.out.println(assembled(k));
  }
}
