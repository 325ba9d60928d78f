// The jvm-mt device runtime: Java-array copies of the host arrays, kernels as hidden classes, launches split over the cores.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.api.Device;
import dev.loopjit.api.KernelArithmeticException;
import dev.loopjit.api.KernelUnsupportedValueException;
import dev.loopjit.api.KernelIndexOutOfBoundsException;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.spi.BuildFailure;
import dev.loopjit.spi.CompiledKernel;
import dev.loopjit.spi.CompilingRuntime;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.DeviceKernel;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.LaunchValues;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.ProgramCache;
import dev.loopjit.spi.Timing;
import dev.loopjit.spi.WorkGroups;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Device memory is a Java array per host array ({@code float[]} for a {@code FloatArray},
 * {@code short[]} of fp16 bits for a {@code HalfFloatArray}, the flat storage of a collection such
 * as a {@code Matrix2DFloat}), copied in and out at memory speed
 * (large copies split over the cores); kernels never touch host memory, so a kernel that throws
 * leaves the host arrays as they were, and transfer modes mean what they mean on a GPU. A launch
 * runs on the calling thread and the pool, and has finished when {@link #launch} returns.
 */
final class JvmMtRuntime extends CompilingRuntime<GeneratedKernel, JvmMtRuntime.Handle> {
  /** The one jvm-mt device. */
  static final JvmMtDevice DEVICE = new JvmMtDevice(Cores.parallelism());

  /** Copies of at least this many bytes are split over the cores. */
  private static final long PARALLEL_COPY_BYTES = 4L << 20;

  /** Every class defined in this process, by code: a second plan finds the first plan's kernels. */
  private static final ProgramCache<GeneratedKernel> CLASSES = new ProgramCache<>(new Definer(), "jvm-mt", language -> ".txt", ".class",
      List.of("jvm-mt", Runtime.version().toString()));

  /**
   * A kernel ready to launch: its class, and whether its work-items meet at barriers on threads of
   * their own (a kernel with barriers that {@link Fission} fits runs its groups as loops instead).
   */
  record Handle(GeneratedKernel kernel, boolean threads) {}

  /** A Java array holding one host array's data. */
  record Buffer(HostArray host, Object array) implements DeviceBuffer {
    @Override public boolean inPlace() { return false; }
    @Override public void release() {}
  }

  JvmMtRuntime(Device device, Options options) {
    // Defining a hidden class is the whole "driver build", so its cache lives in memory only.
    super(device, JvmMtRecipe.INSTANCE, options.with("cacheDir", "off"), CLASSES);
  }

  @Override
  protected CompiledKernel<Handle> createKernel(GeneratedKernel program, DeviceCode code, String task) {
    boolean threads = usesBarriers(code.ir()) && Fission.of(code.ir()) == null;
    return new CompiledKernel<>(code, new Handle(program, threads), task, device.maxWorkGroupSize());
  }

  @Override
  protected WorkGroups.Limits limits(CompiledKernel<Handle> kernel) {
    long max = device.maxWorkGroupSize();
    return new WorkGroups.Limits(true, device.computeUnits(), max, new long[] {max, max, max});
  }

  @Override
  public DeviceBuffer allocate(HostArray host, boolean inPlace) {
    Object a = host.array();
    int n = host.length();
    Object array = switch (host.element()) {
      case BOOLEAN -> new boolean[n];
      case BYTE -> new byte[n];
      case CHAR -> new char[n];
      case SHORT, HALF -> new short[n];
      case INT -> new int[n];
      case LONG -> new long[n];
      case FLOAT -> new float[n];
      case DOUBLE -> new double[n];
    };
    if (!host.offHeap() && !host.cell() && a.getClass() != array.getClass())
      throw new IllegalStateException("no jvm-mt representation for " + host.describe());
    return new Buffer(host, array);
  }

  @Override
  protected Timing copy(DeviceBuffer buffer, boolean toDevice) {
    long t0 = System.nanoTime();
    Buffer b = (Buffer) buffer;
    Object host = b.host().array();
    int n = b.host().length();
    if (b.host().cell()) {   // an AtomicInteger: its value, to and from the device's int[1]
      if (toDevice) b.host().copyTo(MemorySegment.ofArray((int[]) b.array()));
      else b.host().copyFrom(MemorySegment.ofArray((int[]) b.array()));
      return Timing.of(System.nanoTime() - t0);
    }
    int elementBytes = b.host().element() == Prim.BOOLEAN ? 1 : b.host().element().bytes();
    int pieces = (long) n * elementBytes >= PARALLEL_COPY_BYTES ? Cores.parallelism() : 1;
    Cores.forEach(pieces, p -> {
      int from = (int) ((long) n * p / pieces), to = (int) ((long) n * (p + 1) / pieces);
      if (b.host().offHeap()) {
        MemorySegment s = b.host().segment();   // a NativeArray's, or a collection's flat storage
        ValueLayout layout = layout(b.host().element());
        if (toDevice) MemorySegment.copy(s, layout, (long) from * elementBytes, b.array(), from, to - from);
        else MemorySegment.copy(b.array(), from, s, layout, (long) from * elementBytes, to - from);
      } else if (toDevice) {
        System.arraycopy(host, from, b.array(), from, to - from);
      } else {
        System.arraycopy(b.array(), from, host, from, to - from);
      }
    });
    return Timing.of(System.nanoTime() - t0);
  }

  private static ValueLayout layout(Prim element) {
    return switch (element) {
      case BYTE, BOOLEAN -> ValueLayout.JAVA_BYTE;
      case CHAR -> ValueLayout.JAVA_CHAR;
      case SHORT, HALF -> ValueLayout.JAVA_SHORT;
      case INT -> ValueLayout.JAVA_INT;
      case LONG -> ValueLayout.JAVA_LONG;
      case FLOAT -> ValueLayout.JAVA_FLOAT;
      case DOUBLE -> ValueLayout.JAVA_DOUBLE;
    };
  }

  /** Java's own message for an array index out of bounds. */
  private static final Pattern JAVA_MESSAGE = Pattern.compile("Index (-?\\d+) out of bounds for length (\\d+)");

  @Override
  public Timing launch(DeviceKernel k, Object[] args, Grid grid) {
    CompiledKernel<Handle> kernel = kernel(k);
    WorkGroups.Shape shape = kernel.explicit() ? shape(kernel, grid) : null;
    List<LaunchValues.Local> locals = LaunchValues.locals(kernel.ir(), args, shape == null ? null : shape.groupSize(), kernel.task());
    if (!locals.isEmpty()) LaunchValues.checkLocalMemory(kernel.constantLocalBytes(), locals, device, kernel.task());
    Object[] bound = bind(kernel.ir(), args, grid, locals);
    long t0 = System.nanoTime();
    try {
      if (shape != null) {
        long[] global = {1, 1, 1};
        System.arraycopy(shape.global(), 0, global, 0, shape.dims());
        Cores.groups(kernel.handle().kernel(), bound, shape.groups(), shape.groupSize(), global, kernel.handle().threads());
      } else {
        if (options.flag("threadInfo")) System.out.println("task " + kernel.task() + " on " + device.id() + ": " + chunking(grid.counts()));
        Cores.chunks(kernel.handle().kernel(), bound, grid.counts());
      }
    } catch (Failures.Thrown e) {
      KernelArithmeticException named = new KernelArithmeticException(kernel.task(), e.getMessage(), e.source(), device.id());
      named.initCause(e);
      throw named;
    } catch (Failures.Unsupported e) {
      KernelUnsupportedValueException named = new KernelUnsupportedValueException(kernel.task(), e.method, e.value, e.source, device.id());
      named.initCause(e);
      throw named;
    } catch (ArrayIndexOutOfBoundsException e) {
      Matcher m = JAVA_MESSAGE.matcher(e.getCause() != null ? String.valueOf(e.getCause().getMessage()) : "");
      if (!(e instanceof Failures.Named n) || !m.find()) throw Failures.inTask(e, kernel.task());
      KernelIndexOutOfBoundsException named = new KernelIndexOutOfBoundsException(kernel.task(), n.array(), Integer.parseInt(m.group(1)),
          Integer.parseInt(m.group(2)), n.source(), device.id());
      named.initCause(e);
      throw named;
    }
    return Timing.of(System.nanoTime() - t0);
  }

  /** How a range of {@code counts} iterations is cut, for {@code threadInfo}: e.g. {@code "1000×1000 iterations in 1×8 chunks over 2 threads"}. */
  private static String chunking(long[] counts) {
    long[] chunks = Cores.chunkGrid(counts, Cores.parallelism());
    StringBuilder its = new StringBuilder(), cut = new StringBuilder();
    for (int d = 0; d < counts.length; d++) {
      its.append(d == 0 ? "" : "×").append(counts[d]);
      cut.append(d == 0 ? "" : "×").append(chunks[d]);
    }
    return its + " iterations in " + cut + " chunks over " + Cores.parallelism() + " threads";
  }

  /**
   * The generated kernel's arguments: the device arrays, lengths, values (as their stack type),
   * trip counts, collection shapes and the lengths of the local arrays sized at launch ({@code locals},
   * in the IR's order), in the IR's order.
   */
  private static Object[] bind(KernelIR ir, Object[] args, Grid grid, List<LaunchValues.Local> locals) {
    List<KernelArg> list = ir.args();
    Object[] out = new Object[list.size()];
    int local = 0;
    for (int k = 0; k < out.length; k++) {
      out[k] = switch (list.get(k)) {
        case KernelArg.Array a -> ((Buffer) args[a.param()]).array();
        case KernelArg.Length l -> ((Buffer) args[l.param()]).host().length();
        case KernelArg.Scalar s -> stackValue(args[s.param()]);
        case KernelArg.Count c -> (int) grid.counts()[c.dim()];
        case KernelArg.Computed c -> LaunchValues.computed(ir, c, args, ir.name());
        case KernelArg.Local l -> Math.toIntExact(locals.get(local++).length());
      };
    }
    return out;
  }

  private static Object stackValue(Object v) {
    return switch (v) {
      case Boolean b -> b ? 1 : 0;
      case Byte b -> (int) b;
      case Short s -> (int) s;
      case Character c -> (int) c;
      default -> v;
    };
  }

  private static boolean usesBarriers(KernelIR ir) {
    boolean[] found = {false};
    new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Expr.Call c && c.op().isBarrier()) found[0] = true;
        return e;
      }
    }.rewrite(ir.body());
    return found[0];
  }

  @Override
  public void finish() {}

  @Override
  public void close() {
    releaseKernels();
  }

  /** Defines each kernel's class as a hidden class of this package, and makes its instance. */
  private static final class Definer implements ProgramCache.Driver<GeneratedKernel> {
    @Override
    public ProgramCache.Compiled<GeneratedKernel> compile(DeviceCode code, String options, boolean wantBinary) {
      return new ProgramCache.Compiled<>(load(code.binary(), options), code.binary());
    }

    @Override
    public GeneratedKernel load(byte[] binary, String options) {
      try {
        Class<?> c = MethodHandles.lookup().defineHiddenClass(binary, true).lookupClass();
        return (GeneratedKernel) c.getDeclaredConstructor().newInstance();
      } catch (ReflectiveOperationException | LinkageError e) {
        throw new BuildFailure(e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
      }
    }

    @Override
    public void release(GeneratedKernel program) {}
  }
}
