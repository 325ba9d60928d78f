// The CUDA device runtime: loads kernels (through the module caches), allocates, copies, launches and times them on one stream.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.loopjit.spi.CompiledKernel;
import dev.loopjit.spi.CompilingRuntime;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.DeviceKernel;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.LaunchValues;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.PendingTimings;
import dev.loopjit.spi.PooledBuffer;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.Timing;
import dev.loopjit.spi.WorkGroups;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * One plan on one CUDA device: its own stream and kernels over the device's shared
 * {@link CudaContext} (modules and pooled device memory outlive the plan). Off-heap arrays of at
 * least {@link PinnedMemory#MIN_BYTES} are page-locked in place once per plan, and their copies
 * and every launch are asynchronous on the stream, each between a pair of events that
 * {@link #finish()} reads into the operation's {@link Timing} and gives back to the plan's pool of
 * events (created once, destroyed when the plan closes: creating and destroying two per launch
 * would count in the launch latency the benchmarks measure). Heap arrays of up to
 * {@link #SMALL_UP_TO} bytes (bounds reports, a loss, a batch's labels) go asynchronously through a
 * small page-locked buffer, those coming back reaching their arrays when the stream is next waited
 * for — no wait per copy (an H200 showed one stream wait per checked kernel). Other heap arrays under
 * {@link #STAGED_FROM} are copied synchronously straight from the Java array
 * ({@code Linker.Option.critical}), after the stream has drained, and timed on the host; larger
 * ones go through the plan's page-locked staging buffer in slices of {@link #STAGE_BYTES} (a
 * critical call that blocks for a long copy would hold every other Java thread off a safepoint);
 * {@code boolean[]} goes through a temporary native copy.
 *
 * <pre>{@code
 * DeviceRuntime jit = new CudaRuntime(device, PtxRecipe.INSTANCE, options);   // the JIT
 * DeviceRuntime own = new CudaRuntime(device, handwritten, options);          // a Recipe of your own
 * }</pre>
 */
public final class CudaRuntime extends CompilingRuntime<MemorySegment, MemorySegment> {
  private final CudaDevice cdevice;
  private final Cuda cuda;
  private final CudaContext context;
  private final MemorySegment stream;
  private final PendingTimings<EventPair> events = new PendingTimings<>();
  private final Set<HostArray> pinned = new LinkedHashSet<>();
  /** Heap arrays of at least this many bytes are copied through {@link #stage}, not by a critical downcall. */
  static final long STAGED_FROM = 1 << 20;
  /** The staging buffer's size: each slice of a staged copy. */
  static final long STAGE_BYTES = 8 << 20;
  private final Arena stageArena = Arena.ofShared();
  /** The staging buffer (page-locked where the driver allows), made by the first staged copy; null before. */
  private MemorySegment stage;
  private boolean stagePinned;
  private int stagedCopies;
  /** Heap arrays of at most this many bytes are copied asynchronously through {@link #small} (a bounds report, a loss, a batch's labels). */
  static final long SMALL_UP_TO = 4096;
  /** The small-copy buffer's size: the small copies between two waits. */
  static final long SMALL_BYTES = 256 << 10;
  /** Page-locked, made by the first small copy; null before, or when the driver cannot lock host memory (then small copies are synchronous). */
  private MemorySegment small;
  private boolean smallTried;
  private long smallUsed;
  private int smallCopies;
  /** Copies back into heap arrays that wait in {@link #small} until the stream is waited for. */
  private final java.util.List<SmallOut> smallOut = new java.util.ArrayList<>();

  /** A small copy back: {@code bytes} at {@code at} in {@link #small}, for {@code host} once the stream has been waited for. */
  private record SmallOut(HostArray host, long at, long bytes) {}
  /** Events created and not in use, for the next operations; destroyed by {@link #close()}. */
  private final java.util.ArrayDeque<MemorySegment> freeEvents = new java.util.ArrayDeque<>();
  private int liveEvents, createdEvents;
  /** Whether operations are timed (the profiler is on): else they get no events at all. */
  private boolean measure = true;
  /** The dynamic shared memory each kernel has opted in to, by its function handle's address. */
  private final java.util.Map<Long, Integer> optedIn = new java.util.HashMap<>();
  private boolean closed;

  /** The events recorded before and after an operation on the stream. */
  private record EventPair(MemorySegment start, MemorySegment end) {}

  /** A runtime whose kernels come from {@code recipe} ({@link PtxRecipe#INSTANCE}: the JIT). */
  public CudaRuntime(CudaDevice device, Recipe recipe, Options options) {
    super(device, recipe, options, device.context().programs());
    this.cdevice = device;
    this.cuda = device.cuda();
    this.context = device.context();
    this.stream = context.createStream();
  }

  @Override
  protected String variant() {
    return cdevice.targetVariant();
  }

  @Override
  protected WorkGroups.Limits limits(CompiledKernel<MemorySegment> k) {
    return new WorkGroups.Limits(false, device.computeUnits(), Math.min(device.maxWorkGroupSize(), k.maxGroup()),
        cdevice.maxBlockDims(), cdevice.maxGridDims(), "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM");
  }

  @Override
  protected CompiledKernel<MemorySegment> createKernel(MemorySegment module, DeviceCode code, String task) {
    var ir = code.ir();
    context.makeCurrent();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment f = a.allocate(ADDRESS);
      check(cuda.moduleGetFunction(f, module, a.allocateFrom(ir.name())),
          "task \"" + task + "\": cuModuleGetFunction(\"" + ir.name() + "\") on " + device);
      MemorySegment function = f.get(ADDRESS, 0);
      MemorySegment max = a.allocate(JAVA_INT);
      check(cuda.funcGetAttribute(max, Cuda.FUNC_MAX_THREADS_PER_BLOCK, function), "cuFuncGetAttribute of " + ir.name());
      return new CompiledKernel<>(code, function, task, max.get(JAVA_INT, 0));
    }
  }

  /** Pooled device memory (at least 8 bytes, so that an empty array is still a valid pointer to one element); {@code inPlace} never applies to a discrete GPU. */
  @Override
  public DeviceBuffer allocate(HostArray host, boolean inPlace) {
    context.makeCurrent();
    long bytes = Math.max(8, host.byteSize());   // one element of any type: a bounds-checked load of an empty array reads element 0
    long pointer = context.pool().take(bytes, host.describe());
    if (cdevice.hostRegisterSupported() && !pinned.contains(host) && PinnedMemory.PROCESS.pin(cuda, host)) pinned.add(host);
    return PooledBuffer.pooled(host, pointer, bytes, context.pool(), this::drain);
  }

  /**
   * One copy between the host array and its device memory: off-heap arrays asynchronously on the
   * stream; small heap arrays asynchronously through the small page-locked buffer (back in the array
   * at the next wait); other heap arrays synchronously straight from the Java array, after the
   * stream drained, timed on the host; boolean[] through native memory.
   */
  @Override
  @SuppressWarnings("unchecked")
  protected Timing copy(DeviceBuffer buffer, boolean toDevice) {
    PooledBuffer<Long> b = (PooledBuffer<Long>) buffer;
    HostArray h = b.host();
    long size = h.byteSize(), pointer = b.handle();
    if (size == 0) return Timing.NONE;
    Supplier<String> what = () -> "copy of " + h.describe() + (toDevice ? " to " : " from ") + device;   // for a failure's message only
    context.makeCurrent();
    if (h.offHeap())
      return toDevice ? timed(() -> "cuMemcpyHtoDAsync: " + what.get(), () -> cuda.memcpyHtoDAsync(pointer, h.segment(), size, stream))
          : timed(() -> "cuMemcpyDtoHAsync: " + what.get(), () -> cuda.memcpyDtoHAsync(h.segment(), pointer, size, stream));
    if (h.segment() != null && size >= STAGED_FROM) return staged(h, pointer, size, toDevice, what);
    if (h.segment() != null && size <= SMALL_UP_TO && smallBuffer(size)) {
      // No wait for the stream: the array's bytes go through page-locked memory, asynchronously; one
      // coming back reaches its heap array when the stream is next waited for (finish, drain).
      long at = smallUsed;
      smallUsed += (size + 15) & ~15L;
      smallCopies++;
      MemorySegment slot = small.asSlice(at, size);
      if (toDevice) {
        MemorySegment.copy(h.segment(), 0, slot, 0, size);
        return timed(() -> "cuMemcpyHtoDAsync (small): " + what.get(), () -> cuda.memcpyHtoDAsync(pointer, slot, size, stream));
      }
      Timing t = timed(() -> "cuMemcpyDtoHAsync (small): " + what.get(), () -> cuda.memcpyDtoHAsync(slot, pointer, size, stream));
      smallOut.add(new SmallOut(h, at, size));
      return t;
    }
    drain();   // the critical call holds off the GC while it blocks: let it wait for this copy only
    long t0 = System.nanoTime();
    String call = (toDevice ? "cuMemcpyHtoD: " : "cuMemcpyDtoH: ") + what.get();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment host = h.segment() != null ? h.segment() : a.allocate(size);   // boolean[]: bytes 0/1 through native memory
      if (toDevice && h.segment() == null) h.copyTo(host);
      check(toDevice ? cuda.memcpyHtoD(pointer, host, size) : cuda.memcpyDtoH(host, pointer, size), call);
      if (!toDevice && h.segment() == null) h.copyFrom(host);
    }
    return Timing.of(System.nanoTime() - t0);
  }

  /**
   * Whether {@link #small} has room for {@code bytes} more: made and page-locked on first use; when
   * full, the stream is waited for (its copies back delivered) and it starts again from the front.
   */
  private boolean smallBuffer(long bytes) {
    if (!smallTried) {
      smallTried = true;
      if (cdevice.hostRegisterSupported()) {
        MemorySegment m = stageArena.allocate(SMALL_BYTES, 4096);
        if (cuda.memHostRegister(m, SMALL_BYTES, Cuda.MEMHOSTREGISTER_PORTABLE) == Cuda.SUCCESS) small = m;
      }
    }
    if (small == null) return false;
    if (smallUsed + bytes > SMALL_BYTES) drain();
    return true;
  }

  /** After a wait for the stream: the small copies back into their heap arrays, and the small buffer free again. */
  private void deliverSmallCopies() {
    for (SmallOut o : smallOut) MemorySegment.copy(small, o.at(), o.host().segment(), 0, o.bytes());
    smallOut.clear();
    smallUsed = 0;
  }

  /** Small heap copies made through the page-locked buffer, for tests. */
  int smallCopies() {
    return smallCopies;
  }

  /** A large heap array's copy in slices through the staging buffer: Java array to stage, stage to device (or back), one slice at a time. */
  private Timing staged(HostArray h, long pointer, long size, boolean toDevice, Supplier<String> lazyWhat) {
    String what = lazyWhat.get();   // a large copy: the message costs nothing beside it
    drain();
    long t0 = System.nanoTime();
    if (stage == null) {
      stage = stageArena.allocate(STAGE_BYTES, 4096);
      stagePinned = cdevice.hostRegisterSupported() && cuda.memHostRegister(stage, STAGE_BYTES, 0) == Cuda.SUCCESS;
    }
    MemorySegment host = h.segment();
    for (long at = 0; at < size; at += STAGE_BYTES) {
      long n = Math.min(STAGE_BYTES, size - at);
      if (toDevice) {
        MemorySegment.copy(host, at, stage, 0, n);
        check(cuda.memcpyHtoDAsync(pointer + at, stage, n, stream), "cuMemcpyHtoDAsync (staged): " + what);
        check(cuda.streamSynchronize(stream), "cuStreamSynchronize (staged): " + what);
      } else {
        check(cuda.memcpyDtoHAsync(stage, pointer + at, n, stream), "cuMemcpyDtoHAsync (staged): " + what);
        check(cuda.streamSynchronize(stream), "cuStreamSynchronize (staged): " + what);
        MemorySegment.copy(stage, 0, host, at, n);
      }
    }
    stagedCopies++;
    return Timing.of(System.nanoTime() - t0);
  }

  /** Heap copies that went through the staging buffer, for tests. */
  int stagedCopies() {
    return stagedCopies;
  }

  @Override
  public Timing launch(DeviceKernel kernel, Object[] args, Grid grid) {
    CompiledKernel<MemorySegment> k = kernel(kernel);
    WorkGroups.Shape s = shape(k, grid);
    context.makeCurrent();
    try (Arena a = Arena.ofConfined()) {
      // Local arrays sized at run time are slices of the launch's dynamic shared memory.
      List<LaunchValues.Local> locals = LaunchValues.locals(k.ir(), args, s.groupSize(), k.task());
      int dynamic = (int) LaunchValues.checkLocalMemory(k.constantLocalBytes(), locals, device, k.task());
      optIn(k, dynamic);
      MemorySegment params = KernelParams.of(k.ir(), args, grid, locals, a, k.task());
      long[] g = s.groups(), t = s.groupSize();
      return timed(() -> "task \"" + k.task() + "\": cuLaunchKernel of " + k.ir().name() + " with " + s + " on " + device,
          () -> cuda.launchKernel(k.handle(), (int) g[0], (int) g[1], (int) g[2], (int) t[0], (int) t[1], (int) t[2], dynamic, stream, params));
    }
  }

  /**
   * Past 48 KiB of shared memory a kernel must opt in (cuFuncSetAttribute) before it launches: done
   * once per kernel for the most dynamic shared memory its launches have needed.
   */
  private void optIn(CompiledKernel<MemorySegment> k, int dynamic) {
    // Most launches have no dynamic part (static shared memory alone is held to 48 KiB when compiled), or opted in already: no IR walk then.
    if (dynamic == 0 || dynamic <= optedIn.getOrDefault(k.handle().address(), 0)) return;
    if (k.constantLocalBytes() + dynamic <= cdevice.staticSharedMemoryPerBlock()) return;
    check(cuda.funcSetAttribute(k.handle(), Cuda.FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, dynamic), "task \"" + k.task()
        + "\": cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, " + dynamic + ") of " + k.ir().name() + " on " + device);
    optedIn.put(k.handle().address(), dynamic);
  }

  @Override
  public void measure(boolean on) {
    measure = on;
  }

  /** Enqueues {@code op} on the stream between two new events (with no events when nothing is measured); the events are read and destroyed by {@link #finish()}. */
  private Timing timed(Supplier<String> what, IntSupplier op) {
    if (!measure) {
      check(op.getAsInt(), what);
      return Timing.NONE;
    }
    MemorySegment start = createEvent(), end;
    try {
      end = createEvent();
    } catch (RuntimeException e) {
      destroyEvent(start);
      throw e;
    }
    try {   // a fault in any of them marks the context lost and says so (check)
      check(cuda.eventRecord(start, stream), () -> "cuEventRecord before " + what.get());
      check(op.getAsInt(), what);
      check(cuda.eventRecord(end, stream), () -> "cuEventRecord after " + what.get());
    } catch (RuntimeException e) {
      destroyEvent(start);
      destroyEvent(end);
      throw e;
    }
    return events.add(new EventPair(start, end));
  }

  /** {@code rc} of {@code what} checked; a fault (a sticky CUresult) also marks the context lost. */
  private void check(int rc, String what) {
    context.check(rc, what);
  }

  /** As {@link #check(int, String)}, the message made only on failure (the launch and copy paths make no strings). */
  private void check(int rc, Supplier<String> what) {
    if (rc != Cuda.SUCCESS) context.check(rc, what.get());
  }

  /** An event from the pool, or a new one. */
  private MemorySegment createEvent() {
    MemorySegment free = freeEvents.poll();
    if (free != null) {
      liveEvents++;
      return free;
    }
    try (Arena a = Arena.ofConfined()) {
      MemorySegment e = a.allocate(ADDRESS);
      check(cuda.eventCreate(e, Cuda.EVENT_DEFAULT), "cuEventCreate on " + device);
      liveEvents++;
      createdEvents++;
      return e.get(ADDRESS, 0);
    }
  }

  /** Back to the pool. Never throws: it also runs after a failure, when the context may refuse everything. */
  private void destroyEvent(MemorySegment e) {
    freeEvents.push(e);
    liveEvents--;
  }

  /** Waits for the stream, then reads every pending operation's event pair into its Timing and destroys the events. */
  @Override
  public void finish() {
    context.makeCurrent();
    int rc = cuda.streamSynchronize(stream);
    if (rc == Cuda.SUCCESS) deliverSmallCopies();
    else smallOut.clear();   // nothing came back: the host arrays keep what they had
    try (Arena a = Arena.ofConfined()) {
      MemorySegment ms = a.allocate(JAVA_FLOAT);
      events.finish(new PendingTimings.Reader<>() {
        @Override
        public long nanos(EventPair p) {
          return rc == Cuda.SUCCESS && cuda.eventElapsedTime(ms, p.start(), p.end()) == Cuda.SUCCESS
              ? Math.round(ms.get(JAVA_FLOAT, 0) * 1e6) : -1;
        }

        @Override
        public void release(EventPair p) {
          destroyEvent(p.start());
          destroyEvent(p.end());
        }
      });
    }
    check(rc, "cuStreamSynchronize on " + device + ": a kernel or copy failed");
  }

  /** Waits for the stream without reading events. */
  private void drain() {
    if (closed || context.lost()) return;   // a lost context runs nothing more: nothing to wait for
    context.makeCurrent();
    try {
      check(cuda.streamSynchronize(stream), "cuStreamSynchronize on " + device);
    } catch (RuntimeException e) {
      smallOut.clear();
      throw e;
    }
    deliverSmallCopies();
  }

  /** Events in use by operations not yet finished, for tests: 0 after {@link #finish()}. */
  int liveEvents() {
    return liveEvents;
  }

  /** Events this runtime has created (with cuEventCreate) and not destroyed, for tests: as many as one execution needs at most, 0 after {@link #close()}. */
  int createdEvents() {
    return createdEvents;
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
      if (!context.lost()) for (HostArray h : pinned) PinnedMemory.PROCESS.unpin(cuda, h);   // a lost context took its registrations
    } catch (RuntimeException e) {
      if (failure == null) failure = e;
      else failure.addSuppressed(e);
    }
    pinned.clear();
    if (stage != null && stagePinned) cuda.memHostUnregister(stage);   // after a fault the driver may refuse: the arena frees it anyway
    if (small != null) cuda.memHostUnregister(small);
    stageArena.close();
    for (MemorySegment e : freeEvents) cuda.eventDestroy(e);   // after a fault the driver may refuse: nothing more to do
    createdEvents -= freeEvents.size();
    freeEvents.clear();
    int rc = cuda.streamDestroy(stream);
    if (context.lost()) return;   // the fault was reported when it happened; nothing of the lost context can be freed
    if (failure == null && rc != Cuda.SUCCESS) failure = new CudaException(rc, "cuStreamDestroy on " + device, cuda.describe(rc));
    if (failure != null) throw failure;
  }
}
