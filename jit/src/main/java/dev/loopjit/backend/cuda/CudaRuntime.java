// The CUDA device runtime: loads kernels (through the module caches), allocates, copies, launches and times them on one stream.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * One plan on one CUDA device: its own stream and kernels over the device's shared
 * {@link CudaContext} (modules and pooled device memory outlive the plan). Off-heap arrays of at
 * least {@link PinnedMemory#MIN_BYTES} are page-locked in place once per plan, and their copies
 * and every launch are asynchronous on the stream, each between a pair of events that
 * {@link #finish()} reads into the operation's {@link Timing} and destroys. Heap arrays are copied
 * synchronously straight from the Java array ({@code Linker.Option.critical}), after the stream
 * has drained, and timed on the host; {@code boolean[]} goes through a temporary native copy.
 *
 * <pre>{@code
 * PlanExecutor plan = new GraphRunner(new CudaRuntime(device));                 // the JIT
 * PlanExecutor test = new GraphRunner(new CudaRuntime(device, handwritten));    // a PtxSource of your own
 * }</pre>
 */
public final class CudaRuntime implements DeviceRuntime {
  private final CudaDevice device;
  private final PtxSource source;
  private final Cuda cuda;
  private final CudaContext context;
  private final MemorySegment stream;
  private final Map<KernelKey, CudaKernel> kernels = new HashMap<>();
  private final List<Pending> pending = new ArrayList<>();
  private final Set<HostArray> pinned = new LinkedHashSet<>();
  private int liveEvents;
  private boolean closed;

  private record KernelKey(MethodRef method, Target target) {}

  private record Pending(MemorySegment start, MemorySegment end, EventTiming timing) {}

  /** The device time of one operation, filled in by {@link #finish()}. */
  private static final class EventTiming implements Timing {
    long nanos;

    @Override
    public long nanos() {
      return nanos;
    }
  }

  /** A runtime whose kernels come from the JIT ({@link PtxSource#COMPILER}). */
  public CudaRuntime(CudaDevice device) {
    this(device, PtxSource.COMPILER);
  }

  /** A runtime whose kernels come from {@code source}. */
  public CudaRuntime(CudaDevice device, PtxSource source) {
    this.device = device;
    this.source = source;
    this.cuda = device.cuda();
    this.context = device.context();
    this.stream = context.createStream();
  }

  @Override
  public Device device() {
    return device;
  }

  @Override
  public Prepared prepare(TaskSpec task, RunOptions options) {
    Target target = Target.of("ptx", device.targetVariant(), device, true,
        PtxEmitter.nativeIntrinsics(dev.loopjit.runtime.Settings.fastMath()));
    KernelKey key = new KernelKey(task.method(), target);
    CudaKernel k = kernels.get(key);
    if (k != null) return new Prepared(k, false, 0, 0);
    long t0 = System.nanoTime();
    PtxSource.Generated g = source.generate(task, target);
    long compileNanos = System.nanoTime() - t0;
    MemorySegment module = context.modules().cached(g.ptx());
    boolean compiled = false;
    long driverNanos = 0;
    if (module == null) {
      if (Settings.dump("ptx")) System.out.println("// PTX of " + task.method().display() + " for " + device + "\n" + g.ptx());
      try {
        ModuleCache.Built b = context.modules().build(g.ptx());
        module = b.module();
        compiled = b.fromSource();
        driverNanos = b.driverNanos();
      } catch (ModuleCache.JitFailure f) {
        throw jitError(task, g.ptx(), f);
      }
    }
    k = function(module, g.ir(), task.qualifiedName());
    kernels.put(key, k);
    return new Prepared(k, compiled, compileNanos, driverNanos);
  }

  private KernelCompilationException jitError(TaskSpec task, String ptx, ModuleCache.JitFailure f) {
    MethodRef m = task.method();
    StringBuilder msg = new StringBuilder(m.display()).append(": the generated PTX does not compile for ").append(device)
        .append(" (").append(device.targetVariant()).append(", ").append(device.driverVersion()).append("): ")
        .append(CudaException.name(f.code)).append(" (").append(f.code).append(")\n")
        .append(f.log.isBlank() ? "(the driver gave no JIT log)" : f.log).append("\n--- generated PTX ---\n");
    String[] lines = ptx.split("\n", -1);
    for (int i = 0; i < lines.length; i++) msg.append(String.format("%4d  %s%n", i + 1, lines[i]));
    return new KernelCompilationException(m.owner().getName(), m.name(), -1, "PTX JIT", msg.toString());
  }

  private CudaKernel function(MemorySegment module, KernelIR ir, String task) {
    context.makeCurrent();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment f = a.allocate(ADDRESS);
      cuda.check(cuda.moduleGetFunction(f, module, a.allocateFrom(ir.name())),
          "task \"" + task + "\": cuModuleGetFunction(\"" + ir.name() + "\") on " + device);
      MemorySegment function = f.get(ADDRESS, 0);
      MemorySegment max = a.allocate(JAVA_INT);
      cuda.check(cuda.funcGetAttribute(max, Cuda.FUNC_MAX_THREADS_PER_BLOCK, function), "cuFuncGetAttribute of " + ir.name());
      return new CudaKernel(ir, function, max.get(JAVA_INT, 0), task);
    }
  }

  /** Pooled device memory (at least one byte, so that an empty array is still a valid pointer); {@code inPlace} never applies to a discrete GPU. */
  @Override
  public DeviceBuffer allocate(HostArray host, boolean inPlace) {
    context.makeCurrent();
    long bytes = Math.max(1, host.byteSize());
    long pointer = context.pool().take(bytes, host.describe());
    if (device.hostRegisterSupported() && !pinned.contains(host) && PinnedMemory.PROCESS.pin(cuda, host)) pinned.add(host);
    return new CudaBuffer(host, pointer, bytes, context.pool(), this::drain);
  }

  @Override
  public Timing copyIn(DeviceBuffer buffer) {
    CudaBuffer b = (CudaBuffer) buffer;
    HostArray h = b.host();
    long size = h.byteSize();
    if (size == 0) return Timing.NONE;
    String what = "copy of " + h.describe() + " to " + device;
    context.makeCurrent();
    if (h.offHeap()) return timed("cuMemcpyHtoDAsync: " + what, () -> cuda.memcpyHtoDAsync(b.pointer(), h.segment(), size, stream));
    drain();   // the critical call holds off the GC while it blocks: let it wait for this copy only
    long t0 = System.nanoTime();
    if (h.segment() == null) {   // boolean[]: bytes 0/1 through native memory
      try (Arena a = Arena.ofConfined()) {
        MemorySegment tmp = a.allocate(size);
        h.copyTo(tmp);
        cuda.check(cuda.memcpyHtoD(b.pointer(), tmp, size), "cuMemcpyHtoD: " + what);
      }
    } else {
      cuda.check(cuda.memcpyHtoD(b.pointer(), h.segment(), size), "cuMemcpyHtoD: " + what);
    }
    return Timing.of(System.nanoTime() - t0);
  }

  @Override
  public Timing copyOut(DeviceBuffer buffer) {
    CudaBuffer b = (CudaBuffer) buffer;
    HostArray h = b.host();
    long size = h.byteSize();
    if (size == 0) return Timing.NONE;
    String what = "copy of " + h.describe() + " from " + device;
    context.makeCurrent();
    if (h.offHeap()) return timed("cuMemcpyDtoHAsync: " + what, () -> cuda.memcpyDtoHAsync(h.segment(), b.pointer(), size, stream));
    drain();
    long t0 = System.nanoTime();
    if (h.segment() == null) {
      try (Arena a = Arena.ofConfined()) {
        MemorySegment tmp = a.allocate(size);
        cuda.check(cuda.memcpyDtoH(tmp, b.pointer(), size), "cuMemcpyDtoH: " + what);
        h.copyFrom(tmp);
      }
    } else {
      cuda.check(cuda.memcpyDtoH(h.segment(), b.pointer(), size), "cuMemcpyDtoH: " + what);
    }
    return Timing.of(System.nanoTime() - t0);
  }

  @Override
  public Timing launch(DeviceKernel kernel, Object[] args, Grid grid) {
    CudaKernel k = (CudaKernel) kernel;
    LaunchShape.Limits limits = new LaunchShape.Limits(Math.min(device.maxWorkGroupSize(), k.maxThreads()), device.maxBlockDims(),
        device.maxGridDims());
    LaunchShape.Shape s = LaunchShape.choose(grid, k.explicit(), limits, k.task());
    if (k.ir().launch() instanceof dev.loopjit.ir.Launch.Loops l && l.gridStride())
      s.blocks()[0] = Grid.strided(s.blocks()[0] * s.threads()[0], s.threads()[0], device.computeUnits(), false) / s.threads()[0];
    context.makeCurrent();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment params = KernelParams.of(k.ir(), args, grid, a, k.task());
      long[] g = s.blocks(), t = s.threads();
      return timed("task \"" + k.task() + "\": cuLaunchKernel of " + k.ir().name() + " with " + s + " on " + device,
          () -> cuda.launchKernel(k.function(), (int) g[0], (int) g[1], (int) g[2], (int) t[0], (int) t[1], (int) t[2], 0, stream, params));
    }
  }

  /** Enqueues {@code op} on the stream between two new events; the events are read and destroyed by {@link #finish()}. */
  private Timing timed(String what, IntSupplier op) {
    MemorySegment start = createEvent(), end;
    try {
      end = createEvent();
    } catch (RuntimeException e) {
      destroyEvent(start);
      throw e;
    }
    try {
      cuda.check(cuda.eventRecord(start, stream), "cuEventRecord before " + what);
      cuda.check(op.getAsInt(), what);
      cuda.check(cuda.eventRecord(end, stream), "cuEventRecord after " + what);
    } catch (RuntimeException e) {
      destroyEvent(start);
      destroyEvent(end);
      throw e;
    }
    EventTiming t = new EventTiming();
    pending.add(new Pending(start, end, t));
    return t;
  }

  private MemorySegment createEvent() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment e = a.allocate(ADDRESS);
      cuda.check(cuda.eventCreate(e, Cuda.EVENT_DEFAULT), "cuEventCreate on " + device);
      liveEvents++;
      return e.get(ADDRESS, 0);
    }
  }

  /** Never throws: it also runs after a failure, when the context may refuse everything. */
  private void destroyEvent(MemorySegment e) {
    cuda.eventDestroy(e);
    liveEvents--;
  }

  /** Waits for the stream, then reads every pending operation's event pair into its Timing and destroys the events. */
  @Override
  public void finish() {
    context.makeCurrent();
    int rc = cuda.streamSynchronize(stream);
    try (Arena a = Arena.ofConfined()) {
      MemorySegment ms = a.allocate(JAVA_FLOAT);
      for (Pending p : pending) {
        if (rc == Cuda.SUCCESS && cuda.eventElapsedTime(ms, p.start(), p.end()) == Cuda.SUCCESS)
          p.timing().nanos += Math.round(ms.get(JAVA_FLOAT, 0) * 1e6);
        destroyEvent(p.start());
        destroyEvent(p.end());
      }
    } finally {
      pending.clear();
    }
    if (rc != Cuda.SUCCESS)
      throw new CudaException(rc, "cuStreamSynchronize on " + device + " (a kernel or copy failed"
          + (CudaException.sticky(rc) ? "; this device cannot be used again until the process exits)" : ")"),
          cuda.describe(rc));
  }

  /** Waits for the stream without reading events. */
  private void drain() {
    if (closed) return;
    context.makeCurrent();
    cuda.check(cuda.streamSynchronize(stream), "cuStreamSynchronize on " + device);
  }

  /** Events created and not yet destroyed, for tests: 0 after {@link #finish()}. */
  int liveEvents() {
    return liveEvents;
  }

  /** Host arrays this runtime has page-locked, for tests. */
  int pinnedArrays() {
    return pinned.size();
  }

  /** Unpins this plan's arrays and destroys its stream; the device's modules and pooled memory stay for later plans. */
  @Override
  public void close() {
    if (closed) return;
    RuntimeException failure = null;
    try {
      finish();
    } catch (RuntimeException e) {
      failure = e;
    }
    closed = true;
    kernels.clear();
    try {
      context.makeCurrent();
      for (HostArray h : pinned) PinnedMemory.PROCESS.unpin(cuda, h);
    } catch (RuntimeException e) {
      if (failure == null) failure = e;
      else failure.addSuppressed(e);
    }
    pinned.clear();
    int rc = cuda.streamDestroy(stream);
    if (failure == null && rc != Cuda.SUCCESS) failure = new CudaException(rc, "cuStreamDestroy on " + device, cuda.describe(rc));
    if (failure != null) throw failure;
  }
}
