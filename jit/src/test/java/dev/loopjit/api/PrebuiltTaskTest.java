// prebuiltTask: hand-written OpenCL C and PTX run in a task graph on their devices, and are refused where they cannot run.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class PrebuiltTaskTest {
  private static final int N = 1000;

  static final PrebuiltKernel OPENCL = PrebuiltKernel.opencl("scale", """
      __kernel void scale(__global float* x, float a, int n) {
        int i = get_global_id(0);
        if (i < n) x[i] = a * x[i];
      }
      """, Access.READ_WRITE, Access.NONE, Access.NONE);

  static final PrebuiltKernel PTX = PrebuiltKernel.ptx("scale", """
      .version 7.8
      .target sm_80
      .address_size 64
      .visible .entry scale(.param .u64 x, .param .f32 a, .param .u32 n) {
        .reg .pred %p<2>;
        .reg .b32 %r<6>;
        .reg .f32 %f<3>;
        .reg .b64 %rd<4>;
        ld.param.u64 %rd1, [x];
        ld.param.f32 %f1, [a];
        ld.param.u32 %r1, [n];
        mov.u32 %r2, %ctaid.x;
        mov.u32 %r3, %ntid.x;
        mov.u32 %r4, %tid.x;
        mad.lo.s32 %r5, %r2, %r3, %r4;
        setp.ge.s32 %p1, %r5, %r1;
        @%p1 bra DONE;
        cvta.to.global.u64 %rd2, %rd1;
        mul.wide.s32 %rd3, %r5, 4;
        add.s64 %rd2, %rd2, %rd3;
        ld.global.f32 %f2, [%rd2];
        mul.rn.f32 %f2, %f2, %f1;
        st.global.f32 [%rd2], %f2;
      DONE:
        ret;
      }
      """, Access.READ_WRITE, Access.NONE, Access.NONE);

  private static FloatArray ramp() {
    FloatArray x = new FloatArray(N);
    for (int i = 0; i < N; i++) x.set(i, i * 0.5f);
    return x;
  }

  private static void run(Device d, PrebuiltKernel k, FloatArray x) {
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, x).prebuiltTask("s", k, x, 3f, N)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, x);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(d).withGridScheduler(new GridScheduler("g.s", new WorkerGrid1D(N).setLocalWork(64, 1, 1))).execute();
    }
  }

  @Test
  void runsOnEveryDeviceOfItsLanguageAndIsRefusedElsewhere() {
    int ran = 0;
    for (Device d : Devices.all()) {
      PrebuiltKernel own = switch (d.backend()) {
        case "opencl" -> OPENCL;
        case "cuda" -> PTX;
        default -> null;
      };
      for (PrebuiltKernel k : new PrebuiltKernel[] {OPENCL, PTX}) {
        FloatArray x = ramp();
        if (k == own) {
          run(d, k, x);
          for (int i = 0; i < N; i++) assertEquals(3f * (i * 0.5f), x.get(i), d.id() + " at " + i);
          ran++;
        } else {
          KernelCompilationException e = assertThrows(KernelCompilationException.class, () -> run(d, k, x), d.id());
          assertTrue(e.getMessage().contains("scale"), e.getMessage());
          assertEquals(0.5f * 7, x.get(7), "host array unchanged on " + d.id());
        }
      }
    }
    assertEquals(Devices.all().stream().filter(d -> d.backend().equals("opencl") || d.backend().equals("cuda")).count(), ran,
        "ran on every OpenCL and CUDA device");
  }

  @Test
  void argumentsMustMatchTheAccesses() {
    FloatArray x = ramp();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").prebuiltTask("s", OPENCL, x, 3f));
    assertTrue(e.getMessage().contains("2 argument(s) for 3 access(es)"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").prebuiltTask("s", OPENCL, x, "three", N));
    assertTrue(e.getMessage().contains("argument 1") && e.getMessage().contains("String"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").prebuiltTask("s",
        PrebuiltKernel.opencl("scale", "", Access.READ_WRITE, Access.READ, Access.NONE), x, 3f, N));
    assertTrue(e.getMessage().contains("must be NONE"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> PrebuiltKernel.opencl("not an identifier", ""));
  }

  /** TornadoVM's form: the kernel in a file (its language from the ending), the arguments from AccessorParameters, the atomics last. */
  @Test
  void aKernelFileWithAccessorParametersRunsOnItsDevices(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path cl = dir.resolve("scale.cl"), ptx = dir.resolve("scale.ptx");
    java.nio.file.Files.writeString(cl, """
        __kernel void scale(__global float* x, float a, int n, __global int* atomics) {
          int i = get_global_id(0);
          if (i < n) x[i] = a * x[i] + atomics[0];
        }
        """);
    java.nio.file.Files.writeString(ptx, PTX.code());
    int ran = 0;
    for (Device d : Devices.all()) {
      if (!d.backend().equals("opencl") && !d.backend().equals("cuda")) continue;
      boolean opencl = d.backend().equals("opencl");
      FloatArray x = ramp();
      AccessorParameters accessors = new AccessorParameters(3);
      accessors.set(0, x, Access.READ_WRITE);
      accessors.set(1, 3f, Access.NONE);
      accessors.set(2, N, Access.NONE);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, x);
      g = opencl ? g.prebuiltTask("s", "scale", cl.toString(), accessors, new int[] {100})
          : g.prebuiltTask("s", "scale", ptx.toString(), accessors);
      try (ExecutionPlan plan = new ExecutionPlan(g.transferToHost(DataTransferMode.EVERY_EXECUTION, x).snapshot())) {
        plan.withDevice(d).withGridScheduler(new GridScheduler("g.s", new WorkerGrid1D(N))).execute();
      }
      for (int i = 0; i < N; i++) assertEquals(3f * (i * 0.5f) + (opencl ? 100 : 0), x.get(i), d.id() + " at " + i);
      ran++;
    }
    assertTrue(ran > 0, "an OpenCL or CUDA device ran the file");
    AccessorParameters unset = new AccessorParameters(2);
    unset.set(0, ramp(), Access.READ_WRITE);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").prebuiltTask("s", "scale", cl.toString(), unset));
    assertTrue(e.getMessage().contains("accessor 1 of 2 was not set"), e.getMessage());
    AccessorParameters one = new AccessorParameters(1);
    one.set(0, ramp(), Access.READ_WRITE);
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").prebuiltTask("s", "scale", dir.resolve("missing.cl").toString(), one));
    assertTrue(e.getMessage().contains("missing.cl cannot be read"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").prebuiltTask("s", "scale", dir.resolve("scale.spv").toString(), one));
    assertTrue(e.getMessage().contains("OpenCL C (.cl) and PTX (.ptx)"), e.getMessage());
  }
}
