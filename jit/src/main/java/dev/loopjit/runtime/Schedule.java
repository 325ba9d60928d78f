// One execution of a plan's graphs on one device as a list of steps, planned before it runs from where each array's value is.
package dev.loopjit.runtime;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.spi.DeviceKernel;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.TaskSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What one execution of a plan's graphs does on one device, step by step, planned before anything
 * runs: {@link #plan} walks the graphs with the set of arrays whose device copy is current (the
 * residency) and the transfer modes, and lists each copy in, launch, bounds check, wait and copy
 * back. {@link GraphRunner} then runs the steps in order. A schedule depends on the graphs, which
 * arrays are current on the device when the execution starts and whether it is the plan's first:
 * in the steady state every execution runs the same schedule, planned once.
 */
record Schedule(List<Step> steps) {
  Schedule {
    steps = List.copyOf(steps);
  }

  /** One step; each is issued on the schedule's device. */
  sealed interface Step {}

  /** The steps that follow are graph {@code graph}'s (what the printout heads them with). */
  record Graph(String graph) implements Step {}

  /** Copy the host's array in: a {@code transferToDevice}, or an array a task uses that is not current on the device. */
  record CopyIn(HostArray array, String why) implements Step {}

  /**
   * Launch task {@code task} (the {@code position}-th of the execution's tasks, graphs in order) once, its prologue or epilogue
   * ({@code phase}: {@link dev.loopjit.ir.Launch.Loops#PROLOGUE}, {@code EPILOGUE}, or 0 for the
   * kernel over its grid; a grid with no iterations launches nothing). {@code report}: the kernel takes
   * the bounds-report buffer after the task's arguments.
   */
  record Launch(int position, TaskSpec task, int phase, boolean report) implements Step {}

  /** Read the bounds reports of these tasks' launches (waits for the device); the first that names an access ends the execution. */
  record CheckBounds(List<TaskSpec> tasks) implements Step {}

  /** Wait for the device: with a timeout, before and after a graph's copies back (a kernel past its time must not write the host); at the end. */
  record Sync(When when) implements Step {}

  /** Where a {@link Sync} stands. */
  enum When { BEFORE_COPIES_BACK, AFTER_COPIES_BACK, END }

  /** Copy the device's array back to its host array. */
  record CopyOut(HostArray array, String why) implements Step {}

  /**
   * The schedule of one execution of {@code graphs}, whose tasks were prepared as {@code prepared}
   * (each graph's tasks in order: kernel and grid), with {@code current} the arrays whose device copy
   * holds their value when it starts; {@code first}: the plan's first execution (copies marked
   * {@code FIRST_EXECUTION} happen then only); {@code timeout}: the plan waits for the device before
   * and after each graph's copies back.
   */
  static Schedule plan(List<GraphSpec> graphs, Map<GraphSpec, List<Prepared>> prepared, Set<HostArray> current, boolean first, boolean timeout) {
    Set<HostArray> valid = new HashSet<>(current);
    List<Step> steps = new ArrayList<>();
    int position = 0;
    for (GraphSpec g : graphs) {
      steps.add(new Graph(g.name()));
      for (GraphSpec.Transfer t : g.toDevice()) {
        if (t.mode() == DataTransferMode.EVERY_EXECUTION) steps.add(new CopyIn(t.array(), "every execution"));
        else if (!valid.contains(t.array())) steps.add(new CopyIn(t.array(), first ? "first execution" : "the host's changed"));
        valid.add(t.array());
      }
      List<TaskSpec> checked = new ArrayList<>();
      for (Prepared p : prepared.get(g)) {
        int i = position++;
        Object[] args = p.task().args().toArray();
        for (Object a : args) {
          HostArray h = HostArray.of(a);
          if (h != null && valid.add(h)) steps.add(new CopyIn(h, "used by " + p.task().qualifiedName()));
        }
        boolean report = !p.kernel().boundsSites().isEmpty();
        if (report && p.kernel().mayFail(args)) checked.add(p.task());   // else it cannot report: not read
        if (p.kernel().prologue()) steps.add(new Launch(i, p.task(), dev.loopjit.ir.Launch.Loops.PROLOGUE, report));
        steps.add(new Launch(i, p.task(), 0, report));
        if (p.kernel().epilogue()) steps.add(new Launch(i, p.task(), dev.loopjit.ir.Launch.Loops.EPILOGUE, report));
      }
      if (!checked.isEmpty()) steps.add(new CheckBounds(checked));
      if (timeout) steps.add(new Sync(When.BEFORE_COPIES_BACK));
      for (GraphSpec.Transfer t : g.toHost()) {
        if (t.mode() == DataTransferMode.EVERY_EXECUTION) steps.add(new CopyOut(t.array(), "every execution"));
        else if (t.mode() == DataTransferMode.FIRST_EXECUTION && first) steps.add(new CopyOut(t.array(), "first execution"));
      }
      if (timeout) steps.add(new Sync(When.AFTER_COPIES_BACK));
    }
    steps.add(new Sync(When.END));
    return new Schedule(steps);
  }

  /** A task as prepared for an execution: its kernel on the device, and its grid. */
  record Prepared(TaskSpec task, DeviceKernel kernel, Grid grid) {}

  /** The schedule as lines, numbered, arrays named by {@code names}. */
  List<String> lines(Function<HostArray, String> names) {
    List<String> out = new ArrayList<>();
    int n = 0;
    for (Step s : steps) {
      String line = switch (s) {
        case Graph g -> "graph     " + g.graph();
        case CopyIn c -> "copy in   " + names.apply(c.array()) + " (" + c.why() + ")";
        case Launch l -> "launch    " + l.task().qualifiedName() + (l.phase() == dev.loopjit.ir.Launch.Loops.PROLOGUE ? " (prologue)"
            : l.phase() == dev.loopjit.ir.Launch.Loops.EPILOGUE ? " (epilogue)" : "") + (l.report() ? ", with its bounds report" : "");
        case CheckBounds c -> "check     the bounds reports of " + String.join(", ", c.tasks().stream().map(TaskSpec::qualifiedName).toList()) + " (waits)";
        case Sync w -> "wait      " + switch (w.when()) {
          case BEFORE_COPIES_BACK -> "for the kernels, before the copies back (the timeout)";
          case AFTER_COPIES_BACK -> "for the copies back";
          case END -> "for the device";
        };
        case CopyOut c -> "copy out  " + names.apply(c.array()) + " (" + c.why() + ")";
      };
      out.add(String.format("%3d  %s", ++n, line));
    }
    return out;
  }
}
