// One partition's part of a training round (rows, loss, count-weighted sums of vectors), and their sum in partition order over a fixed tree.
package dev.loopjit.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * What partition (or group of partitions) {@code index} adds to a round: how many rows it used,
 * the sum of their losses, and for each vector it reports (gradients; or parameters, state and
 * optimizer state) its mean over those rows (a partition's, as floats) or its sum over them (a
 * group's, in double precision); {@code computeNanos} is the longest time a partition among them
 * spent computing.
 *
 * <p>Why not Spark's {@code treeAggregate}: it merges partial results in the order tasks finish, so
 * two runs of the same training (or a run with a retried task) could round differently. Here the
 * tree has the same shape as {@code treeAggregate}'s at depth 2 (groups of ⌈√P⌉ partitions summed
 * on executors when that saves the driver work), but every sum adds its parts in partition order:
 * the same data, seed and partitions give the same bits, whatever the timing.
 */
record Contribution(int index, long rows, double loss, float[][] means, double[][] sums, long computeNanos) implements Serializable {
  /** A partition with no rows this round: it counts for nothing. */
  static Contribution none(int index, long computeNanos) {
    return new Contribution(index, 0, 0, null, null, computeNanos);
  }

  /**
   * Partition {@code index}'s {@code rows} rows with loss sum {@code loss} and the given per-row
   * means, each to be weighted by {@code rows}. A partition sends its means as floats (half the
   * bytes of the double sums); the sums start where they are added.
   */
  static Contribution of(int index, long rows, double loss, long computeNanos, float[]... means) {
    return new Contribution(index, rows, loss, means, null, computeNanos);
  }

  /** The count-weighted mean of vector {@code v} as floats: its sum over the rows divided by them. */
  float[] mean(int v) {
    double[] s = sums[v];
    float[] m = new float[s.length];
    for (int i = 0; i < s.length; i++) m[i] = (float) (s[i] / rows);
    return m;
  }

  /** The sum of {@code parts}, added in the order of their index, as contribution {@code index}. */
  static Contribution inOrder(int index, Iterable<Contribution> parts) {
    List<Contribution> sorted = new ArrayList<>();
    parts.forEach(sorted::add);
    sorted.sort(Comparator.comparingInt(Contribution::index));
    long rows = 0, nanos = 0;
    double loss = 0;
    double[][] sums = null;
    for (Contribution c : sorted) {
      nanos = Math.max(nanos, c.computeNanos);
      if (c.rows == 0) continue;
      rows += c.rows;
      loss += c.loss;
      int vectors = c.means != null ? c.means.length : c.sums.length;
      if (sums == null) {
        sums = new double[vectors][];
        for (int v = 0; v < vectors; v++) sums[v] = new double[c.means != null ? c.means[v].length : c.sums[v].length];
      }
      for (int v = 0; v < vectors; v++) {
        double[] s = sums[v];
        if (c.means != null) {
          float[] m = c.means[v];
          for (int i = 0; i < s.length; i++) s[i] += (double) m[i] * c.rows;
        } else {
          double[] t = c.sums[v];
          for (int i = 0; i < s.length; i++) s[i] += t[i];
        }
      }
    }
    return new Contribution(index, rows, loss, null, sums, nanos);
  }

  /** The sum of the {@code partitions} contributions of a round's RDD, on the fixed tree the class comment describes. */
  static Contribution total(JavaRDD<Contribution> parts, int partitions) {
    int scale = Math.max((int) Math.ceil(Math.sqrt(partitions)), 2);
    JavaRDD<Contribution> level = parts;
    int n = partitions;
    while (n > scale + (n + scale - 1) / scale) {   // as treeAggregate: a level only where it takes work off the driver
      int groups = (n + scale - 1) / scale, s = scale;
      level = level.mapToPair(c -> new Tuple2<>(c.index() / s, c)).groupByKey(groups).map(g -> inOrder(g._1(), g._2()));
      n = groups;
    }
    return inOrder(0, level.collect());
  }
}
