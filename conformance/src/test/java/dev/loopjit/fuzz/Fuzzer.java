// The fuzzing loop: generate kernels from consecutive seeds, compile them in batches, run them everywhere, minimise what fails.
package dev.loopjit.fuzz;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.fuzz.Differential.Finding;
import dev.loopjit.fuzz.Differential.Outcome;
import dev.loopjit.testing.MemoryClassLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs kernel after kernel ({@link KernelGenerator}, seeds {@code first, first + 1, ...}) on the
 * jvm and every device ({@link Differential}), counting what ran where. Each new problem — a
 * device whose results differ, that throws, refuses the kernel or does not finish — is shrunk by
 * the {@link Minimizer} and written to {@code out} as a self-contained {@link Reproducer}; further
 * kernels with the same problem are counted and their seeds listed. A device that hung is not used
 * again in this run (its thread is lost).
 */
final class Fuzzer {
  private static final int BATCH = 20;

  private final List<Where> places;
  private final Device jvm = Devices.jvm();
  private final Path out;
  private final Duration limit;
  private final PrintStream log;
  private final int minimiseAttempts;
  private final int reproducersPerProblem;
  private final Set<String> hung = new HashSet<>();
  /** Only compile each kernel for every target ({@link OfflineCheck}), run nothing. */
  private final boolean compileOnly = Boolean.getBoolean("fuzz.compileOnly");

  /** What a run did. */
  static final class Stats {
    long kernels, invalid, rejectedByJavac;
    /** Kernels the jvm refused (a loop that would not keep Java's meaning), and every device with it. */
    long refusedEverywhere;
    final Map<String, Long> refusedByShape = new TreeMap<>();
    /** Kernels whose Math.*Exact overflowed on the jvm, and on every device with it. */
    long threwEverywhere;
    /** The first seed not tried yet, where a later run can go on. */
    long nextSeed;
    final Map<String, Long> runsByDevice = new TreeMap<>();
    final Map<String, Long> byShape = new TreeMap<>();
    /** Each distinct problem (signature) and the seeds that showed it. */
    final Map<String, List<Long>> problems = new LinkedHashMap<>();
    final Map<String, String> details = new LinkedHashMap<>();
    final List<Path> reproducers = new ArrayList<>();
    final List<String> invalidExamples = new ArrayList<>();
    long millis;

    /** One paragraph for a person. */
    String summary() {
      StringBuilder s = new StringBuilder();
      s.append(kernels).append(" kernels in ").append(millis / 1000).append(" s; runs per device ").append(runsByDevice)
          .append("; shapes ").append(byShape).append("; ").append(invalid).append(" invalid, ").append(rejectedByJavac)
          .append(" rejected by javac; ").append(refusedEverywhere).append(" refused alike everywhere ").append(refusedByShape).append("; ").append(threwEverywhere).append(" threw ArithmeticException alike; ").append(problems.size()).append(" distinct problem(s)");
      problems.forEach((sig, seeds) -> s.append("\n  ").append(sig).append(": ").append(seeds.size()).append(" kernel(s), seeds ")
          .append(seeds.subList(0, Math.min(seeds.size(), 8))));
      for (Path p : reproducers) s.append("\n  reproducer: ").append(p);
      return s.toString();
    }
  }

  /**
   * @param places                where to compare with the jvm (the jvm itself is skipped)
   * @param out                   where reproducers go (null: do not minimise or write them)
   * @param limit                 how long one run on one device may take
   * @param minimiseAttempts      edits the minimiser may try per problem
   * @param reproducersPerProblem how many kernels of one problem are minimised and written
   */
  Fuzzer(List<Where> places, Path out, Duration limit, PrintStream log, int minimiseAttempts, int reproducersPerProblem) {
    this.places = List.copyOf(places);
    this.out = out;
    this.limit = limit;
    this.log = log;
    this.minimiseAttempts = minimiseAttempts;
    this.reproducersPerProblem = reproducersPerProblem;
  }

  /** Kernels from seed {@code first} on, until {@code count} ran or {@code deadline} passed. */
  Stats run(long first, long count, Instant deadline) {
    Stats st = new Stats();
    long start = System.nanoTime();
    for (long seed = first; seed < first + count && Instant.now().isBefore(deadline); seed += BATCH) {
      List<FuzzKernel> batch = new ArrayList<>();
      for (long s = seed; s < Math.min(seed + BATCH, first + count); s++) batch.add(KernelGenerator.generate(s, className(s)));
      Map<FuzzKernel, Serializable> tasks = compile(batch, st);
      for (FuzzKernel k : batch) {
        if (!Instant.now().isBefore(deadline)) break;
        if (tasks.containsKey(k)) one(k, tasks.get(k), st);
        st.nextSeed = k.seed() + 1;
      }
    }
    st.millis = (System.nanoTime() - start) / 1_000_000;
    return st;
  }

  static String className(long seed) {
    return "K" + Long.toUnsignedString(seed, 36);
  }

  private void one(FuzzKernel k, Serializable task, Stats st) {
    List<Where> live = places.stream().filter(w -> !hung.contains(w.id())).toList();
    Outcome o = compileOnly ? offline(k, task) : Differential.run(k, task, jvm, live, limit);
    if (o.invalid() != null) {
      st.invalid++;
      if (st.invalidExamples.size() < 5) st.invalidExamples.add("seed " + k.seed() + ": " + o.invalid());
      return;
    }
    st.kernels++;
    if (o.threw()) st.threwEverywhere++;
    if (o.refused()) {
      st.refusedEverywhere++;
      st.refusedByShape.merge(k.shape().name(), 1L, Long::sum);
    }
    st.byShape.merge(k.shape().name(), 1L, Long::sum);
    for (String d : o.ranOn()) st.runsByDevice.merge(d, 1L, Long::sum);
    for (Finding f : o.findings()) {
      if (f.kind().equals("hangs")) hung.add(f.device());
      List<Long> seeds = st.problems.computeIfAbsent(f.signature(), x -> new ArrayList<>());
      seeds.add(k.seed());
      st.details.putIfAbsent(f.signature(), f.detail());
      log.println("seed " + k.seed() + " (" + k.shape() + "): " + f.signature() + "\n    " + f.detail().lines().limit(3).reduce((a, b) -> a + "\n    " + b).orElse(""));
      if (out != null && seeds.size() <= reproducersPerProblem && !f.kind().equals("hangs")) reproduce(k, f, st);
    }
  }

  /** The offline check as an outcome: "ran" on every compile target. */
  private static Outcome offline(FuzzKernel k, Serializable task) {
    Finding f = OfflineCheck.check(k, task);
    return new Outcome(null, f == null ? List.of() : List.of(f), OfflineCheck.PLACES);
  }

  private void reproduce(FuzzKernel k, Finding f, Stats st) {
    if (compileOnly) {
      FuzzKernel small = Minimizer.minimise(k, c -> {
        try {
          Finding g = OfflineCheck.check(c, compileOne(c));
          return g != null && g.signature().equals(f.signature());
        } catch (RuntimeException e) {
          return false;
        }
      }, minimiseAttempts);
      write(k, small, f, st);
      return;
    }
    Where d = Where.parse(f.device());
    FuzzKernel small = Minimizer.minimise(k, c -> {
      Serializable task;
      try {
        task = compileOne(c);
      } catch (RuntimeException e) {
        return false;
      }
      Outcome o = Differential.run(c, task, jvm, List.of(d), limit);
      return o.invalid() == null && o.findings().stream().anyMatch(x -> x.signature().equals(f.signature()));
    }, minimiseAttempts);
    // the finding as the minimal kernel shows it
    Finding shown = f;
    try {
      Outcome o = Differential.run(small, compileOne(small), jvm, List.of(d), limit);
      shown = o.findings().stream().filter(x -> x.signature().equals(f.signature())).findFirst().orElse(f);
    } catch (RuntimeException e) {
      // keep the original description
    }
    write(k, small, shown, st);
  }

  private void write(FuzzKernel k, FuzzKernel small, Finding shown, Stats st) {
    Finding f = shown;
    String name = "Repro_" + f.device().replaceAll("[^A-Za-z0-9]", "") + "_" + f.kind() + "_" + Long.toUnsignedString(k.seed(), 36);
    try {
      Files.createDirectories(out);
      Path p = out.resolve(name + ".java");
      Files.writeString(p, Reproducer.source(small, name, shown));
      st.reproducers.add(p);
      log.println("    minimised from " + k.size() + " to " + small.size() + " nodes: " + p);
    } catch (IOException e) {
      log.println("    could not write the reproducer: " + e);
    }
  }

  /** Compiles a batch in one javac call; when javac refuses, kernel by kernel, dropping those it refuses. */
  private Map<FuzzKernel, Serializable> compile(List<FuzzKernel> batch, Stats st) {
    Map<FuzzKernel, Serializable> tasks = new LinkedHashMap<>();
    Map<String, String> sources = new LinkedHashMap<>();
    for (FuzzKernel k : batch) sources.put("fuzz." + k.className(), k.source());
    try {
      MemoryClassLoader loader = SourceCompiler.compile(sources);
      for (FuzzKernel k : batch) tasks.put(k, task(loader, k));
      return tasks;
    } catch (SourceCompiler.CompileError e) {
      for (FuzzKernel k : batch) {
        try {
          tasks.put(k, compileOne(k));
        } catch (SourceCompiler.CompileError one) {
          st.rejectedByJavac++;
          if (st.invalidExamples.size() < 5) st.invalidExamples.add("seed " + k.seed() + " does not compile: " + one.getMessage());
        }
      }
      return tasks;
    }
  }

  static Serializable compileOne(FuzzKernel k) {
    return task(SourceCompiler.compile(Map.of("fuzz." + k.className(), k.source())), k);
  }

  private static Serializable task(MemoryClassLoader loader, FuzzKernel k) {
    try {
      return (Serializable) loader.loadClass("fuzz." + k.className()).getField("TASK").get(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
