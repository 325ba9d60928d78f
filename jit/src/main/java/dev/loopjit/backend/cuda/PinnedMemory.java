// Page-locks off-heap arrays in place (cuMemHostRegister) so that their copies are true asynchronous DMA.
package dev.loopjit.backend.cuda;

import dev.loopjit.spi.HostArray;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/**
 * The process's registrations of NativeArray segments, counted per segment: a registration is
 * process-wide ({@code CU_MEMHOSTREGISTER_PORTABLE}, every context sees it) and the driver refuses a
 * second one of the same memory, so plans that share an array share its registration, and the
 * last to let go unregisters it. An entry holds the segment, so the GC cannot free pinned memory.
 * <p>
 * Pinning is an optimisation only: arrays under {@link #MIN_BYTES} are not worth it (and share pages
 * with their neighbours), and when the driver refuses (memory shared with another registration, a
 * limit on locked memory) the array stays pageable, which the copy functions accept too, just
 * staged and slower.
 */
final class PinnedMemory {
  /** Smaller arrays are copied from pageable memory: their copies are dominated by latency, not bandwidth. */
  static final long MIN_BYTES = 64 * 1024;

  private static final System.Logger LOG = System.getLogger("dev.loopjit.backend.cuda");

  /** The one registry of the process. */
  static final PinnedMemory PROCESS = new PinnedMemory();

  /** A registration; holding the segment keeps its (automatic) arena, so the GC cannot free pinned memory. */
  private static final class Pin {
    final MemorySegment segment;
    int users;

    Pin(MemorySegment segment) {
      this.segment = segment;
    }
  }

  private final Map<Long, Pin> pins = new HashMap<>();

  /**
   * Registers {@code h}'s memory, or counts one more user of its registration. The caller's context
   * must be current. Returns whether the memory is now pinned for this caller, who must then
   * {@link #unpin} it.
   */
  synchronized boolean pin(Cuda cuda, HostArray h) {
    if (!h.offHeap() || h.byteSize() < MIN_BYTES) return false;
    MemorySegment s = h.segment();
    Pin p = pins.get(s.address());
    if (p != null) {
      if (p.segment.byteSize() != s.byteSize()) return false;   // a view of part of a registered range
      p.users++;
      return true;
    }
    int rc = cuda.memHostRegister(s, s.byteSize(), Cuda.MEMHOSTREGISTER_PORTABLE);
    if (rc != Cuda.SUCCESS) {
      LOG.log(System.Logger.Level.DEBUG, () -> "cuMemHostRegister of " + h.describe() + " refused (" + CudaException.name(rc)
          + "); its copies stay pageable");
      return false;
    }
    p = new Pin(s);
    p.users = 1;
    pins.put(s.address(), p);
    return true;
  }

  /** Drops one user of {@code h}'s registration and unregisters it after the last. The caller's context must be current. */
  synchronized void unpin(Cuda cuda, HostArray h) {
    Pin p = pins.get(h.segment().address());
    if (p == null) throw new IllegalStateException(h.describe() + " is not pinned");
    if (--p.users > 0) return;
    pins.remove(h.segment().address());
    cuda.check(cuda.memHostUnregister(p.segment), "cuMemHostUnregister of " + h.describe());
  }

  /** The context that held every registration was reset after a fault: they are gone with it. */
  synchronized void forgetAll() {
    pins.clear();
  }

  /** Segments registered now, for tests. */
  synchronized int count() {
    return pins.size();
  }

  /** Whether {@code h}'s memory is registered now, for tests. */
  synchronized boolean pinned(HostArray h) {
    return h.offHeap() && pins.containsKey(h.segment().address());
  }
}
