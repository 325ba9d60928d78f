// The OpenCL device runtime: builds kernels (through the program caches), allocates, copies, launches and times them on one queue.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.api.Device;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.compiler.MethodRef;
import dev.loopjit.compiler.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.runtime.DeviceBuffer;
import dev.loopjit.runtime.DeviceKernel;
import dev.loopjit.runtime.DeviceRuntime;
import dev.loopjit.runtime.Grid;
import dev.loopjit.runtime.HostArray;
import dev.loopjit.runtime.RunOptions;
import dev.loopjit.runtime.Settings;
import dev.loopjit.runtime.TaskSpec;
import dev.loopjit.runtime.Timing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One plan on one OpenCL device: its own in-order command queue with profiling and its own
 * kernels, over the device's shared {@link OpenClContext} (programs and pooled buffers outlive the
 * plan). Copies of off-heap arrays and launches are asynchronous; heap arrays are copied blocking,
 * straight from the Java array. Every command makes an event, which {@link #finish()} reads into
 * the command's {@link Timing} and releases.
 *
 * <pre>{@code
 * PlanExecutor plan = new GraphRunner(new OpenClRuntime(device));                 // the JIT
 * PlanExecutor test = new GraphRunner(new OpenClRuntime(device, handwritten));    // a KernelSource of your own
 * }</pre>
 */
public final class OpenClRuntime implements DeviceRuntime {
  private final OpenClDevice device;
  private final KernelSource source;
  private final OpenCl cl;
  private final OpenClContext context;
  private final MemorySegment queue;
  private final Map<KernelKey, OpenClKernel> kernels = new HashMap<>();
  private final List<Pending> pending = new ArrayList<>();
  private int liveEvents;
  private boolean closed;

  private record KernelKey(MethodRef method, Target target) {}

  private record Pending(MemorySegment event, EventTiming timing) {}

  /** The device time of one or more commands, filled in by {@link #finish()}. */
  private static final class EventTiming implements Timing {
    long nanos;

    @Override
    public long nanos() {
      return nanos;
    }
  }

  /** A runtime whose kernels come from the JIT ({@link KernelSource#COMPILER}). */
  public OpenClRuntime(OpenClDevice device) {
    this(device, KernelSource.COMPILER);
  }

  /** A runtime whose kernels come from {@code source}. */
  public OpenClRuntime(OpenClDevice device, KernelSource source) {
    this.device = device;
    this.source = source;
    this.cl = OpenCl.get();
    this.context = device.context();
    this.queue = context.createQueue();
  }

  @Override
  public Device device() {
    return device;
  }

  @Override
  public Prepared prepare(TaskSpec task, RunOptions options) {
    if (source == KernelSource.COMPILER) {   // a KernelSource of one's own is OpenCL C
      ProgramForm form = ProgramForm.of(device);
      if (form.isSpirv()) return prepareSpirv(task, form);
    }
    Target target = Target.of("opencl", "", device, device.int64Atomics());
    KernelKey key = new KernelKey(task.method(), target);
    OpenClKernel k = kernels.get(key);
    if (k != null) return new Prepared(k, false, 0, 0);
    long t0 = System.nanoTime();
    KernelSource.Generated g = source.generate(task, target);
    long compileNanos = System.nanoTime() - t0;
    String opts = buildOptions(target);
    MemorySegment program = context.programs().cached(g.source(), opts);
    boolean compiled = false;
    long driverNanos = 0;
    if (program == null) {
      if (Settings.dump("opencl"))
        System.out.println("// OpenCL C of " + task.method().display() + " for " + device + ", " + opts + "\n" + g.source());
      try {
        ProgramCache.Built b = context.programs().build(g.source(), opts);
        program = b.program();
        compiled = b.fromSource();
        driverNanos = b.driverNanos();
      } catch (ProgramCache.BuildFailure f) {
        throw buildError(task, g.source(), opts, f);
      }
    }
    k = createKernel(program, g.ir(), task.qualifiedName());
    kernels.put(key, k);
    return new Prepared(k, compiled, compileNanos, driverNanos);
  }

  /** The kernel from its SPIR-V module, as {@link ProgramForm} chose (see {@link SpirvKernels}). */
  private Prepared prepareSpirv(TaskSpec task, ProgramForm form) {
    Target target = SpirvKernels.target(device, form);
    KernelKey key = new KernelKey(task.method(), target);
    OpenClKernel k = kernels.get(key);
    if (k != null) return new Prepared(k, false, 0, 0);
    SpirvKernels.Built b = SpirvKernels.build(task, target, form, context);
    k = createKernel(b.program(), b.ir(), task.qualifiedName());
    kernels.put(key, k);
    return new Prepared(k, b.compiled(), b.compileNanos(), b.driverNanos());
  }

  /** Strict Java float semantics unless fast math was asked for: IEEE division and sqrt where the device has them. */
  private String buildOptions(Target target) {
    StringBuilder b = new StringBuilder("-cl-std=CL1.2");
    if (device.correctlyRoundedDivideSqrt()) b.append(" -cl-fp32-correctly-rounded-divide-sqrt");
    if (target.fastMath()) b.append(" -cl-fast-relaxed-math");
    return b.toString();
  }

  private KernelCompilationException buildError(TaskSpec task, String src, String opts, ProgramCache.BuildFailure f) {
    MethodRef m = task.method();
    StringBuilder msg = new StringBuilder(m.display()).append(": the generated OpenCL C does not build for ").append(device)
        .append(" (").append(OpenClException.name(f.code)).append(", options \"").append(opts).append("\"):\n")
        .append(f.log.isBlank() ? "(the driver gave no build log)" : f.log).append("\n--- generated OpenCL C ---\n");
    String[] lines = src.split("\n", -1);
    for (int i = 0; i < lines.length; i++) msg.append(String.format("%4d  %s%n", i + 1, lines[i]));
    return new KernelCompilationException(m.owner().getName(), m.name(), -1, "OpenCL C build", msg.toString());
  }

  private OpenClKernel createKernel(MemorySegment program, KernelIR ir, String task) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment h = cl.createKernel(program, a.allocateFrom(ir.name()), err);
      OpenCl.check(err.get(JAVA_INT, 0), "task \"" + task + "\": clCreateKernel(\"" + ir.name() + "\") on " + device);
      return new OpenClKernel(ir, h, OpenClInfo.kernelWorkGroupSize(cl, h, device.handle()), task);
    }
  }

  /**
   * In place (CL_MEM_USE_HOST_PTR on the array's own memory) when the runner allows it and the
   * device computes in host memory and the memory is aligned as the device wants; otherwise a
   * pooled device buffer (at least one byte, so that an empty array is still a valid argument).
   */
  @Override
  public DeviceBuffer allocate(HostArray host, boolean inPlace) {
    String what = host.describe();
    if (inPlace && usableInPlace(host)) {
      MemorySegment mem = context.pool().create(OpenCl.MEM_READ_WRITE | OpenCl.MEM_USE_HOST_PTR, host.byteSize(), host.segment(), what);
      return new OpenClBuffer(host, mem, host.byteSize(), true, cl, context.pool(), this::drain);
    }
    long bytes = Math.max(1, host.byteSize());
    return new OpenClBuffer(host, context.pool().take(bytes, what), bytes, false, cl, context.pool(), this::drain);
  }

  private boolean usableInPlace(HostArray h) {
    return device.sharesHostMemory() && h.offHeap() && h.byteSize() > 0
        && h.segment().address() % device.baseAddressAlignment() == 0;
  }

  /** In place: a map and unmap, which move nothing on a zero-copy device but make the contents coherent by the spec. */
  @Override
  public Timing copyIn(DeviceBuffer buffer) {
    OpenClBuffer b = (OpenClBuffer) buffer;
    HostArray h = b.host();
    long size = h.byteSize();
    if (size == 0) return Timing.NONE;
    EventTiming t = new EventTiming();
    String what = "copy of " + h.describe() + " to " + device;
    try (Arena a = Arena.ofConfined()) {
      MemorySegment ev = a.allocate(ADDRESS);
      if (b.inPlace()) {
        mapUnmap(b, OpenCl.MAP_WRITE_INVALIDATE_REGION, t, what, a);
        return t;
      } else if (h.offHeap()) {
        OpenCl.check(cl.enqueueWriteBuffer(queue, b.mem(), OpenCl.FALSE, size, h.segment(), ev), "clEnqueueWriteBuffer: " + what);
      } else if (h.segment() == null) {   // boolean[]: bytes 0/1 through native memory
        MemorySegment tmp = a.allocate(size);
        h.copyTo(tmp);
        OpenCl.check(cl.enqueueWriteBuffer(queue, b.mem(), OpenCl.TRUE, size, tmp, ev), "clEnqueueWriteBuffer: " + what);
      } else {
        drain();   // the critical call holds off the GC while it blocks: let it wait for this copy only
        OpenCl.check(cl.enqueueWriteHeap(queue, b.mem(), size, h.segment(), ev), "clEnqueueWriteBuffer: " + what);
      }
      track(ev, t);
    }
    return t;
  }

  @Override
  public Timing copyOut(DeviceBuffer buffer) {
    OpenClBuffer b = (OpenClBuffer) buffer;
    HostArray h = b.host();
    long size = h.byteSize();
    if (size == 0) return Timing.NONE;
    EventTiming t = new EventTiming();
    String what = "copy of " + h.describe() + " from " + device;
    try (Arena a = Arena.ofConfined()) {
      MemorySegment ev = a.allocate(ADDRESS);
      if (b.inPlace()) {
        mapUnmap(b, OpenCl.MAP_READ, t, what, a);
        return t;
      } else if (h.offHeap()) {
        OpenCl.check(cl.enqueueReadBuffer(queue, b.mem(), OpenCl.FALSE, size, h.segment(), ev), "clEnqueueReadBuffer: " + what);
      } else if (h.segment() == null) {
        MemorySegment tmp = a.allocate(size);
        OpenCl.check(cl.enqueueReadBuffer(queue, b.mem(), OpenCl.TRUE, size, tmp, ev), "clEnqueueReadBuffer: " + what);
        h.copyFrom(tmp);
      } else {
        drain();
        OpenCl.check(cl.enqueueReadHeap(queue, b.mem(), size, h.segment(), ev), "clEnqueueReadBuffer: " + what);
      }
      track(ev, t);
    }
    return t;
  }

  private void mapUnmap(OpenClBuffer b, long flags, EventTiming t, String what, Arena a) {
    MemorySegment ev = a.allocate(ADDRESS), err = a.allocate(JAVA_INT);
    MemorySegment mapped = cl.enqueueMapBuffer(queue, b.mem(), OpenCl.FALSE, flags, b.bytes(), ev, err);
    OpenCl.check(err.get(JAVA_INT, 0), "clEnqueueMapBuffer: " + what);
    track(ev, t);
    MemorySegment ev2 = a.allocate(ADDRESS);
    OpenCl.check(cl.enqueueUnmapMemObject(queue, b.mem(), mapped, ev2), "clEnqueueUnmapMemObject: " + what);
    track(ev2, t);
  }

  @Override
  public Timing launch(DeviceKernel kernel, Object[] args, Grid grid) {
    OpenClKernel k = (OpenClKernel) kernel;
    WorkGroups.Limits limits = new WorkGroups.Limits(device.kind() == Device.Kind.CPU, device.computeUnits(),
        Math.min(Math.min(device.maxWorkGroupSize(), k.maxGroup()), irGroupCap(k)), device.maxWorkItemSizes());
    WorkGroups.Shape shape = WorkGroups.choose(grid, k.explicit(), limits, k.task());
    if (k.ir().launch() instanceof dev.loopjit.ir.Launch.Loops l && l.gridStride())
      shape.global()[0] = Grid.strided(shape.global()[0], shape.local()[0], device.computeUnits(), device.kind() == Device.Kind.CPU);
    EventTiming t = new EventTiming();
    try (Arena a = Arena.ofConfined()) {
      k.bind(cl, args, grid, a);
      MemorySegment ev = a.allocate(ADDRESS);
      int rc = cl.enqueueNDRangeKernel(queue, k.handle(), shape.dims(), a.allocateFrom(JAVA_LONG, shape.global()),
          a.allocateFrom(JAVA_LONG, shape.local()), ev);
      if (rc != OpenCl.SUCCESS)
        throw new OpenClException(rc, "task \"" + k.task() + "\": clEnqueueNDRangeKernel of " + k.ir().name() + " with " + shape + " on " + device);
      track(ev, t);
    }
    return t;
  }

  /** The work-group cap the compiler set (a reduction's local arrays), or no cap. */
  private static long irGroupCap(OpenClKernel k) {
    return k.ir().launch() instanceof dev.loopjit.ir.Launch.Loops l && l.maxGroupSize() > 0 ? l.maxGroupSize() : Long.MAX_VALUE;
  }

  private void track(MemorySegment eventSlot, EventTiming t) {
    MemorySegment event = eventSlot.get(ADDRESS, 0);
    if (event.equals(MemorySegment.NULL)) return;
    pending.add(new Pending(event, t));
    liveEvents++;
  }

  /** Waits for the queue, then reads every pending event's device time into its Timing and releases it. */
  @Override
  public void finish() {
    int rc = cl.finish(queue);
    try (Arena a = Arena.ofConfined()) {
      for (Pending p : pending) {
        long start = OpenClInfo.profilingCounter(cl, p.event(), OpenCl.PROFILING_COMMAND_START, a);
        long end = OpenClInfo.profilingCounter(cl, p.event(), OpenCl.PROFILING_COMMAND_END, a);
        if (start >= 0 && end >= start) p.timing().nanos += end - start;
        cl.releaseEvent(p.event());
        liveEvents--;
      }
    } finally {
      pending.clear();
    }
    OpenCl.check(rc, "clFinish on " + device + " (a command failed)");
  }

  /** Waits for the queue without reading events. */
  private void drain() {
    if (!closed) OpenCl.check(cl.finish(queue), "clFinish on " + device);
  }

  /** Events made and not yet released, for tests: 0 after {@link #finish()}. */
  int liveEvents() {
    return liveEvents;
  }

  /** Releases the kernels, events and queue; the device's programs and pooled buffers stay for later plans. */
  @Override
  public void close() {
    if (closed) return;
    try {
      finish();
    } finally {
      closed = true;
      for (OpenClKernel k : kernels.values()) k.release(cl);
      kernels.clear();
      OpenCl.check(cl.releaseCommandQueue(queue), "clReleaseCommandQueue");
    }
  }
}
