// Released device buffers kept by exact byte size for reuse, up to a budget: the pool both GPU runtimes share.
package dev.loopjit.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Free device allocations of one device ({@code T} is the driver's handle), by exact byte size. A
 * released allocation is kept while the free bytes stay within {@code budget}; beyond it the caller
 * frees it. Thread-safe.
 */
public final class FreeList<T> {
  private final long budget;
  private final Map<Long, ArrayDeque<T>> free = new HashMap<>();
  private long freeBytes;

  public FreeList(long budget) {
    this.budget = Math.max(0, budget);
  }

  /** A kept allocation of exactly {@code bytes}, or null. */
  public synchronized T take(long bytes) {
    ArrayDeque<T> q = free.get(bytes);
    if (q == null || q.isEmpty()) return null;
    freeBytes -= bytes;
    return q.pop();
  }

  /** Keeps {@code handle} for reuse; false when over budget (the caller frees it). */
  public synchronized boolean keep(T handle, long bytes) {
    if (freeBytes + bytes > budget) return false;
    free.computeIfAbsent(bytes, b -> new ArrayDeque<>()).push(handle);
    freeBytes += bytes;
    return true;
  }

  /** Removes and returns everything kept, for the caller to free. */
  public synchronized List<T> drain() {
    List<T> all = new ArrayList<>();
    for (ArrayDeque<T> q : free.values()) all.addAll(q);
    free.clear();
    freeBytes = 0;
    return all;
  }

  /** Free bytes kept, for tests. */
  public synchronized long freeBytes() {
    return freeBytes;
  }
}
