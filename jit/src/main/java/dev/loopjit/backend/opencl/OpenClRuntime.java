// The OpenCL device runtime: builds kernels (through the program caches), allocates, copies, launches and times them on one queue.
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.api.Device;
import dev.loopjit.compiler.Target;
import dev.loopjit.spi.CompilingRuntime;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.DeviceCode;
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
import java.util.List;

/**
 * One plan on one OpenCL device: its own in-order command queue with profiling and its own
 * kernels, over the device's shared {@link OpenClContext} (programs and pooled buffers outlive the
 * plan). Copies of off-heap arrays and launches are asynchronous; heap arrays are copied blocking,
 * straight from the Java array. Every command makes an event, which {@link #finish()} reads into
 * the command's {@link Timing} and releases.
 *
 * <pre>{@code
 * DeviceRuntime jit = new OpenClRuntime(device, OpenClRecipe.INSTANCE, options);   // the JIT
 * DeviceRuntime own = new OpenClRuntime(device, handwritten, options);             // a Recipe of your own
 * }</pre>
 */
public final class OpenClRuntime extends CompilingRuntime<MemorySegment, OpenClKernel> {
  private final OpenClDevice cdevice;
  private final OpenCl cl;
  private final OpenClContext context;
  private final MemorySegment queue;
  private final List<Pending> pending = new ArrayList<>();
  private int liveEvents;
  private boolean closed;

  private record Pending(MemorySegment event, EventTiming timing) {}

  /** The device time of one or more commands, filled in by {@link #finish()}. */
  private static final class EventTiming implements Timing {
    long nanos;

    @Override
    public long nanos() {
      return nanos;
    }
  }

  /** A runtime whose kernels come from the JIT ({@link OpenClRecipe}). */
  public OpenClRuntime(OpenClDevice device, Options options) {
    this(device, OpenClRecipe.INSTANCE, options);
  }

  /** A runtime whose kernels come from {@code recipe}. */
  public OpenClRuntime(OpenClDevice device, Recipe recipe, Options options) {
    super(device, recipe, options);
    this.cdevice = device;
    this.cl = OpenCl.get();
    this.context = device.context();
    this.queue = context.createQueue();
  }

  @Override
  protected ProgramCache<MemorySegment> programs() {
    return context.programs();
  }

  /** Strict Java float semantics unless fast math was asked for: IEEE division and sqrt where the device has them. */
  @Override
  protected String buildOptions(Target target) {
    StringBuilder b = new StringBuilder("-cl-std=CL1.2");
    if (cdevice.correctlyRoundedDivideSqrt()) b.append(" -cl-fp32-correctly-rounded-divide-sqrt");
    if (target.fastMath()) b.append(" -cl-fast-relaxed-math");
    return b.toString();
  }

  @Override
  protected OpenClKernel createKernel(MemorySegment program, DeviceCode code, String task) {
    String name = code.ir().name();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment h = cl.createKernel(program, a.allocateFrom(name), err);
      OpenCl.check(err.get(JAVA_INT, 0), "task \"" + task + "\": clCreateKernel(\"" + name + "\") on " + device);
      return new OpenClKernel(code, h, OpenClInfo.kernelWorkGroupSize(cl, h, cdevice.handle()), task);
    }
  }

  @Override
  protected WorkGroups.Limits limits(OpenClKernel k) {
    return new WorkGroups.Limits(device.kind() == Device.Kind.CPU, device.computeUnits(),
        Math.min(device.maxWorkGroupSize(), k.maxGroup()), cdevice.maxWorkItemSizes());
  }

  @Override
  protected void release(OpenClKernel k) {
    k.release(cl);
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
      MemorySegment mem = context.pool().create(host.byteSize(), what,
          bytes -> context.tryCreate(OpenCl.MEM_READ_WRITE | OpenCl.MEM_USE_HOST_PTR, bytes, host.segment()));
      return new OpenClBuffer(host, mem, host.byteSize(), true, cl, context.pool(), this::drain);
    }
    long bytes = Math.max(1, host.byteSize());
    return new OpenClBuffer(host, context.pool().take(bytes, what), bytes, false, cl, context.pool(), this::drain);
  }

  private boolean usableInPlace(HostArray h) {
    return cdevice.sharesHostMemory() && h.offHeap() && h.byteSize() > 0
        && h.segment().address() % cdevice.baseAddressAlignment() == 0;
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
  public Timing launch(dev.loopjit.spi.DeviceKernel kernel, Object[] args, Grid grid) {
    OpenClKernel k = (OpenClKernel) kernel;
    WorkGroups.Shape shape = shape(k, grid);
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
      releaseKernels();
      OpenCl.check(cl.releaseCommandQueue(queue), "clReleaseCommandQueue");
    }
  }
}
