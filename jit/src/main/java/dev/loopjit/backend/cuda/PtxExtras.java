// PTX for the warp shuffle (KernelContext's SIMD groups) and for Debug.printf (vprintf with its argument buffer).
package dev.loopjit.backend.cuda;

import dev.loopjit.backend.cuda.PtxCode.Reg;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Call;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.PrintFormat;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Two calls PTX makes differently from arithmetic. {@code SIMD_SHUFFLE(value, lane, members)} is
 * {@code shfl.sync.idx.b32} over the warp's member lanes (64-bit values as two 32-bit halves);
 * the lane is within the warp already (the compiler brought it there), so the clamp is 31.
 * {@code PRINTF} is a call of CUDA's {@code vprintf(format, args)}: the format a {@code .global}
 * byte array (module scope), the values packed into a {@code .local} buffer as C passes varargs
 * (int 4 bytes; long and double 8, aligned to 8; float promoted to double; booleans, bytes, shorts
 * and chars as ints).
 */
final class PtxExtras {
  private final PtxExpressions exprs;
  private final PtxCode code;
  private int formats;

  PtxExtras(PtxExpressions exprs) {
    this.exprs = exprs;
    this.code = exprs.code;
  }

  /** {@code shfl.sync.idx} of the value from lane {@code lane}, among {@code members}. */
  String shuffle(Call c) {
    Expr value = c.args().get(0);
    Reg r = Reg.of(value.type());
    String v = exprs.eval(value), lane = exprs.eval(c.args().get(1)), members = exprs.eval(c.args().get(2));
    String d = code.reg(r);
    switch (r) {
      case INT -> code.op("shfl.sync.idx.b32 " + d + ", " + v + ", " + lane + ", 31, " + members);
      case FLOAT -> {
        String in = code.reg(Reg.INT), out = code.reg(Reg.INT);
        code.op("mov.b32 " + in + ", " + v);
        code.op("shfl.sync.idx.b32 " + out + ", " + in + ", " + lane + ", 31, " + members);
        code.op("mov.b32 " + d + ", " + out);
      }
      case LONG, DOUBLE -> {
        String lo = code.reg(Reg.INT), hi = code.reg(Reg.INT), lo2 = code.reg(Reg.INT), hi2 = code.reg(Reg.INT);
        code.op("mov.b64 {" + lo + ", " + hi + "}, " + v);
        code.op("shfl.sync.idx.b32 " + lo2 + ", " + lo + ", " + lane + ", 31, " + members);
        code.op("shfl.sync.idx.b32 " + hi2 + ", " + hi + ", " + lane + ", 31, " + members);
        code.op("mov.b64 " + d + ", {" + lo2 + ", " + hi2 + "}");
      }
      default -> throw new IllegalStateException("SIMD shuffle of a " + value.type());
    }
    return d;
  }

  /** Stands for the argument buffer's register in the stores, which are written before the buffer is declared. */
  private static final String BUFFER = "<buffer>";

  /** {@code vprintf(format, args)}. */
  String printf(Call c) {
    List<Expr> values = PrintFormat.values(c);
    List<Prim> types = new ArrayList<>();
    for (Expr v : values) types.add(v.prim());
    String format = PrintFormat.of(c).c(types);
    byte[] bytes = (format + "\0").getBytes(StandardCharsets.UTF_8);
    String name = "loopjit_format_" + formats++;
    StringBuilder init = new StringBuilder();
    for (int i = 0; i < bytes.length; i++) init.append(i == 0 ? "" : ", ").append(bytes[i] & 0xFF);
    code.declare(".global .align 1 .b8 " + name + "[" + bytes.length + "] = {" + init + "};");
    code.declare(".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;");
    String fmtWindow = code.reg(Reg.LONG), fmt = code.reg(Reg.LONG), args = code.reg(Reg.LONG);
    code.op("mov.u64 " + fmtWindow + ", " + name);
    code.op("cvta.global.u64 " + fmt + ", " + fmtWindow);
    if (values.isEmpty()) {
      code.op("mov.u64 " + args + ", 0");
    } else {
      // Evaluate every value first (in order), then pack them.
      List<String> regs = new ArrayList<>();
      for (Expr v : values) regs.add(exprs.eval(v));
      long offset = 0;
      List<String> stores = new ArrayList<>();
      for (int i = 0; i < values.size(); i++) {
        Prim p = types.get(i);
        String reg = regs.get(i);
        switch (p) {
          case LONG -> {
            offset = (offset + 7) / 8 * 8;
            stores.add("st.local.u64 [" + BUFFER + "+" + offset + "], " + reg);
            offset += 8;
          }
          case DOUBLE, FLOAT -> {
            offset = (offset + 7) / 8 * 8;
            String dbl = reg;
            if (p == Prim.FLOAT) {
              dbl = code.reg(Reg.DOUBLE);
              code.op("cvt.f64.f32 " + dbl + ", " + reg);
            }
            stores.add("st.local.f64 [" + BUFFER + "+" + offset + "], " + dbl);
            offset += 8;
          }
          case BOOLEAN -> {
            String b = code.reg(Reg.INT);
            code.op("selp.s32 " + b + ", 1, 0, " + reg);
            stores.add("st.local.s32 [" + BUFFER + "+" + offset + "], " + b);
            offset += 4;
          }
          default -> {
            stores.add("st.local.s32 [" + BUFFER + "+" + offset + "], " + reg);
            offset += 4;
          }
        }
      }
      String buffer = code.array(".local", "printf", offset), window = code.reg(Reg.LONG);
      code.op("mov.u64 " + window + ", " + buffer);
      for (String s : stores) code.op(s.replace(BUFFER, window));
      code.op("cvta.local.u64 " + args + ", " + window);
    }
    int n = formats - 1;
    code.line("\t{");
    code.op(".param .b64 printf_format_" + n);
    code.op("st.param.b64 [printf_format_" + n + "+0], " + fmt);
    code.op(".param .b64 printf_args_" + n);
    code.op("st.param.b64 [printf_args_" + n + "+0], " + args);
    code.op(".param .b32 printf_result_" + n);
    code.op("call.uni (printf_result_" + n + "), vprintf, (printf_format_" + n + ", printf_args_" + n + ")");
    code.line("\t}");
    return null;
  }
}
