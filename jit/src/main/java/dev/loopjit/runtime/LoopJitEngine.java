// LoopJIT's engine: what the public API asks, done with the backends, the compiler and the graph runner.
package dev.loopjit.runtime;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Engine;
import dev.loopjit.api.PrebuiltKernel;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.IrPrinter;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.TaskSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@link Engine} behind {@code dev.loopjit.api}, named in
 * {@code META-INF/services/dev.loopjit.api.Engine}. Settings are read here, at the edge, and
 * passed down as {@link Options}.
 */
public final class LoopJitEngine implements Engine {
  @Override
  public List<Device> devices() {
    return Backends.devices();
  }

  @Override
  public Device best() {
    String forced = Settings.device();
    List<Device> all = devices();
    if (forced != null) {
      for (Device d : all) if (d.id().equals(forced)) return d;
      throw new IllegalArgumentException("no device \"" + forced + "\" (from loopjit.device / LOOPJIT_DEVICE); available: "
          + String.join(", ", all.stream().map(Device::id).toList()));
    }
    Device best = null;
    for (Device d : all) if (best == null || rank(d) > rank(best)) best = d;
    return best;
  }

  /**
   * A CUDA GPU, then an OpenCL GPU, then an accelerator, then an OpenCL CPU, then the JVM on all
   * its cores ({@code jvm-mt}), then the sequential {@code jvm} reference.
   */
  private static int rank(Device d) {
    return switch (d.kind()) {
      case GPU -> d.backend().equals("cuda") ? 6 : 5;
      case ACCELERATOR -> 4;
      case CPU -> 3;
      case JVM -> d.backend().equals("jvm") ? 1 : 2;
    };
  }

  @Override
  public List<String> problems() {
    return Backends.problems();
  }

  @Override
  public Task task(String graph, String id, Serializable code, Object[] args) {
    return TaskSpec.of(graph, id, code, args);
  }

  @Override
  public Task prebuiltTask(String graph, String id, PrebuiltKernel kernel, Object[] args) {
    return TaskSpec.prebuilt(graph, id, kernel, args);
  }

  @Override
  public List<Transfer> transfers(String graph, String what, DataTransferMode mode, Object[] values) {
    return new ArrayList<>(GraphSpec.transfers(graph, what, mode, values));
  }

  @Override
  public Graph graph(String name, List<Transfer> toDevice, List<Task> tasks, List<Transfer> toHost) {
    return new GraphSpec(name, toDevice.stream().map(GraphSpec.Transfer.class::cast).toList(),
        tasks.stream().map(TaskSpec.class::cast).toList(), toHost.stream().map(GraphSpec.Transfer.class::cast).toList());
  }

  @Override
  public Executor open(Device device, Map<String, String> settings) {
    Options options = Settings.options();
    for (var e : settings.entrySet()) options = options.with(e.getKey(), e.getValue());
    GraphRunner runner = new GraphRunner(Backends.of(device).open(device, options), options);
    String batch = options.get("batch");
    if (batch == null) return runner;
    try {
      return new BatchRunner(runner, Long.parseLong(batch));
    } catch (NumberFormatException e) {
      runner.close();
      throw new IllegalArgumentException("the batch setting is a number of bytes (plan.withBatch(\"256MB\") writes it), not \"" + batch + "\"");
    }
  }

  @Override
  public boolean settingsConcurrentDevices() {
    return Settings.tornadoConcurrentDevices();
  }

  @Override
  public String settingsDeviceOf(String task) {
    return Settings.taskDevice(task);
  }

  @Override
  public Executor open(Placement placement, java.util.function.Function<Device, Map<String, String>> settings) {
    if (placement.devices().size() == 1) return open(placement.device(), settings.apply(placement.device()));
    if (settings.apply(placement.device()).containsKey("batch"))
      throw new IllegalArgumentException("withBatch runs a plan on one device; this one places tasks on "
          + String.join(", ", placement.devices().stream().map(Device::id).toList()));
    Map<String, GraphRunner> runners = new java.util.LinkedHashMap<>();
    try {
      for (Device d : placement.devices()) runners.put(d.id(), (GraphRunner) open(d, settings.apply(d)));
    } catch (RuntimeException | Error e) {
      runners.values().forEach(GraphRunner::close);
      throw e;
    }
    Options options = Settings.options();
    for (var e : settings.apply(placement.device()).entrySet()) options = options.with(e.getKey(), e.getValue());
    return new MultiDeviceRunner(placement, runners, options.flag("printSchedule"));
  }

  @Override
  public String code(Serializable code, String target) {
    MethodRef method = MethodRef.ofLambda(code, "KernelCode");
    return code(method, target, Settings.options());
  }

  /**
   * The code of {@code method} for {@code target}: {@code ir} / {@code ir:PASS} (pseudo-Java),
   * or {@code LANGUAGE[:VARIANT]} through that language's {@link Recipe} for no device.
   */
  public static String code(MethodRef method, String target, Options options) {
    String[] t = target.split(":", 2);
    String variant = t.length > 1 ? t[1] : "";
    if (t[0].equals("ir")) {
      if (!variant.isEmpty() && !variant.equals("parse") && !Compiler.passNames().contains(variant))
        throw new IllegalArgumentException("no pass \"" + variant + "\"; passes: parse, " + String.join(", ", Compiler.passNames()));
      Recipe opencl = Backends.recipe("opencl");
      return IrPrinter.print(Compiler.lower(method, opencl.target(null, "", options), variant.isEmpty() ? null : variant, Set.of(),
          options.flag("verifyIr")));
    }
    Recipe r = Backends.recipe(t[0]);
    TaskSpec task = new TaskSpec("code", method.name(), method, List.of());
    return r.show(r.generate(task, r.target(null, variant, options), options));
  }
}
