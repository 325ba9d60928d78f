// Device allocations of one device by exact byte size, reused across plans: every driver's allocate and free are slow.
package dev.loopjit.spi;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * Free device allocations of one device ({@code H} is the driver's handle), by exact byte size. A
 * released allocation is kept while the free bytes stay within a quarter of the device's memory;
 * beyond that it goes back to the driver. When the driver runs out of memory the pool frees what
 * it holds and tries once more before reporting it, naming the array, its size and the device.
 * Thread-safe.
 */
public final class BufferPool<H> {
  /** What the driver does for the pool. */
  public interface Driver<H> {
    /** A new allocation of {@code bytes}, or null when the device is out of memory (other errors throw). */
    H allocate(long bytes);

    /** Gives an allocation back to the driver. */
    void free(H handle);

    /** The backend's exception for an allocation that cannot be made, with this message. */
    RuntimeException outOfMemory(String message);

    /** Extra words for an out-of-memory message, such as {@code " (120 MiB free now)"}. */
    default String freeMemory() {
      return "";
    }
  }

  private final Driver<H> driver;
  private final String device;
  private final long memoryBytes, maxAllocationBytes, budget;
  private final Map<Long, ArrayDeque<H>> free = new HashMap<>();
  private long freeBytes;

  /**
   * @param device             the device, for messages
   * @param memoryBytes        the device's memory (a quarter of it may be kept free here)
   * @param maxAllocationBytes the largest allocation the device takes (0: no limit but its memory)
   */
  public BufferPool(Driver<H> driver, String device, long memoryBytes, long maxAllocationBytes) {
    this.driver = driver;
    this.device = device;
    this.memoryBytes = memoryBytes;
    this.maxAllocationBytes = maxAllocationBytes > 0 ? maxAllocationBytes : memoryBytes;
    this.budget = Math.max(0, memoryBytes / 4);
  }

  /** An allocation of exactly {@code bytes}, kept or new; {@code what} names the array for messages. */
  public H take(long bytes, String what) {
    synchronized (this) {
      ArrayDeque<H> q = free.get(bytes);
      if (q != null && !q.isEmpty()) {
        freeBytes -= bytes;
        return q.pop();
      }
    }
    return create(bytes, what, driver::allocate);
  }

  /**
   * A new allocation made by {@code attempt} (null when out of memory), never kept: checked against
   * the device's limits first, retried once after giving back what the pool holds.
   */
  public H create(long bytes, String what, LongFunction<H> attempt) {
    if (bytes > maxAllocationBytes && maxAllocationBytes > 0) throw driver.outOfMemory(tooBig(what, bytes));
    H h = attempt.apply(bytes);
    if (h == null) {
      drain();
      h = attempt.apply(bytes);
    }
    if (h == null) throw driver.outOfMemory(tooBig(what, bytes) + driver.freeMemory());
    return h;
  }

  /** Returns an allocation {@link #take} gave out: kept for reuse, or freed when the pool holds enough. */
  public void give(H handle, long bytes) {
    synchronized (this) {
      if (freeBytes + bytes <= budget) {
        free.computeIfAbsent(bytes, b -> new ArrayDeque<>()).push(handle);
        freeBytes += bytes;
        return;
      }
    }
    driver.free(handle);
  }

  /** Gives every kept allocation back to the driver. */
  public void drain() {
    List<H> all = new ArrayList<>();
    synchronized (this) {
      for (ArrayDeque<H> q : free.values()) all.addAll(q);
      free.clear();
      freeBytes = 0;
    }
    for (H h : all) driver.free(h);
  }

  /** Free bytes kept, for tests. */
  public synchronized long freeBytes() {
    return freeBytes;
  }

  private String tooBig(String what, long bytes) {
    return "cannot allocate " + bytes + " bytes for " + what + " on " + device + ": the device has " + (memoryBytes >> 20)
        + " MiB of memory" + (maxAllocationBytes < memoryBytes ? " and takes buffers of at most " + (maxAllocationBytes >> 20) + " MiB" : "");
  }
}
