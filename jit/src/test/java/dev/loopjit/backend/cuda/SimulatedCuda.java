// A CUDA driver written in Java for machines without a GPU: device memory in native memory, kernels run by PtxSimulator.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.loopjit.runtime.Settings;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One simulated device, {@code cuda:0}, behind the same {@link Cuda} interface as the NVIDIA driver:
 * {@code -Dloopjit.cuda.library=java:dev.loopjit.backend.cuda.SimulatedCuda}. It keeps the driver's
 * rules the runtime depends on, so that breaking one fails a test here rather than on a GPU: a
 * context must be current on the calling thread; handles must be live; device memory starts as
 * garbage (0x5A bytes), and a kernel touching memory outside an allocation fails the launch;
 * host registration is per page, so two arrays sharing a page cannot both be pinned; block and
 * grid limits are an H100's; PTX that does not decode is refused with a JIT log. Launches run
 * to completion inside {@code cuLaunchKernel} on {@link PtxSimulator}. What it cannot check: the
 * binary interface of the real library (CudaHeaderTest checks our signatures against cuda.h) and
 * the hardware's timing.
 */
public final class SimulatedCuda implements Cuda {
  static final String NAME = "LoopJIT PTX simulator (no GPU)";
  static final long TOTAL_BYTES = 24L << 30, BACKED_LIMIT = 1L << 30, PAGE = 4096;

  // The CUresult codes it returns.
  static final int INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, INVALID_IMAGE = 200, INVALID_CONTEXT = 201,
      INVALID_PTX = 218, INVALID_HANDLE = 400, NOT_FOUND = 500, NOT_READY = 600, HOST_MEMORY_ALREADY_REGISTERED = 712,
      HOST_MEMORY_NOT_REGISTERED = 713, LAUNCH_FAILED = 719;
  private static final Map<Integer, String[]> ERRORS = Map.ofEntries(
      Map.entry(SUCCESS, new String[] {"CUDA_SUCCESS", "no error"}),
      Map.entry(INVALID_VALUE, new String[] {"CUDA_ERROR_INVALID_VALUE", "invalid argument"}),
      Map.entry(OUT_OF_MEMORY, new String[] {"CUDA_ERROR_OUT_OF_MEMORY", "out of memory"}),
      Map.entry(NOT_INITIALIZED, new String[] {"CUDA_ERROR_NOT_INITIALIZED", "initialization error"}),
      Map.entry(INVALID_IMAGE, new String[] {"CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"}),
      Map.entry(INVALID_CONTEXT, new String[] {"CUDA_ERROR_INVALID_CONTEXT", "invalid device context"}),
      Map.entry(INVALID_PTX, new String[] {"CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"}),
      Map.entry(INVALID_HANDLE, new String[] {"CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"}),
      Map.entry(NOT_FOUND, new String[] {"CUDA_ERROR_NOT_FOUND", "named symbol not found"}),
      Map.entry(NOT_READY, new String[] {"CUDA_ERROR_NOT_READY", "device not ready"}),
      Map.entry(HOST_MEMORY_ALREADY_REGISTERED, new String[] {"CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
          "part or all of the requested memory range is already mapped"}),
      Map.entry(HOST_MEMORY_NOT_REGISTERED, new String[] {"CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "pointer does not correspond to a registered memory region"}),
      Map.entry(LAUNCH_FAILED, new String[] {"CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"}));
  private static final byte[] CUBIN_MAGIC = "\u007fELF LoopJIT simulated cubin\n".getBytes(StandardCharsets.ISO_8859_1);
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  /** A context; a launch that fails loses it, as a fault does on a GPU: every later call in it fails, until the primary context is reset. */
  private static final class Context {
    final int device;
    boolean lost;

    Context(int device) {
      this.device = device;
    }
  }

  private record Module(PtxSimulator kernel) {}

  private record Function(PtxSimulator kernel) {}

  /** The dynamic shared memory each function has opted in to (cuFuncSetAttribute), by its handle; 48 KiB less its static part otherwise. */
  private final Map<Long, Integer> maxDynamicShared = new HashMap<>();

  private record Stream() {}

  private static final class Event {
    long nanos = -1;
  }

  private static final class Link {
    final int n;
    final MemorySegment options, values;
    final Arena arena = Arena.ofShared();
    String ptx;

    Link(int n, MemorySegment options, MemorySegment values) {
      this.n = n;
      this.options = options;
      this.values = values;
    }
  }

  private record Allocation(long base, long size, MemorySegment data, Arena arena) {}

  private boolean initialized;
  private final Map<Long, Object> handles = new HashMap<>();
  private long nextHandle = 0x5100;
  private Context context = new Context(0);
  private MemorySegment contextHandle;
  private final ThreadLocal<Context> current = new ThreadLocal<>();
  private final TreeMap<Long, Allocation> memory = new TreeMap<>();
  private long nextAddress = 0x7000_0000_0000L, allocated;
  private final TreeMap<Long, long[]> registered = new TreeMap<>();   // first page -> {end page, host address}
  private final Map<String, MemorySegment> strings = new HashMap<>();
  private String lastLaunchFailure = "";
  // A kernel's fault, as NVIDIA's driver keeps one: the launch succeeds (it is queued), the next synchronizing call
  // reports the fault, and from then on every call does, a new context included, until the process exits.
  private int fault = SUCCESS;
  private boolean faultReported;
  private final DeviceMemory global = new DeviceMemory();

  public SimulatedCuda() {
    contextHandle = handle(context);
  }

  private MemorySegment handle(Object o) {
    long h = nextHandle;
    nextHandle += 16;
    handles.put(h, o);
    return MemorySegment.ofAddress(h);
  }

  private <T> T live(MemorySegment h, Class<T> type) {
    Object o = handles.get(h.address());
    return type.isInstance(o) ? type.cast(o) : null;
  }

  /** Why a call cannot run in this thread's context: none current, a fault already reported (sticky, as on a GPU), or a context reset since; else SUCCESS. */
  private int contextError() {
    Context c = current.get();
    return c == null ? INVALID_CONTEXT : faultReported ? fault : c.lost ? LAUNCH_FAILED : SUCCESS;
  }

  /** {@link #contextError()} for a call that waits for the device: it is where a queued kernel's fault shows first. */
  private int syncError() {
    if (current.get() != null && fault != SUCCESS) faultReported = true;
    return contextError();
  }

  @SuppressWarnings("restricted")   // the runtime hands over pointers of the sizes C would
  private static MemorySegment sized(MemorySegment s, long bytes) {
    return s.byteSize() >= bytes ? s : s.reinterpret(bytes);
  }

  // ---- initialisation and devices ----

  @Override
  public synchronized int init(int flags) {
    if (flags != 0) return INVALID_VALUE;
    initialized = true;
    return SUCCESS;
  }

  @Override
  public synchronized int driverGetVersion(MemorySegment version) {
    sized(version, 4).set(JAVA_INT, 0, 13000);
    return SUCCESS;
  }

  @Override
  public synchronized int deviceGetCount(MemorySegment count) {
    if (!initialized) return NOT_INITIALIZED;
    sized(count, 4).set(JAVA_INT, 0, 1);
    return SUCCESS;
  }

  @Override
  public synchronized int deviceGet(MemorySegment device, int ordinal) {
    if (ordinal != 0) return INVALID_VALUE;
    sized(device, 4).set(JAVA_INT, 0, 0);
    return SUCCESS;
  }

  @Override
  public synchronized int deviceGetName(MemorySegment name, int len, int device) {
    if (device != 0 || len < 1) return INVALID_VALUE;
    byte[] b = NAME.getBytes(StandardCharsets.US_ASCII);
    int n = Math.min(b.length, len - 1);
    MemorySegment out = sized(name, len);
    MemorySegment.copy(b, 0, out, JAVA_BYTE, 0, n);
    out.set(JAVA_BYTE, n, (byte) 0);
    return SUCCESS;
  }

  @Override
  public synchronized int deviceGetAttribute(MemorySegment value, int attribute, int device) {
    if (device != 0) return INVALID_VALUE;
    int v;
    switch (attribute) {
      case ATTR_MAX_THREADS_PER_BLOCK, ATTR_MAX_BLOCK_DIM_X, ATTR_MAX_BLOCK_DIM_Y -> v = 1024;
      case ATTR_MAX_BLOCK_DIM_Z -> v = 64;
      case ATTR_MAX_GRID_DIM_X -> v = Integer.MAX_VALUE;
      case ATTR_MAX_GRID_DIM_Y, ATTR_MAX_GRID_DIM_Z -> v = 65535;
      case ATTR_MAX_SHARED_MEMORY_PER_BLOCK -> v = 48 * 1024;
      case ATTR_WARP_SIZE -> v = 32;
      case ATTR_CLOCK_RATE -> v = 1_980_000;
      case ATTR_MULTIPROCESSOR_COUNT -> v = 132;
      case ATTR_INTEGRATED -> v = 0;
      case ATTR_ASYNC_ENGINE_COUNT -> v = 2;
      case ATTR_UNIFIED_ADDRESSING, ATTR_HOST_REGISTER_SUPPORTED -> v = 1;
      case ATTR_COMPUTE_CAPABILITY_MAJOR -> v = 9;
      case ATTR_COMPUTE_CAPABILITY_MINOR -> v = 0;
      case ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN -> v = 227 * 1024;
      default -> {
        return INVALID_VALUE;
      }
    }
    sized(value, 4).set(JAVA_INT, 0, v);
    return SUCCESS;
  }

  @Override
  public synchronized int deviceTotalMem(MemorySegment bytes, int device) {
    if (device != 0) return INVALID_VALUE;
    sized(bytes, 8).set(JAVA_LONG, 0, TOTAL_BYTES);
    return SUCCESS;
  }

  @Override
  public synchronized int primaryCtxRetain(MemorySegment ctx, int device) {
    if (!initialized) return NOT_INITIALIZED;
    if (fault != SUCCESS) return fault;   // as NVIDIA's driver answers after a fault, a reset or not
    if (device != 0) return INVALID_VALUE;
    sized(ctx, 8).set(ADDRESS, 0, contextHandle);
    return SUCCESS;
  }

  @Override
  public synchronized int primaryCtxRelease(int device) {
    return device == 0 ? SUCCESS : INVALID_VALUE;
  }

  /** Destroys the primary context's state: its memory and registrations go; the old handle stays lost; the next retain gets a fresh context, unless a kernel faulted. */
  @Override
  public synchronized int primaryCtxReset(int device) {
    if (device != 0) return INVALID_VALUE;
    context.lost = true;
    for (Allocation a : memory.values()) a.arena().close();
    memory.clear();
    allocated = 0;
    registered.clear();
    maxDynamicShared.clear();
    context = new Context(0);
    contextHandle = handle(context);
    return SUCCESS;
  }

  @Override
  public synchronized int ctxSetCurrent(MemorySegment ctx) {
    if (ctx.equals(MemorySegment.NULL)) {
      current.remove();
      return SUCCESS;
    }
    Context c = live(ctx, Context.class);
    if (c == null) return INVALID_CONTEXT;
    current.set(c);
    return SUCCESS;
  }

  @Override
  public synchronized int memGetInfo(MemorySegment free, MemorySegment total) {
    if (contextError() != SUCCESS) return contextError();
    sized(free, 8).set(JAVA_LONG, 0, TOTAL_BYTES - allocated);
    sized(total, 8).set(JAVA_LONG, 0, TOTAL_BYTES);
    return SUCCESS;
  }

  // ---- modules: PTX (or our cubin of it) decoded by the simulator ----

  @SuppressWarnings("restricted")
  private static String cString(MemorySegment s) {
    return (s.byteSize() == 0 ? s.reinterpret(Long.MAX_VALUE) : s).getString(0, StandardCharsets.ISO_8859_1);
  }

  /** Writes {@code text} into the log buffer of option {@code buffer} (size in option {@code size}), as the JIT does. */
  private static void log(int n, MemorySegment options, MemorySegment values, int buffer, int size, String text) {
    MemorySegment opts = sized(options, 4L * n), vals = sized(values, 8L * n);
    MemorySegment into = null;
    long capacity = 0;
    int sizeSlot = -1;
    for (int i = 0; i < n; i++) {
      int o = opts.getAtIndex(JAVA_INT, i);
      if (o == buffer) into = vals.getAtIndex(ADDRESS, i);
      if (o == size) {
        capacity = vals.getAtIndex(JAVA_LONG, i);
        sizeSlot = i;
      }
    }
    if (into == null || capacity <= 0) return;
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    int len = (int) Math.min(b.length, capacity - 1);
    MemorySegment out = sized(into, capacity);
    MemorySegment.copy(b, 0, out, JAVA_BYTE, 0, len);
    out.set(JAVA_BYTE, len, (byte) 0);
    vals.setAtIndex(JAVA_LONG, sizeSlot, len + 1);
  }

  /** The kernel of {@code ptx}, or null after writing why into the error log. */
  private static PtxSimulator decode(String ptx, int n, MemorySegment options, MemorySegment values) {
    try {
      PtxSimulator k = new PtxSimulator(ptx, !Settings.options().fastMath());
      if (!ptx.contains(".version") || !ptx.contains(".target"))
        throw new PtxSimulator.Invalid("no .version or .target directive");
      log(n, options, values, JIT_INFO_LOG_BUFFER, JIT_INFO_LOG_BUFFER_SIZE_BYTES,
          "info    : simulated JIT: entry " + k.entry + ", " + k.code.size() + " instructions");
      return k;
    } catch (PtxSimulator.Invalid | NumberFormatException e) {
      log(n, options, values, JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
          "ptx simulated JIT: error   : " + e.getMessage() + "\nptx simulated JIT: fatal   : Ptx assembly aborted due to errors");
      return null;
    }
  }

  @Override
  public synchronized int moduleLoadDataEx(MemorySegment module, MemorySegment image, int n, MemorySegment options, MemorySegment values) {
    if (contextError() != SUCCESS) return contextError();
    String text = cString(image);
    if (text.startsWith("\u007fELF")) {
      String magic = new String(CUBIN_MAGIC, StandardCharsets.ISO_8859_1);
      if (!text.startsWith(magic)) return INVALID_IMAGE;
      text = text.substring(magic.length());
    }
    PtxSimulator k = decode(text, n, options, values);
    if (k == null) return INVALID_PTX;
    sized(module, 8).set(ADDRESS, 0, handle(new Module(k)));
    return SUCCESS;
  }

  @Override
  public synchronized int moduleGetFunction(MemorySegment function, MemorySegment module, MemorySegment name) {
    if (contextError() != SUCCESS) return contextError();
    Module m = live(module, Module.class);
    if (m == null) return INVALID_HANDLE;
    if (!m.kernel().entry.equals(cString(name))) return NOT_FOUND;
    sized(function, 8).set(ADDRESS, 0, handle(new Function(m.kernel())));
    return SUCCESS;
  }

  @Override
  public synchronized int moduleUnload(MemorySegment module) {
    if (contextError() != SUCCESS) return contextError();
    if (live(module, Module.class) == null) return INVALID_HANDLE;
    handles.remove(module.address());
    return SUCCESS;
  }

  @Override
  public synchronized int funcGetAttribute(MemorySegment value, int attribute, MemorySegment function) {
    if (contextError() != SUCCESS) return contextError();
    if (live(function, Function.class) == null) return INVALID_HANDLE;
    if (attribute != FUNC_MAX_THREADS_PER_BLOCK) return INVALID_VALUE;
    sized(value, 4).set(JAVA_INT, 0, 1024);
    return SUCCESS;
  }

  @Override
  public synchronized int funcSetAttribute(MemorySegment function, int attribute, int value) {
    if (contextError() != SUCCESS) return contextError();
    Function f = live(function, Function.class);
    if (f == null) return INVALID_HANDLE;
    // As the driver: only the dynamic shared memory opt-in, and no more than the device's opt-in less the static part.
    if (attribute != FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES || value < 0 || (long) value + f.kernel().staticSharedBytes() > 227 * 1024)
      return INVALID_VALUE;
    maxDynamicShared.put(function.address(), value);
    return SUCCESS;
  }

  @Override
  public synchronized int linkCreate(int n, MemorySegment options, MemorySegment values, MemorySegment state) {
    if (contextError() != SUCCESS) return contextError();
    sized(state, 8).set(ADDRESS, 0, handle(new Link(n, options, values)));
    return SUCCESS;
  }

  @Override
  public synchronized int linkAddData(MemorySegment state, int type, MemorySegment data, long size, MemorySegment name) {
    if (contextError() != SUCCESS) return contextError();
    Link l = live(state, Link.class);
    if (l == null) return INVALID_HANDLE;
    String ptx = cString(data);
    if (type != JIT_INPUT_PTX || size != ptx.length() + 1L) return INVALID_VALUE;   // PTX is passed with its NUL
    if (decode(ptx, l.n, l.options, l.values) == null) return INVALID_PTX;
    l.ptx = ptx;
    return SUCCESS;
  }

  @Override
  public synchronized int linkComplete(MemorySegment state, MemorySegment cubin, MemorySegment size) {
    if (contextError() != SUCCESS) return contextError();
    Link l = live(state, Link.class);
    if (l == null) return INVALID_HANDLE;
    if (l.ptx == null) return INVALID_VALUE;
    byte[] ptx = l.ptx.getBytes(StandardCharsets.ISO_8859_1);
    MemorySegment image = l.arena.allocate(CUBIN_MAGIC.length + ptx.length);
    MemorySegment.copy(CUBIN_MAGIC, 0, image, JAVA_BYTE, 0, CUBIN_MAGIC.length);
    MemorySegment.copy(ptx, 0, image, JAVA_BYTE, CUBIN_MAGIC.length, ptx.length);
    sized(cubin, 8).set(ADDRESS, 0, image);
    sized(size, 8).set(JAVA_LONG, 0, image.byteSize());
    return SUCCESS;
  }

  @Override
  public synchronized int linkDestroy(MemorySegment state) {
    Link l = live(state, Link.class);
    if (l == null) return INVALID_HANDLE;
    handles.remove(state.address());
    l.arena.close();   // the cubin goes with the link state, as the driver's does
    return SUCCESS;
  }

  // ---- device memory ----

  @Override
  public synchronized int memAlloc(MemorySegment pointer, long bytes) {
    if (contextError() != SUCCESS) return contextError();
    if (bytes <= 0) return INVALID_VALUE;
    if (bytes > TOTAL_BYTES - allocated) return OUT_OF_MEMORY;
    Arena arena = null;
    MemorySegment data = null;
    if (bytes <= BACKED_LIMIT) {   // larger ones are address space only: a kernel touching them fails
      arena = Arena.ofShared();
      data = arena.allocate(bytes, 256);
      data.fill((byte) 0x5A);   // device memory is not cleared
    }
    long base = nextAddress;
    nextAddress += (bytes + PAGE - 1) / PAGE * PAGE + PAGE;   // a guard page between allocations
    memory.put(base, new Allocation(base, bytes, data, arena));
    allocated += bytes;
    sized(pointer, 8).set(JAVA_LONG, 0, base);
    return SUCCESS;
  }

  @Override
  public synchronized int memFree(long pointer) {
    if (contextError() != SUCCESS) return contextError();
    Allocation a = memory.remove(pointer);
    if (a == null) return INVALID_VALUE;
    allocated -= a.size();
    if (a.arena() != null) a.arena().close();
    return SUCCESS;
  }

  /** The backed bytes [pointer, pointer + bytes) of one allocation, or null. */
  private MemorySegment device(long pointer, long bytes) {
    var e = memory.floorEntry(pointer);
    if (e == null) return null;
    Allocation a = e.getValue();
    long off = pointer - a.base();
    if (a.data() == null || off + bytes > a.size()) return null;
    return a.data().asSlice(off, bytes);
  }

  private boolean validStream(MemorySegment stream) {
    return stream.equals(MemorySegment.NULL) || live(stream, Stream.class) != null;
  }

  private int copy(MemorySegment from, MemorySegment to, long bytes) {
    if (from == null || to == null) return INVALID_VALUE;
    MemorySegment.copy(from, 0, to, 0, bytes);
    return SUCCESS;
  }

  @Override
  public synchronized int memcpyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
    if (contextError() != SUCCESS) return contextError();
    if (!validStream(stream)) return INVALID_HANDLE;
    return copy(sized(src, bytes), device(dst, bytes), bytes);
  }

  @Override
  public synchronized int memcpyDtoHAsync(MemorySegment dst, long src, long bytes, MemorySegment stream) {
    if (contextError() != SUCCESS) return contextError();
    if (!validStream(stream)) return INVALID_HANDLE;
    return copy(device(src, bytes), sized(dst, bytes), bytes);
  }

  @Override
  public synchronized int memcpyHtoD(long dst, MemorySegment src, long bytes) {
    if (syncError() != SUCCESS) return syncError();
    return copy(sized(src, bytes), device(dst, bytes), bytes);
  }

  @Override
  public synchronized int memcpyDtoH(MemorySegment dst, long src, long bytes) {
    if (syncError() != SUCCESS) return syncError();
    return copy(device(src, bytes), sized(dst, bytes), bytes);
  }

  @Override
  public synchronized int memHostRegister(MemorySegment p, long bytes, int flags) {
    if (contextError() != SUCCESS) return contextError();
    if (flags != MEMHOSTREGISTER_PORTABLE || bytes <= 0 || !p.isNative()) return INVALID_VALUE;
    long first = p.address() / PAGE, end = (p.address() + bytes + PAGE - 1) / PAGE;
    var below = registered.floorEntry(end - 1);
    if (below != null && below.getValue()[0] > first) return HOST_MEMORY_ALREADY_REGISTERED;   // pages overlap
    registered.put(first, new long[] {end, p.address()});
    return SUCCESS;
  }

  @Override
  public synchronized int memHostUnregister(MemorySegment p) {
    if (contextError() != SUCCESS) return contextError();
    var e = registered.get(p.address() / PAGE);
    if (e == null || e[1] != p.address()) return HOST_MEMORY_NOT_REGISTERED;
    registered.remove(p.address() / PAGE);
    return SUCCESS;
  }

  // ---- streams and events: everything runs when it is issued, so a stream is always complete ----

  @Override
  public synchronized int streamCreate(MemorySegment stream, int flags) {
    if (contextError() != SUCCESS) return contextError();
    if (flags != STREAM_DEFAULT) return INVALID_VALUE;
    sized(stream, 8).set(ADDRESS, 0, handle(new Stream()));
    return SUCCESS;
  }

  @Override
  public synchronized int streamSynchronize(MemorySegment stream) {
    if (syncError() != SUCCESS) return syncError();
    return validStream(stream) ? SUCCESS : INVALID_HANDLE;
  }

  @Override
  public synchronized int streamDestroy(MemorySegment stream) {
    if (contextError() != SUCCESS) return contextError();
    if (live(stream, Stream.class) == null) return INVALID_HANDLE;
    handles.remove(stream.address());
    return SUCCESS;
  }

  @Override
  public synchronized int eventCreate(MemorySegment event, int flags) {
    if (contextError() != SUCCESS) return contextError();
    if (flags != EVENT_DEFAULT) return INVALID_VALUE;
    sized(event, 8).set(ADDRESS, 0, handle(new Event()));
    return SUCCESS;
  }

  @Override
  public synchronized int eventRecord(MemorySegment event, MemorySegment stream) {
    if (contextError() != SUCCESS) return contextError();
    Event e = live(event, Event.class);
    if (e == null || !validStream(stream)) return INVALID_HANDLE;
    e.nanos = System.nanoTime();
    return SUCCESS;
  }

  @Override
  public synchronized int eventSynchronize(MemorySegment event) {
    if (syncError() != SUCCESS) return syncError();
    return live(event, Event.class) == null ? INVALID_HANDLE : SUCCESS;
  }

  @Override
  public synchronized int eventElapsedTime(MemorySegment milliseconds, MemorySegment start, MemorySegment end) {
    if (contextError() != SUCCESS) return contextError();
    Event a = live(start, Event.class), b = live(end, Event.class);
    if (a == null || b == null) return INVALID_HANDLE;
    if (a.nanos < 0 || b.nanos < 0) return NOT_READY;
    sized(milliseconds, 4).set(JAVA_FLOAT, 0, (b.nanos - a.nanos) / 1e6f);
    return SUCCESS;
  }

  @Override
  public synchronized int eventDestroy(MemorySegment event) {
    if (live(event, Event.class) == null) return INVALID_HANDLE;
    handles.remove(event.address());
    return SUCCESS;
  }

  // ---- launches ----

  @Override
  public synchronized int launchKernel(MemorySegment function, int gx, int gy, int gz, int bx, int by, int bz, int sharedBytes,
      MemorySegment stream, MemorySegment params) {
    if (contextError() != SUCCESS) return contextError();
    Function f = live(function, Function.class);
    if (f == null || !validStream(stream)) return INVALID_HANDLE;
    if (gx < 1 || gy < 1 || gz < 1 || bx < 1 || by < 1 || bz < 1 || bx > 1024 || by > 1024 || bz > 64 || (long) bx * by * bz > 1024
        || gy > 65535 || gz > 65535 || sharedBytes < 0)
      return INVALID_VALUE;
    PtxSimulator k = f.kernel();
    // Static plus dynamic shared memory within the 48 KiB a block gets without opting in, or the dynamic part within the opt-in.
    if (sharedBytes > 0 && (long) k.staticSharedBytes() + sharedBytes > 48 * 1024 && sharedBytes > maxDynamicShared.getOrDefault(function.address(), 0))
      return INVALID_VALUE;
    int n = k.paramTypes.size();
    long[] bits = new long[n];
    MemorySegment pointers = sized(params, 8L * n);
    for (int i = 0; i < n; i++) {
      int size = Math.max(1, PtxInstructionSet.width(k.paramTypes.get(i)) / 8);
      bits[i] = bitsAt(sized(pointers.getAtIndex(ADDRESS, i), size), size);
    }
    if (fault != SUCCESS) return SUCCESS;   // queued behind a fault: a GPU's stream never runs it
    try {
      k.launch(new int[] {gx, gy, gz}, new int[] {bx, by, bz}, new PtxSimulator.Launch(bits, global), sharedBytes);
      return SUCCESS;
    } catch (RuntimeException | AssertionError e) {
      lastLaunchFailure = e.getMessage();
      fault = LAUNCH_FAILED;   // sticky, and reported where the launch is waited for, as on a GPU
      return SUCCESS;
    }
  }

  /** The little-endian value of {@code size} bytes at the start of {@code s}, zero-extended. */
  private static long bitsAt(MemorySegment s, int size) {
    return switch (size) {
      case 1 -> s.get(JAVA_BYTE, 0) & 0xFFL;
      case 2 -> s.get(JAVA_SHORT_UNALIGNED.withOrder(LE), 0) & 0xFFFFL;
      case 4 -> s.get(JAVA_INT_UNALIGNED.withOrder(LE), 0) & 0xFFFFFFFFL;
      default -> s.get(JAVA_LONG_UNALIGNED.withOrder(LE), 0);
    };
  }

  /** Global memory for kernels: the backed allocations, nothing else. */
  private final class DeviceMemory implements PtxSimulator.Memory {
    private MemorySegment at(long address, int size) {
      MemorySegment s = device(address, size);
      if (s == null) throw new AssertionError(String.format("a kernel accessed %d bytes at 0x%X, outside every allocation", size, address));
      return s;
    }

    @Override
    public long read(long address, int size) {
      return bitsAt(at(address, size), size);
    }

    @Override
    public void write(long address, int size, long value) {
      MemorySegment s = at(address, size);
      switch (size) {
        case 1 -> s.set(JAVA_BYTE, 0, (byte) value);
        case 2 -> s.set(JAVA_SHORT_UNALIGNED.withOrder(LE), 0, (short) value);
        case 4 -> s.set(JAVA_INT_UNALIGNED.withOrder(LE), 0, (int) value);
        default -> s.set(JAVA_LONG_UNALIGNED.withOrder(LE), 0, value);
      }
    }
  }

  // ---- errors ----

  private MemorySegment cStringOf(String s) {
    return strings.computeIfAbsent(s, k -> Arena.global().allocateFrom(k));
  }

  @Override
  public synchronized int getErrorName(int code, MemorySegment name) {
    String[] e = ERRORS.get(code);
    if (e == null) return INVALID_VALUE;
    sized(name, 8).set(ADDRESS, 0, cStringOf(e[0]));
    return SUCCESS;
  }

  @Override
  public synchronized int getErrorString(int code, MemorySegment string) {
    String[] e = ERRORS.get(code);
    if (e == null) return INVALID_VALUE;
    String text = code == LAUNCH_FAILED && !lastLaunchFailure.isEmpty() ? e[1] + " (simulator: " + lastLaunchFailure + ")" : e[1];
    sized(string, 8).set(ADDRESS, 0, cStringOf(text));
    return SUCCESS;
  }
}
