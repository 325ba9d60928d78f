// The CUDA device runtime: loads kernels (through the module caches), allocates, copies, launches and times them on one stream.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.loopjit.spi.CompilingRuntime;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.DeviceKernel;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.ProgramCache;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.Timing;
import dev.loopjit.spi.WorkGroups;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
 * DeviceRuntime jit = new CudaRuntime(device, PtxRecipe.INSTANCE, options);   // the JIT
 * DeviceRuntime own = new CudaRuntime(device, handwritten, options);          // a Recipe of your own
 * }</pre>
 */
public final class CudaRuntime extends CompilingRuntime<MemorySegment, CudaKernel> {
  private final CudaDevice cdevice;
  private final Cuda cuda;
  private final CudaContext context;
  private final MemorySegment stream;
  private final List<Pending> pending = new ArrayList<>();
  private final Set<HostArray> pinned = new LinkedHashSet<>();
  private int liveEvents;
  private boolean closed;

  private record Pending(MemorySegment start, MemorySegment end, EventTiming timing) {}

  /** The device time of one operation, filled in by {@link #finish()}. */
  private static final class EventTiming implements Timing {
    long nanos;

    @Override
    public long nanos() {
      return nanos;
    }
  }

  /** A runtime whose kernels come from the JIT ({@link PtxRecipe}). */
  public CudaRuntime(CudaDevice device, Options options) {
    this(device, PtxRecipe.INSTANCE, options);
  }

  /** A runtime whose kernels come from {@code recipe}. */
  public CudaRuntime(CudaDevice device, Recipe recipe, Options options) {
    super(device, recipe, options);
    this.cdevice = device;
    this.cuda = device.cuda();
    this.context = device.context();
    this.stream = context.createStream();
  }

  @Override
  protected ProgramCache<MemorySegment> programs() {
    return context.modules();
  }

  @Override
  protected String variant() {
    return cdevice.targetVariant();
  }

  @Override
  protected WorkGroups.Limits limits(CudaKernel k) {
    return new WorkGroups.Limits(false, device.computeUnits(), Math.min(device.maxWorkGroupSize(), k.maxGroup()),
        cdevice.maxBlockDims(), cdevice.maxGridDims(), "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM");
  }

  @Override
  protected CudaKernel createKernel(MemorySegment module, DeviceCode code, String task) {
    var ir = code.ir();
    context.makeCurrent();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment f = a.allocate(ADDRESS);
      cuda.check(cuda.moduleGetFunction(f, module, a.allocateFrom(ir.name())),
          "task \"" + task + "\": cuModuleGetFunction(\"" + ir.name() + "\") on " + device);
      MemorySegment function = f.get(ADDRESS, 0);
      MemorySegment max = a.allocate(JAVA_INT);
      cuda.check(cuda.funcGetAttribute(max, Cuda.FUNC_MAX_THREADS_PER_BLOCK, function), "cuFuncGetAttribute of " + ir.name());
      return new CudaKernel(code, function, max.get(JAVA_INT, 0), task);
    }
  }

  /** Pooled device memory (at least one byte, so that an empty array is still a valid pointer); {@code inPlace} never applies to a discrete GPU. */
  @Override
  public DeviceBuffer allocate(HostArray host, boolean inPlace) {
    context.makeCurrent();
    long bytes = Math.max(1, host.byteSize());
    long pointer = context.pool().take(bytes, host.describe());
    if (cdevice.hostRegisterSupported() && !pinned.contains(host) && PinnedMemory.PROCESS.pin(cuda, host)) pinned.add(host);
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
    WorkGroups.Shape s = shape(k, grid);
    context.makeCurrent();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment params = KernelParams.of(k.ir(), args, grid, a, k.task());
      long[] g = s.groups(), t = s.groupSize();
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
    releaseKernels();
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
