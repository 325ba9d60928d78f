// What each executor JVM keeps between Spark tasks: per training run and partition, its rows on the device and the compiled step.
package dev.loopjit.spark;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The executor side's cache. A training run makes one worker per partition the first time a task
 * of that partition runs in this JVM (reading the partition's rows, compiling the step, which the
 * engine's kernel cache makes quick after the first), and later rounds find it here, so a round
 * copies only the broadcast parameters. A partition retried on another executor builds its worker
 * there from the partition's rows, the same rows, so the result is the same. {@code local[N]} runs
 * every task as a thread of one JVM: the map is shared, one worker per partition.
 */
final class Workers {
  private static final ConcurrentHashMap<String, AutoCloseable> BY_KEY = new ConcurrentHashMap<>();

  private Workers() {}

  /** The worker of {@code run}'s partition, made by {@code make} if this JVM has none yet. */
  @SuppressWarnings("unchecked")
  static <T extends AutoCloseable> T get(String run, int partition, Supplier<T> make) {
    return (T) BY_KEY.computeIfAbsent(run + "/" + partition, k -> make.get());
  }

  /** Closes and forgets every worker of {@code run} in this JVM (its device buffers and plans). */
  static void closeRun(String run) {
    for (String key : BY_KEY.keySet())
      if (key.startsWith(run + "/")) {
        AutoCloseable w = BY_KEY.remove(key);
        if (w != null) {
          try {
            w.close();
          } catch (Exception e) {
            System.getLogger("dev.loopjit.spark").log(System.Logger.Level.WARNING, "closing " + key + ": " + e);
          }
        }
      }
  }

  /** How many workers this JVM holds (tests). */
  static int size() {
    return BY_KEY.size();
  }
}
