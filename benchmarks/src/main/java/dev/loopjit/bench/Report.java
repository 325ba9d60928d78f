// Turns JMH's JSON results into the markdown table of docs/PERFORMANCE.md: ms/op, device ÷ jvm, and GFLOP/s or GB/s.
package dev.loopjit.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * {@code java -cp benchmarks.jar dev.loopjit.bench.Report results.json [more.json ...]} prints one
 * row per workload and device: the jvm baseline, the device with transfers and kernel only (each
 * with its time divided by the jvm's: below 1 is faster), the first call, and the rates; then the
 * experiments (LocalSize, CodeShape, the training step) one row per run. The tornado-tasks library
 * benchmarks ({@code Library*}) have a table of their own, {@link LibraryReport}. With
 * {@code --chart FILE}, the side-by-side speedups are also drawn to {@code FILE.png} and {@code FILE.svg} ({@link Chart}).
 */
public final class Report {
  /** What a workload's size means: a name, and the work of one operation in flops or bytes. */
  private record Work(String name, String unit, ToDoubleFunction<Map<String, Double>> amount) {}

  private static final Map<String, Work> WORK = Map.of(
      "VectorAdd", new Work("vector add", "GB/s", p -> 12 * p.get("n")),               // read a, b; write c
      "Saxpy", new Work("saxpy", "GB/s", p -> 12 * p.get("n")),                        // read x, y; write y
      "Copy", new Work("copy", "GB/s", p -> 8 * p.get("n")),                           // read in; write out
      "MatVec", new Work("matrix-vector", "GFLOP/s", p -> 2 * p.get("n") * p.get("n")),
      "MatMul", new Work("naive matmul", "GFLOP/s", p -> 2 * p.get("n") * p.get("n") * p.get("n")),
      "DenseForward", new Work("dense forward", "GFLOP/s", p -> 2 * p.get("batch") * p.get("in") * p.get("out")));

  /** One JMH result. */
  record Score(String workload, String method, Map<String, String> params, double ms, double error, double min, double median) {}

  private Report() {}

  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      System.err.println("usage: Report [--chart FILE-WITHOUT-EXTENSION] RESULTS.json [MORE.json ...]   (JMH -rf json output)");
      System.exit(2);
    }
    List<Score> scores = new ArrayList<>();
    String jdk = "";
    Path chart = null;
    List<String> files = new ArrayList<>(List.of(args));
    if (files.size() >= 2 && files.get(0).equals("--chart")) {
      chart = Path.of(files.get(1));
      files = files.subList(2, files.size());
    }
    for (String a : files) {
      for (Object o : (List<?>) Json.parse(Files.readString(Path.of(a)))) {
        Map<?, ?> r = (Map<?, ?>) o;
        jdk = r.get("jdkVersion") + " (" + r.get("vmName") + " " + r.get("vmVersion") + ")";
        scores.add(score(r));
      }
    }
    System.out.println("JDK " + jdk + "\n");
    String side = sideBySide(scores), main = table(scores), more = experiments(scores);
    StringBuilder out = new StringBuilder(side);
    for (String t : new String[] {main, more}) if (!t.isEmpty()) out.append(out.isEmpty() ? "" : "\n").append(t);
    System.out.print(out);
    if (chart != null) Chart.speedups(sideBySideData(scores), jdk, chart);
  }

  private static Score score(Map<?, ?> r) {
    String name = (String) r.get("benchmark");
    String[] parts = name.split("\\.");
    Map<String, String> params = new TreeMap<>();
    if (r.get("params") instanceof Map<?, ?> p) p.forEach((k, v) -> params.put((String) k, (String) v));
    Map<?, ?> m = (Map<?, ?>) r.get("primaryMetric");
    double scale = switch ((String) m.get("scoreUnit")) {
      case "s/op" -> 1e3;
      case "ms/op" -> 1;
      case "us/op" -> 1e-3;
      case "ns/op" -> 1e-6;
      default -> throw new IllegalArgumentException(name + ": unit " + m.get("scoreUnit") + " is not a time per operation");
    };
    Map<?, ?> pct = m.get("scorePercentiles") instanceof Map<?, ?> q ? q : Map.of();
    return new Score(parts[parts.length - 2], parts[parts.length - 1], params, number(m.get("score")) * scale,
        number(m.get("scoreError")) * scale, number(pct.get("0.0")) * scale, number(pct.get("50.0")) * scale);
  }

  private static double number(Object o) {
    return o instanceof Double d ? d : Double.NaN;   // JMH writes "NaN" (a string) for the error of one sample
  }

  /** The main table: one row per workload, size and device. */
  static String table(List<Score> scores) {
    Map<String, Map<String, Score>> rows = new LinkedHashMap<>();   // "workload|size|device" -> method -> score
    Map<String, Score> jvm = new LinkedHashMap<>();                 // "workload|size" -> jvm score
    for (Score s : scores) {
      if (!WORK.containsKey(s.workload())) continue;
      String size = size(s.params());
      if (s.method().equals("jvm")) jvm.put(s.workload() + "|" + size, s);
      else if (DEVICE_METHODS.contains(s.method())) rows.computeIfAbsent(s.workload() + "|" + size + "|" + s.params().get("device"), k -> new LinkedHashMap<>()).put(s.method(), s);
    }
    StringBuilder b = new StringBuilder();
    if (rows.isEmpty() && jvm.isEmpty()) return "";
    b.append("| workload | size | device | jvm ms/op | with transfers ms/op | ÷ jvm | kernel only ms/op | ÷ jvm | first call ms | rate: jvm / with transfers / kernel only |\n");
    b.append("|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (var row : rows.entrySet()) {
      String[] key = row.getKey().split("\\|");
      Work w = WORK.get(key[0]);
      Score base = jvm.get(key[0] + "|" + key[1]);
      Score copying = row.getValue().get("withTransfers"), kernel = row.getValue().get("kernelOnly"), first = row.getValue().get("firstCall");
      Score any = base != null ? base : row.getValue().values().iterator().next();
      double work = w.amount().applyAsDouble(numbers(any.params()));
      b.append("| ").append(w.name()).append(" | ").append(key[1]).append(" | ").append(key[2]).append(" | ")
          .append(ms(base)).append(" | ").append(ms(copying)).append(" | ").append(ratio(copying, base)).append(" | ")
          .append(ms(kernel)).append(" | ").append(ratio(kernel, base)).append(" | ").append(first == null ? "–" : fmt(first.ms()))
          .append(" | ").append(rate(work, base)).append(" / ").append(rate(work, copying)).append(" / ").append(rate(work, kernel))
          .append(' ').append(w.unit()).append(" |\n");
    }
    for (var e : jvm.entrySet())   // a jvm baseline with no device row (e.g. no OpenCL device)
      if (rows.keySet().stream().noneMatch(k -> k.startsWith(e.getKey() + "|"))) {
        Work w = WORK.get(e.getValue().workload());
        b.append("| ").append(w.name()).append(" | ").append(e.getKey().split("\\|")[1]).append(" | – | ").append(ms(e.getValue()))
            .append(" | – | – | – | – | – | ").append(rate(w.amount().applyAsDouble(numbers(e.getValue().params())), e.getValue()))
            .append(' ').append(w.unit()).append(" |\n");
      }
    return b.toString();
  }

  /** The benchmark methods that run a device plan; the others (jvm, parallelStreams, vectorApi) are plain Java. */
  private static final List<String> DEVICE_METHODS = List.of("withTransfers", "kernelOnly", "firstCall");

  /**
   * The side-by-side table: per workload, the sequential Java loop, the plain-Java
   * baselines (parallel streams on every core, the Vector API by hand on one) and each device's
   * kernel-only time (inputs resident), each with its speed-up over the sequential loop; the
   * training step's {@code jvm} row is its baseline.
   */
  /**
   * The side-by-side comparison: per workload and size ("workload|size"), the score of each column —
   * {@code jvm} (the sequential loop), {@code parallelStreams}, {@code vectorApi}, then each device's
   * kernel only — and those columns in order (the baselines first).
   */
  record SideBySide(Map<String, Map<String, Score>> rows, List<String> columns) {
    /** The row's display name and size. */
    static String[] label(String row) {
      String[] key = row.split("\\|", -1);
      return new String[] {WORK.containsKey(key[0]) ? WORK.get(key[0]).name() : key[0], key[1].isEmpty() ? "–" : key[1]};
    }

    /** The sequential loop's time divided by the column's (above 1: faster), or NaN where either is missing. */
    double speedup(String row, String column) {
      Score base = rows.get(row).get("jvm"), x = rows.get(row).get(column);
      return base == null || x == null ? Double.NaN : base.ms() / x.ms();
    }
  }

  static SideBySide sideBySideData(List<Score> scores) {
    Map<String, Map<String, Score>> rows = new LinkedHashMap<>();   // "workload|size" -> column -> score
    List<String> devices = new ArrayList<>();
    for (Score s : scores) {
      String column;
      String workload = s.workload();
      if (WORK.containsKey(workload) && !workload.equals("Copy")) {
        column = switch (s.method()) {
          case "jvm", "parallelStreams", "vectorApi", "aparapi" -> s.method();
          case "kernelOnly" -> s.params().get("device");
          default -> null;
        };
      } else if (workload.equals("TrainingStepBenchmark")) {
        column = "jvm".equals(s.params().get("device")) ? "jvm" : s.params().get("device");
        workload = "training step";
      } else {
        column = null;
      }
      if (column == null) continue;
      if (!List.of("jvm", "parallelStreams", "vectorApi", "aparapi").contains(column) && !devices.contains(column)) devices.add(column);
      rows.computeIfAbsent(workload + "|" + size(s.params()), k -> new LinkedHashMap<>()).put(column, s);
    }
    List<String> columns = new ArrayList<>(List.of("parallelStreams", "vectorApi"));
    if (rows.values().stream().anyMatch(r -> r.containsKey("aparapi"))) columns.add("aparapi");   // the peer, when it ran
    columns.addAll(devices);
    return new SideBySide(rows, columns);
  }

  static String sideBySide(List<Score> scores) {
    SideBySide data = sideBySideData(scores);
    Map<String, Map<String, Score>> rows = data.rows();
    List<String> columns = data.columns();
    if (rows.isEmpty()) return "";
    StringBuilder b = new StringBuilder("| workload | size | jvm (1 thread) ms |");
    for (String c : columns) b.append(' ').append(title(c)).append(" |");
    b.append("\n|---|---|---:|").append("---:|".repeat(columns.size())).append('\n');
    for (var row : rows.entrySet()) {
      String[] label = SideBySide.label(row.getKey());
      Score base = row.getValue().get("jvm");
      b.append("| ").append(label[0]).append(" | ").append(label[1]).append(" | ").append(ms(base)).append(" |");
      for (String c : columns) {
        Score x = row.getValue().get(c);
        b.append(' ').append(x == null ? "–" : fmt(x.ms()) + (base == null ? "" : " (" + String.format(Locale.ROOT, "%.2f×", base.ms() / x.ms()) + ")"))
            .append(" |");
      }
      b.append('\n');
    }
    return b.append("\n(N×: the sequential loop's time divided by this one's, above 1 is faster.)\n").toString();
  }

  /** A side-by-side column's heading. */
  static String title(String column) {
    return switch (column) {
      case "parallelStreams" -> "parallel streams";
      case "vectorApi" -> "Vector API (1 thread)";
      case "aparapi" -> "Aparapi 3.0.2 (OpenCL, resident)";
      default -> column + " kernel only";
    };
  }

  /** Experiments beyond the main table (LocalSize, CodeShape): one row per run, with the rate of the workload the method names. */
  static String experiments(List<Score> scores) {
    Map<String, String> workOf = Map.of("vectorAdd", "VectorAdd", "matvec", "MatVec", "matmul", "MatMul", "dense", "DenseForward");
    StringBuilder b = new StringBuilder();
    for (Score s : scores) {
      if (WORK.containsKey(s.workload()) || s.workload().startsWith("Library")) continue;   // Library*: LibraryReport's table
      if (b.isEmpty()) b.append("| benchmark | settings | device | mean ms/op | fastest ms | median ms | rate |\n|---|---|---|---:|---:|---:|---|\n");
      Work w = workOf.containsKey(s.method()) ? WORK.get(workOf.get(s.method())) : null;
      StringBuilder settings = new StringBuilder();
      s.params().forEach((k, v) -> {
        if (!k.equals("device")) settings.append(settings.isEmpty() ? "" : " ").append(k).append('=').append(v);
      });
      b.append("| ").append(s.workload()).append('.').append(s.method()).append(" | ").append(settings).append(" | ")
          .append(s.params().get("device")).append(" | ").append(ms(s)).append(" | ").append(fmt(s.min())).append(" | ")
          .append(fmt(s.median())).append(" | ")
          .append(w == null ? "–" : rate(w.amount().applyAsDouble(numbers(s.params())), s) + " " + w.unit()).append(" |\n");
    }
    return b.toString();
  }

  /** The size parameters, e.g. "n=1024" or "batch=256 in=784 out=256"; the device is a column of its own. */
  private static String size(Map<String, String> params) {
    StringBuilder b = new StringBuilder();
    params.forEach((k, v) -> {
      if (!k.equals("device") && !k.equals("local")) b.append(b.isEmpty() ? "" : " ").append(k).append('=').append(v);
    });
    return b.toString();
  }

  private static Map<String, Double> numbers(Map<String, String> params) {
    Map<String, Double> m = new TreeMap<>();
    params.forEach((k, v) -> {
      try {
        m.put(k, Double.parseDouble(v));
      } catch (NumberFormatException e) {
        // not a size (the device id): no part of the work
      }
    });
    return m;
  }

  private static String ms(Score s) {
    if (s == null) return "–";
    return Double.isNaN(s.error()) ? fmt(s.ms()) : fmt(s.ms()) + " ± " + fmt(s.error());
  }

  private static String ratio(Score device, Score jvm) {
    return device == null || jvm == null ? "–" : String.format(Locale.ROOT, "%.2f", device.ms() / jvm.ms());
  }

  private static String rate(double work, Score s) {
    return s == null ? "–" : fmt(work / (s.ms() * 1e-3) / 1e9);
  }

  /** Three significant digits, no exponent. */
  private static String fmt(double v) {
    if (Double.isNaN(v)) return "–";
    double a = Math.abs(v);
    return String.format(Locale.ROOT, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", v);
  }
}
