// Device events waiting to be read, at the end of an execution, into the Timings of the operations they measure.
package dev.loopjit.spi;

import java.util.ArrayList;
import java.util.List;

/**
 * The events ({@code E}: an OpenCL event, a pair of CUDA events) of enqueued copies and launches.
 * Each belongs to a {@link Timing} handed out when the operation was enqueued; {@link #finish}
 * reads every event's device time into its timing and releases it, so timings are valid after the
 * runtime's {@code finish()} and no event outlives it.
 */
public final class PendingTimings<E> {
  /** How the driver reads and releases an event. */
  public interface Reader<E> {
    /** The device time the event measured, or a negative number when it has none. */
    long nanos(E event);

    /** Releases the event (never throws). */
    void release(E event);
  }

  /** A timing that sums the device times of its events. */
  public static final class Sum implements Timing {
    private long nanos;

    @Override
    public long nanos() {
      return nanos;
    }
  }

  private record Entry<E>(E event, Sum timing) {}

  private final List<Entry<E>> pending = new ArrayList<>();

  /** A new timing measured by {@code event}. */
  public Sum add(E event) {
    return add(event, new Sum());
  }

  /** Adds {@code event}'s time to {@code timing} (an operation of several commands) and returns it. */
  public Sum add(E event, Sum timing) {
    pending.add(new Entry<>(event, timing));
    return timing;
  }

  /** Reads every pending event into its timing and releases it, even when reading fails. */
  public void finish(Reader<E> reader) {
    try {
      for (Entry<E> e : pending) {
        try {
          long ns = reader.nanos(e.event());
          if (ns > 0) e.timing().nanos += ns;
        } finally {
          reader.release(e.event());
        }
      }
    } finally {
      pending.clear();
    }
  }

  /** Events not yet read, for tests. */
  public int size() {
    return pending.size();
  }
}
