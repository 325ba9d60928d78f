// The command line: `loopjit devices` lists devices; `loopjit dump` prints generated code with no device, or the schedule of a plan;
// `loopjit train` is nn-layers' TrainCommand, `loopjit embed` and `loopjit classify` the embeddings module's commands, `loopjit spark-train` the spark
// module's SparkTrainCommand, found by name so that the engine does not depend on them.
package dev.loopjit.cli;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.Profile;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.runtime.Backends;
import dev.loopjit.runtime.DeviceLimits;
import dev.loopjit.runtime.LoopJitEngine;
import dev.loopjit.runtime.Settings;
import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Entry point of {@code scripts/loopjit}. */
public final class Main {
  private static final String USAGE = """
      usage: loopjit devices [--probe]
             loopjit run [--class-path CP] MAIN [ARGS]   (your program with LoopJIT's jars, libjsig.so and native access)
             loopjit dump --target ir[:PASS]|opencl|ptx[:sm_XX]|spirv[:1.N]|jvm[:vector|scalar] [--class-path CP] CLASS METHOD
             loopjit dump --schedule [--device ID] [--class-path CP] CLASS METHOD
                           (METHOD: static, no arguments, returns a TaskGraph, ImmutableTaskGraph or ExecutionPlan; prints the
                           schedule its first execution would run: copies, launches, bounds checks, waits; runs nothing)
             loopjit train --dataset toy|fashion-mnist [--model mlp|cnn] [--epochs N] [--batch B] [--lr X] [--lr-decay G]
                           [--optimizer sgd|momentum|adam] [--weight-decay X] [--hidden N] [--device ID] [--seed S] [--data DIR]
                           [--train-rows N] [--save FILE] [--load FILE] [--show N] [--plot FILE.png] [--no-progress] [--profile]
                           (loopjit train with no options says what each does)
             loopjit embed [--device ID] [--batch N] [--input FILE] [--output FILE] [--model FILE.onnx --tokenizer FILE.json] [--profile]
                           [SENTENCE...]
             loopjit embed --search FILE QUERY [--top N] [--device ID] [--batch N] [--model FILE.onnx --tokenizer FILE.json] [--profile]
                           (sentence embeddings from all-MiniLM-L6-v2: one line of 384 numbers per sentence; loopjit embed --help)
             loopjit classify --train FILE [--test FILE] [--epochs N] [--layers N] [--batch N] [--max-tokens N] [--lr-head X] [--lr-blocks X]
                           [--seed S] [--device ID] [--model FILE.onnx --tokenizer FILE.json] [--input FILE] [--profile] [SENTENCE...]
                           (fine-tunes all-MiniLM-L6-v2 on LABEL<TAB>SENTENCE lines, then labels sentences; loopjit classify --help)
             loopjit spark-train --dataset fashion-mnist [--master local[N]|URL] [--partitions P] [--mode gradient|params] [--every K]
                           [--model mlp|cnn] [--epochs N] [--batch B] [--lr X] [--lr-decay G] [--optimizer sgd|momentum|adam]
                           [--weight-decay X] [--hidden N] [--device ID] [--seed S] [--data DIR] [--train-rows N] [--save FILE] [--rounds]
                           (data-parallel training on Apache Spark; loopjit spark-train with no options says what each does)
      """;

  /** What {@code loopjit} with no arguments prints: every command with all its options. */
  public static String usage() {
    return USAGE;
  }

  private Main() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.print(USAGE);
      System.exit(2);
    }
    switch (args[0]) {
      case "devices" -> System.exit(devices(Arrays.copyOfRange(args, 1, args.length)));
      case "dump" -> System.exit(dump(Arrays.copyOfRange(args, 1, args.length)));
      case "train" -> command(TRAIN_COMMAND, "train needs the nn-layers jar (loopjit-nn-layers)", Arrays.copyOfRange(args, 1, args.length));
      case "embed" -> command(EMBED_COMMAND, "embed needs the embeddings jar (loopjit-embeddings) and its dependencies",
          Arrays.copyOfRange(args, 1, args.length));
      case "classify" -> command(CLASSIFY_COMMAND, "classify needs the embeddings jar (loopjit-embeddings) and its dependencies",
          Arrays.copyOfRange(args, 1, args.length));
      case "spark-train" -> command(SPARK_TRAIN_COMMAND, "spark-train needs the spark module's jar (loopjit-spark) and Spark's jars",
          Arrays.copyOfRange(args, 1, args.length));
      case "run" -> {
        System.err.println("loopjit run is the launcher's: use scripts/loopjit run or the bundle's bin/loopjit run, which start java with "
            + "LD_PRELOAD=libjsig.so and --enable-native-access=ALL-UNNAMED");
        System.exit(2);
      }
      default -> {
        System.err.print(USAGE);
        System.exit(2);
      }
    }
  }

  private static final String TRAIN_COMMAND = "dev.loopjit.nn.TrainCommand", EMBED_COMMAND = "dev.loopjit.embeddings.EmbedCommand",
      CLASSIFY_COMMAND = "dev.loopjit.embeddings.ClassifyCommand",
      SPARK_TRAIN_COMMAND = "dev.loopjit.spark.SparkTrainCommand";

  /** Runs another module's command by its class name, so that the engine does not depend on the module. */
  private static void command(String name, String missing, String[] args) throws Exception {
    Class<?> command;
    try {
      command = Class.forName(name);
    } catch (ClassNotFoundException e) {
      System.err.println(missing + " on the class path; scripts/loopjit puts it there");
      System.exit(2);
      return;
    }
    try {
      command.getMethod("main", String[].class).invoke(null, (Object) args);
    } catch (java.lang.reflect.InvocationTargetException e) {
      if (e.getCause() instanceof Error error) throw error;
      throw (Exception) e.getCause();
    }
  }

  private static int devices(String[] args) {
    boolean probe = args.length == 1 && args[0].equals("--probe");
    if (args.length > 0 && !probe) {
      System.err.print(USAGE);
      return 2;
    }
    System.out.printf("%-10s %-44s %-4s %7s %9s  %s%n", "ID", "NAME", "KIND", "UNITS", "MEMORY", "PRECISION");
    for (Device d : Devices.all()) System.out.println(d.describe());
    for (String p : Backends.problems()) System.out.println("(" + p + ")");
    System.out.println("best: " + Devices.best().id());
    if (probe) {
      // What Profile's shares are of: measured now by the built-in probe kernels, and kept in the cache for profiles.
      System.out.printf("%nmeasured limits (copy kernel: bytes read + written per second; multiply-add kernel: float, no FMA):%n");
      System.out.printf("%-10s %12s %14s %8s%n", "ID", "COPY GB/s", "MUL+ADD GFLOP/s", "TOOK");
      var options = Settings.options();
      for (Device d : Devices.all()) {
        long t0 = System.nanoTime();
        try {
          Profile.Limits l = DeviceLimits.measure(d, options);
          System.out.printf("%-10s %12.2f %14.2f %7.1fs%n", d.id(), l.copyGigabytesPerSecond(), l.gigaflopsPerSecond(), (System.nanoTime() - t0) / 1e9);
        } catch (RuntimeException e) {
          System.out.printf("%-10s failed: %s%n", d.id(), e.getMessage() == null ? e : e.getMessage().lines().findFirst().orElse(""));
        }
      }
      var dir = options.cacheDir();
      System.out.println(dir == null ? "(not kept: loopjit.cacheDir=off)" : "kept in " + dir.resolve("limits") + " for Profile's shares");
    }
    return 0;
  }

  static int dump(String[] args) throws Exception {
    String target = "ir";
    String cp = ".";
    String device = null;
    boolean schedule = false;
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--target" -> target = args[++i];
        case "--class-path", "-cp" -> cp = args[++i];
        case "--schedule" -> schedule = true;
        case "--device" -> device = args[++i];
        default -> rest.add(args[i]);
      }
    }
    if (schedule) return schedule(cp, device, rest);
    if (rest.size() != 2) {
      System.err.print(USAGE);
      return 2;
    }
    ClassLoader loader = loader(cp);
    Class<?> owner = Class.forName(rest.get(0), false, loader);
    Method found = null;
    for (Method m : owner.getDeclaredMethods())
      if (m.getName().equals(rest.get(1)) && !m.isBridge() && !m.isSynthetic()) found = m;   // static, or an instance kernel (this::compute)
    if (found == null) {
      System.err.println("no method " + rest.get(1) + " in " + owner.getName());
      return 2;
    }
    MethodRef ref = MethodRef.of(owner, found.getName(), java.lang.invoke.MethodType.methodType(found.getReturnType(), found.getParameterTypes()).toMethodDescriptorString());
    try {
      System.out.print(LoopJitEngine.code(ref, target, Settings.options()));
    } catch (IllegalArgumentException | KernelCompilationException e) {
      System.err.println(e.getMessage());
      return 2;
    }
    return 0;
  }

  /** {@code loopjit dump --schedule}: the schedule of the plan (or graph) a static method returns, on {@code device} (default: the best). */
  private static int schedule(String cp, String device, List<String> rest) throws Exception {
    if (rest.size() != 2) {
      System.err.print(USAGE);
      return 2;
    }
    ClassLoader loader = loader(cp);
    Class<?> owner = Class.forName(rest.get(0), true, loader);
    Method m;
    try {
      m = owner.getDeclaredMethod(rest.get(1));
    } catch (NoSuchMethodException e) {
      System.err.println("no method " + rest.get(1) + "() in " + owner.getName() + ": give a static method with no arguments that returns a TaskGraph,"
          + " an ImmutableTaskGraph or an ExecutionPlan");
      return 2;
    }
    if (!java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
      System.err.println(owner.getName() + "." + m.getName() + "() is not static");
      return 2;
    }
    m.setAccessible(true);
    Object made = m.invoke(null);
    ExecutionPlan plan = switch (made) {
      case ExecutionPlan p -> p;
      case ImmutableTaskGraph g -> new ExecutionPlan(g);
      case TaskGraph g -> new ExecutionPlan(g.snapshot());
      case null, default -> null;
    };
    if (plan == null) {
      System.err.println(owner.getName() + "." + m.getName() + "() returned " + (made == null ? "null" : "a " + made.getClass().getName())
          + "; it must return a TaskGraph, an ImmutableTaskGraph or an ExecutionPlan");
      return 2;
    }
    try (plan) {
      if (device != null) plan.withDevice(Devices.get(device));
      System.out.println(plan.schedule());
    } catch (IllegalArgumentException | KernelCompilationException e) {
      System.err.println(e.getMessage());
      return 2;
    }
    return 0;
  }

  /** A loader of the classes on {@code cp} (with LoopJIT's own behind them). */
  private static ClassLoader loader(String cp) throws java.net.MalformedURLException {
    List<URL> urls = new ArrayList<>();
    for (String p : cp.split(File.pathSeparator)) urls.add(new File(p).toURI().toURL());
    return new URLClassLoader(urls.toArray(URL[]::new), Main.class.getClassLoader());
  }
}
