// The jvm device runtime: arrays copied into JVM memory, tasks run by invoking their methods.
package dev.loopjit.backend.jvm;

import dev.loopjit.api.Device;
import dev.loopjit.api.KernelContext;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.DeviceKernel;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.TaskSpec;
import dev.loopjit.spi.Timing;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.List;

/** Device memory is a JVM copy of each array; a launch is a method call (or one call per work-item). */
final class JvmRuntime implements DeviceRuntime {
  private final Device device;
  private final Options options;

  JvmRuntime(Device device, Options options) {
    this.device = device;
    this.options = options;
  }

  @Override
  public Device device() {
    return device;
  }

  @Override
  public Prepared prepare(TaskSpec task) {
    if (task.prebuilt() != null)
      throw new dev.loopjit.api.KernelCompilationException("(prebuilt)", task.prebuilt().entryPoint(), -1, "prebuilt kernel",
          "task \"" + task.qualifiedName() + "\": " + task.display() + " is device code with no Java method, so the jvm cannot run it");
    long t0 = System.nanoTime();
    // refused as every compiled device refuses it (as a plan's fallback, only where Java's meaning would be lost), and its parallel
    // loops counted as they count them
    int loops = Compiler.checkAsCompiledDevicesDo(task.method(), options.flag("jvm.asWritten"));
    // TornadoVM's reductions (reduceReset): the @Reduce elements the compiled devices' prologue sets, set here before the method runs
    List<Compiler.ReduceReset> resets = options.flag("reduceReset") && java.util.Arrays.stream(task.method().method().getParameters())
        .anyMatch(p -> p.isAnnotationPresent(dev.loopjit.api.Reduce.class)) ? Compiler.reduceResets(task.method()) : List.of();
    return new Prepared(JvmKernel.of(task, loops, resets, Compiler.asCompiledDevicesDo(task.method())), false, System.nanoTime() - t0, 0);
  }

  /** A JVM copy of a host array, of the same class; an off-heap copy's memory is its arena's, freed when the buffer is released. */
  record JvmBuffer(HostArray host, Object copy, java.lang.foreign.Arena arena) implements DeviceBuffer {
    @Override public boolean inPlace() { return false; }
    @Override public void release() {
      if (arena != null) arena.close();
    }
  }

  @Override
  public DeviceBuffer allocate(HostArray host, boolean inPlace) {
    // A zeroed object of the same class and shape (a collection over a copy of its storage). An off-heap copy's memory
    // is freed when the plan releases it: left to the GC, plans that come and go hold it until a collection the heap
    // alone never asks for (64 MB arrays: 122 MB more native memory per plan, measured).
    if (!host.offHeap()) return new JvmBuffer(host, host.newZeroed(), null);
    java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared();
    return new JvmBuffer(host, host.newZeroed(arena), arena);
  }

  @Override
  public Timing copyIn(DeviceBuffer buffer) {
    long t0 = System.nanoTime();
    JvmBuffer b = (JvmBuffer) buffer;
    copy(b.host().array(), b.copy(), b.host().length());
    return Timing.of(System.nanoTime() - t0);
  }

  @Override
  public Timing copyOut(DeviceBuffer buffer) {
    long t0 = System.nanoTime();
    JvmBuffer b = (JvmBuffer) buffer;
    copy(b.copy(), b.host().array(), b.host().length());
    return Timing.of(System.nanoTime() - t0);
  }

  /** Element {@code index} of an int, long, float or double array (on the heap or off it) set to {@code value}. */
  private static void set(Object array, int index, Object value) {
    HostArray h = HostArray.of(array);
    java.util.Objects.checkIndex(index, h.length());
    MemorySegment m = h.segment();
    switch (value) {
      case Integer i -> m.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, index, i);
      case Long l -> m.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, index, l);
      case Float f -> m.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, index, f);
      default -> m.setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, index, (Double) value);
    }
  }

  private static void copy(Object from, Object to, int length) {
    HostArray f = HostArray.of(from);
    if (from instanceof java.util.concurrent.atomic.AtomicInteger a) ((java.util.concurrent.atomic.AtomicInteger) to).set(a.get());
    else if (f.offHeap()) MemorySegment.copy(f.segment(), 0, HostArray.of(to).segment(), 0, f.byteSize());
    else System.arraycopy(from, 0, to, 0, length);
  }

  @Override
  public Timing launch(DeviceKernel kernel, Object[] args, Grid grid) {
    JvmKernel k = (JvmKernel) kernel;
    if (options.flag("threadInfo"))
      System.out.println("task " + k.task().qualifiedName() + " on jvm: " + (k.explicit() ? grid + ", one virtual thread per work-item" : "the Java method, called once"));
    // the compiled devices refuse an array made in the kernel that they cannot hold; so does the jvm, before it runs
    if (k.workIr() != null && !k.workIr().launchSizes().isEmpty()) dev.loopjit.spi.LaunchValues.largestPrivateArray(k.workIr(), args, k.task().qualifiedName());
    Object[] actual = args.clone();
    for (int i = 0; i < actual.length; i++) if (actual[i] instanceof JvmBuffer b) actual[i] = b.copy();
    long t0 = System.nanoTime();
    FieldArrays fields = FieldArrays.enter(k, args, actual);
    try {
      if (k.explicit()) WorkItems.run(k, actual, grid);
      else {
        for (Compiler.ReduceReset r : k.resets()) set(actual[r.param()], r.index(), r.value());
        k.invoke(actual);
      }
    } catch (IndexOutOfBoundsException e) {   // Java's own check: named as the compiled devices name theirs
      throw dev.loopjit.spi.BoundsReports.ofJava(k.task(), k.workIr(), e, device().id());
    } catch (ArithmeticException e) {   // a Math.*Exact that overflowed (or a division by zero): Java's message, the kernel's line
      throw dev.loopjit.spi.BoundsReports.ofJava(k.task(), e, device().id());
    } finally {
      fields.exit();
    }
    return Timing.of(System.nanoTime() - t0);
  }

  /**
   * The arrays of an instance-method kernel's object, which the Java method reads through its
   * fields, not through arguments: for the launch each holds the device copy's values (and the
   * kernel's writes go back to the copy), then its own again — so the jvm device keeps the same
   * copies as every other device. A Java argument that is the same array is given the field's array.
   */
  private record FieldArrays(JvmBuffer[] buffers, Object[] saved) {
    /** A static kernel's: nothing to swap. */
    private static final FieldArrays NONE = new FieldArrays(new JvmBuffer[0], new Object[0]);

    static FieldArrays enter(JvmKernel k, Object[] args, Object[] actual) {
      int first = k.handle().type().parameterCount();
      if (first >= args.length) return NONE;
      JvmBuffer[] buffers = new JvmBuffer[args.length];
      Object[] saved = new Object[args.length];
      java.util.Set<Object> done = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      for (int i = first; i < args.length; i++)
        if (args[i] instanceof JvmBuffer b && done.add(b)) {
          buffers[i] = b;
          saved[i] = b.host().newZeroed();
          copy(b.host().array(), saved[i], b.host().length());
          copy(b.copy(), b.host().array(), b.host().length());
          for (int j = 0; j < first; j++) if (args[j] == b) actual[j] = b.host().array();
        }
      return new FieldArrays(buffers, saved);
    }

    void exit() {
      for (int i = 0; i < buffers.length; i++)
        if (buffers[i] != null) {
          JvmBuffer b = buffers[i];
          copy(b.host().array(), b.copy(), b.host().length());
          copy(saved[i], b.host().array(), b.host().length());
        }
    }
  }

  @Override
  public void finish() {}

  @Override
  public void close() {}

  /** A task's method, ready to call. */
  record JvmKernel(TaskSpec task, MethodHandle handle, int contextParam, boolean usesBarriers, int loops, List<Compiler.ReduceReset> resets,
      dev.loopjit.ir.KernelIR workIr) implements DeviceKernel {
    /** {@code workIr}: the method as the compiled devices' reference target lowers it (null where they refuse it), for the profile and bounds messages. */
    static JvmKernel of(TaskSpec task, int loops, List<Compiler.ReduceReset> resets, dev.loopjit.ir.KernelIR workIr) {
      try {
        var m = task.method().method();
        m.setAccessible(true);
        MethodHandle h = MethodHandles.lookup().unreflect(m);
        // An instance-method kernel runs on its object, reading its fields itself (the Java method as written).
        if (task.receiver() != null) h = h.bindTo(task.receiver());
        int ctx = -1;
        Class<?>[] p = m.getParameterTypes();
        for (int i = 0; i < p.length; i++) if (p[i] == KernelContext.class) ctx = i;
        return new JvmKernel(task, h, ctx, ctx >= 0 && BarrierScan.usesBarriers(task.method()), loops, resets, workIr);
      } catch (IllegalAccessException | RuntimeException e) {
        throw new IllegalArgumentException("task \"" + task.qualifiedName() + "\": cannot call " + task.method().display() + ": " + e, e);
      }
    }

    void invoke(Object[] args) {
      try {
        // An instance-method task's list ends with its object's fields (the compiled devices' extra arguments).
        handle.invokeWithArguments(args.length == handle.type().parameterCount() ? args : java.util.Arrays.copyOf(args, handle.type().parameterCount()));
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("task \"" + task.qualifiedName() + "\" failed on jvm", t);
      }
    }

    @Override public Access access(int param) { return Access.READ_WRITE; }
    /** A KernelContext kernel runs on its grid; one whose @Parallel loops use the context for atomicAdd alone is called once. */
    @Override public boolean explicit() { return contextParam >= 0 && !(workIr != null && workIr.launch() instanceof dev.loopjit.ir.Launch.Loops); }
    /** One "iteration" per parallel loop: the method runs once, whatever the loops' counts; a WorkerGrid must still have their number of dimensions. */
    @Override public long[] loopCounts(Object[] args) {
      long[] ones = new long[loops];
      java.util.Arrays.fill(ones, 1);
      return ones;
    }
  }
}
