// The content of a task graph: data to copy in, tasks in order, data to copy out.
package dev.loopjit.runtime;

import dev.loopjit.api.DataTransferMode;
import java.util.List;
import java.util.Objects;

/** A frozen task graph. */
public record GraphSpec(String name, List<Transfer> toDevice, List<TaskSpec> tasks, List<Transfer> toHost) {
  /** One array and when it moves. */
  public record Transfer(DataTransferMode mode, HostArray array) {}

  public GraphSpec {
    toDevice = List.copyOf(toDevice);
    tasks = List.copyOf(tasks);
    toHost = List.copyOf(toHost);
  }

  /** Checks and adds transfers; throws IllegalArgumentException for anything that is not a kernel array. */
  public static void addTransfers(List<Transfer> into, DataTransferMode mode, Object[] arrays, String graph, String what) {
    Objects.requireNonNull(mode, "mode");
    for (int i = 0; i < arrays.length; i++) {
      Object o = arrays[i];
      HostArray h = HostArray.of(o);
      if (h == null)
        throw new IllegalArgumentException("graph \"" + graph + "\": " + what + " argument " + i + " is "
            + (o == null ? "null" : "a " + o.getClass().getName())
            + "; only primitive arrays and dev.loopjit.types arrays move between host and device");
      into.add(new Transfer(mode, h));
    }
  }

  /** The mode of {@code array} in {@code transfers}, or null. */
  public static DataTransferMode modeOf(List<Transfer> transfers, HostArray array) {
    for (Transfer t : transfers) if (t.array().equals(array)) return t.mode();
    return null;
  }

  @Override
  public String toString() {
    return "TaskGraph " + name + " " + tasks.stream().map(TaskSpec::id).toList();
  }
}
