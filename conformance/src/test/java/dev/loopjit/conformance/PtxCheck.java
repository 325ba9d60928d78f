// The offline check every checked kernel gets where ptxas is installed: its PTX assembles for sm_80 and sm_90, its budget recorded.
package dev.loopjit.conformance;

import dev.loopjit.backend.cuda.PtxRecipe;
import dev.loopjit.backend.cuda.Ptxas;
import dev.loopjit.ir.Target;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.TaskSpec;
import dev.loopjit.testing.KernelCheck;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles a task for PTX and assembles it with {@code ptxas} (CUDA toolkit, no GPU needed). The
 * list is empty where ptxas is absent, so machines without the toolkit run the device checks only.
 * Each kernel's registers, stack, spills and shared memory ({@code ptxas -v}) are appended to
 * {@code target/ptxas-budgets.tsv}: the conformance kernels test semantics, not speed, so a spill
 * here is recorded, not failed (nn-layers' {@code PtxAssemblyTest} fails on one).
 */
final class PtxCheck {
  static final List<String> ARCHITECTURES = List.of("sm_80", "sm_90");

  private PtxCheck() {}

  static List<KernelCheck.OfflineEmitter> emitters() {
    List<KernelCheck.OfflineEmitter> out = new ArrayList<>();
    if (!Ptxas.present()) return out;
    for (String sm : ARCHITECTURES) out.add(new KernelCheck.OfflineEmitter("ptxas " + sm, k -> assemble(RepositoryChecks.task(k), sm)));
    return out;
  }

  /** Null when the task's PTX assembles for {@code sm}; else what went wrong, with the PTX. */
  static String assemble(TaskSpec task, String sm) {
    Target target = PtxRecipe.INSTANCE.target(null, sm, Options.DEFAULTS);
    String ptx;
    try {
      ptx = PtxRecipe.INSTANCE.generate(task, target, Options.DEFAULTS).text();
    } catch (RuntimeException e) {
      return "PTX emission failed: " + e;
    }
    List<Ptxas.Usage> usage;
    try {
      usage = Ptxas.usage(ptx, sm);
    } catch (IllegalStateException e) {
      return e.getMessage() + "\n" + ptx;
    }
    record(task, sm, usage);
    return null;
  }

  private static final java.nio.file.Path BUDGETS = java.nio.file.Path.of("target", "ptxas-budgets.tsv");
  private static boolean started;

  /** Appends to {@link #BUDGETS}, which this JVM's first record starts afresh (each test run writes the whole table). */
  private static synchronized void record(TaskSpec task, String sm, List<Ptxas.Usage> usage) {
    try {
      java.nio.file.Path file = BUDGETS;
      java.nio.file.Files.createDirectories(file.getParent());
      if (!started) java.nio.file.Files.deleteIfExists(file);
      started = true;
      if (!java.nio.file.Files.exists(file))
        java.nio.file.Files.writeString(file, "task\tsm\tfunction\tregisters\tstack\tspill_stores\tspill_loads\tshared\n");
      StringBuilder b = new StringBuilder();
      for (Ptxas.Usage u : usage)
        b.append(task.qualifiedName()).append('\t').append(sm).append('\t').append(u.function()).append('\t').append(u.registers()).append('\t')
            .append(u.stack()).append('\t').append(u.spillStores()).append('\t').append(u.spillLoads()).append('\t').append(u.shared()).append('\n');
      java.nio.file.Files.writeString(file, b, java.nio.file.StandardOpenOption.APPEND);
    } catch (java.io.IOException e) {
      // the record is for reading; the check itself passed
    }
  }
}
