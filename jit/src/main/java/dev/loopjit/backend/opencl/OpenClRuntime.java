// The OpenCL device runtime: builds kernels (through the program caches), allocates, copies, launches and times them on one queue.
package dev.loopjit.backend.opencl;

import dev.loopjit.backend.spirv.SpirvRecipe;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.api.Device;
import dev.loopjit.backend.spirv.SpirvBridge;
import dev.loopjit.ir.Target;
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
public final class OpenClRuntime extends CompilingRuntime<MemorySegment, MemorySegment> {
  private final OpenClDevice cdevice;
  private final OpenCl cl;
  private final OpenClContext context;
  private final MemorySegment queue;
  private final PendingTimings<MemorySegment> events = new PendingTimings<>();
  private boolean closed;

  /** A runtime whose kernels come from {@code recipe} ({@link OpenClRecipe#INSTANCE}: the JIT). */
  public OpenClRuntime(OpenClDevice device, Recipe recipe, Options options) {
    super(device, recipe, options, device.context().programs());
    this.cdevice = device;
    this.cl = OpenCl.get();
    this.context = device.context();
    this.queue = context.createQueue();
  }

  /** Strict Java float semantics unless fast math was asked for: IEEE division and sqrt where the device has them. */
  @Override
  protected String buildOptions(Target target) {
    if (recipe instanceof SpirvRecipe spirv) {
      // A SPIR-V module declares its own version; OpFDiv and OpenCL.std sqrt may be 2.5 and 3 ulp off without the option.
      StringBuilder b = new StringBuilder(spirv.bridged() ? SpirvBridge.BUILD_OPTIONS : "");
      if (cdevice.correctlyRoundedDivideSqrt()) b.append(b.isEmpty() ? "" : " ").append("-cl-fp32-correctly-rounded-divide-sqrt");
      if (target.fastMath()) b.append(b.isEmpty() ? "" : " ").append("-cl-fast-relaxed-math");
      return b.toString();
    }
    StringBuilder b = new StringBuilder("-cl-std=CL1.2");
    if (cdevice.correctlyRoundedDivideSqrt()) b.append(" -cl-fp32-correctly-rounded-divide-sqrt");
    if (target.fastMath()) b.append(" -cl-fast-relaxed-math");
    return b.toString();
  }

  @Override
  protected CompiledKernel<MemorySegment> createKernel(MemorySegment program, DeviceCode code, String task) {
    String name = code.ir().name();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment h = cl.createKernel(program, a.allocateFrom(name), err);
      OpenCl.check(err.get(JAVA_INT, 0), "task \"" + task + "\": clCreateKernel(\"" + name + "\") on " + device);
      return new CompiledKernel<>(code, h, task, OpenClInfo.kernelWorkGroupSize(cl, h, cdevice.handle()));
    }
  }

  @Override
  protected WorkGroups.Limits limits(CompiledKernel<MemorySegment> k) {
    return new WorkGroups.Limits(device.kind() == Device.Kind.CPU, device.computeUnits(),
        Math.min(device.maxWorkGroupSize(), k.maxGroup()), cdevice.maxWorkItemSizes());
  }

  @Override
  protected void release(CompiledKernel<MemorySegment> k) {
    OpenCl.check(cl.releaseKernel(k.handle()), "clReleaseKernel");
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
      return PooledBuffer.inPlace(host, mem, host.byteSize(), m -> OpenCl.check(cl.releaseMemObject(m), "clReleaseMemObject"),
          this::drain);
    }
    long bytes = Math.max(8, host.byteSize());   // one element of any type: a bounds-checked load of an empty array reads element 0
    return PooledBuffer.pooled(host, context.pool().take(bytes, what), bytes, context.pool(), this::drain);
  }

  private boolean usableInPlace(HostArray h) {
    return cdevice.sharesHostMemory() && h.offHeap() && h.byteSize() > 0
        && h.segment().address() % cdevice.baseAddressAlignment() == 0;
  }

  /**
   * One copy between the host array and its buffer. In place: a map and unmap, which move nothing
   * on a zero-copy device but make the contents coherent by the spec. Off-heap arrays are copied
   * asynchronously; heap arrays blocking, straight from the Java array; boolean[] through native memory.
   */
  @Override
  @SuppressWarnings("unchecked")
  protected Timing copy(DeviceBuffer buffer, boolean toDevice) {
    PooledBuffer<MemorySegment> b = (PooledBuffer<MemorySegment>) buffer;
    HostArray h = b.host();
    long size = h.byteSize();
    if (size == 0) return Timing.NONE;
    PendingTimings.Sum t = new PendingTimings.Sum();
    java.util.function.Supplier<String> what = () -> (toDevice ? "clEnqueueWriteBuffer: copy of " + h.describe() + " to "
        : "clEnqueueReadBuffer: copy of " + h.describe() + " from ") + device;   // a failure's message, made only then
    try (Arena a = Arena.ofConfined()) {
      if (b.inPlace()) {
        mapUnmap(b, toDevice ? OpenCl.MAP_WRITE_INVALIDATE_REGION : OpenCl.MAP_READ, t, what, a);
        return t;
      }
      MemorySegment ev = a.allocate(ADDRESS), mem = b.handle();
      int rc;
      if (h.offHeap()) {
        rc = toDevice ? cl.enqueueWriteBuffer(queue, mem, OpenCl.FALSE, size, h.segment(), ev)
            : cl.enqueueReadBuffer(queue, mem, OpenCl.FALSE, size, h.segment(), ev);
      } else if (h.segment() == null) {   // boolean[]: bytes 0/1 through native memory
        MemorySegment tmp = a.allocate(size);
        if (toDevice) h.copyTo(tmp);
        rc = toDevice ? cl.enqueueWriteBuffer(queue, mem, OpenCl.TRUE, size, tmp, ev) : cl.enqueueReadBuffer(queue, mem, OpenCl.TRUE, size, tmp, ev);
        if (!toDevice && rc == OpenCl.SUCCESS) h.copyFrom(tmp);
      } else {
        drain();   // the critical call holds off the GC while it blocks: let it wait for this copy only
        rc = toDevice ? cl.enqueueWriteHeap(queue, mem, size, h.segment(), ev) : cl.enqueueReadHeap(queue, mem, size, h.segment(), ev);
      }
      if (rc != OpenCl.SUCCESS) OpenCl.check(rc, what.get());
      track(ev, t);
    }
    return t;
  }

  private void mapUnmap(PooledBuffer<MemorySegment> b, long flags, PendingTimings.Sum t, java.util.function.Supplier<String> what, Arena a) {
    MemorySegment ev = a.allocate(ADDRESS), err = a.allocate(JAVA_INT);
    MemorySegment mapped = cl.enqueueMapBuffer(queue, b.handle(), OpenCl.FALSE, flags, b.bytes(), ev, err);
    if (err.get(JAVA_INT, 0) != OpenCl.SUCCESS) OpenCl.check(err.get(JAVA_INT, 0), "clEnqueueMapBuffer: " + what.get());
    track(ev, t);
    MemorySegment ev2 = a.allocate(ADDRESS);
    int rc = cl.enqueueUnmapMemObject(queue, b.handle(), mapped, ev2);
    if (rc != OpenCl.SUCCESS) OpenCl.check(rc, "clEnqueueUnmapMemObject: " + what.get());
    track(ev2, t);
  }

  @Override
  public Timing launch(DeviceKernel kernel, Object[] args, Grid grid) {
    CompiledKernel<MemorySegment> k = kernel(kernel);
    WorkGroups.Shape shape = shape(k, grid);
    PendingTimings.Sum t = new PendingTimings.Sum();
    try (Arena a = Arena.ofConfined()) {
      java.util.List<LaunchValues.Local> locals = LaunchValues.locals(k.ir(), args, shape.groupSize(), k.task());
      LaunchValues.checkLocalMemory(k.constantLocalBytes(), locals, device, k.task());
      OpenClArguments.bind(cl, k, args, grid, locals, a);
      MemorySegment ev = a.allocate(ADDRESS);
      int rc = cl.enqueueNDRangeKernel(queue, k.handle(), shape.dims(), a.allocateFrom(JAVA_LONG, shape.global()),
          a.allocateFrom(JAVA_LONG, shape.local()), ev);
      if (rc != OpenCl.SUCCESS)
        throw new OpenClException(rc, "task \"" + k.task() + "\": clEnqueueNDRangeKernel of " + k.ir().name() + " with " + shape + " on " + device);
      track(ev, t);
    }
    return t;
  }

  private void track(MemorySegment eventSlot, PendingTimings.Sum t) {
    MemorySegment event = eventSlot.get(ADDRESS, 0);
    if (!event.equals(MemorySegment.NULL)) events.add(event, t);
  }

  /** Waits for the queue, then reads every pending event's device time into its Timing and releases it. */
  @Override
  public void finish() {
    int rc = cl.finish(queue);
    try (Arena a = Arena.ofConfined()) {
      events.finish(new PendingTimings.Reader<>() {
        @Override
        public long nanos(MemorySegment e) {
          long start = OpenClInfo.profilingCounter(cl, e, OpenCl.PROFILING_COMMAND_START, a);
          long end = OpenClInfo.profilingCounter(cl, e, OpenCl.PROFILING_COMMAND_END, a);
          return start >= 0 && end >= start ? end - start : -1;
        }

        @Override
        public void release(MemorySegment e) {
          cl.releaseEvent(e);
        }
      });
    }
    if (rc != OpenCl.SUCCESS) OpenCl.check(rc, "clFinish on " + device + " (a command failed)");
  }

  /** Waits for the queue without reading events. */
  private void drain() {
    if (closed) return;
    int rc = cl.finish(queue);
    if (rc != OpenCl.SUCCESS) OpenCl.check(rc, "clFinish on " + device);
  }

  /** Events made and not yet released, for tests: 0 after {@link #finish()}. */
  int liveEvents() {
    return events.size();
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
