// Refuses a plan whose graphs name two different host objects over the same memory (a collection and its storage array, say).
package dev.loopjit.runtime;

import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.TaskSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plan keeps one device copy per host object it is given. Two objects over the same off-heap
 * memory — a {@code Matrix2DFloat} and its {@code getArray()}, two arrays made with
 * {@code fromSegmentShallow} over one segment, a collection {@code withArray} of another's storage
 * — would get two device copies: a kernel's writes through one would be lost when the other is
 * copied back over them, silently. Such a plan is refused before anything runs, naming both and
 * where each is used. (An instance-method kernel's array fields count as its arguments.)
 */
final class SharedMemory {
  private SharedMemory() {}

  /** IllegalArgumentException when two different objects among {@code graphs}' transfers and task arguments share memory. */
  static void refuse(List<GraphSpec> graphs) {
    Map<HostArray, String> uses = new LinkedHashMap<>();
    for (GraphSpec g : graphs) {
      g.toDevice().forEach(t -> uses.putIfAbsent(t.array(), "transferToDevice of graph \"" + g.name() + "\""));
      for (TaskSpec t : g.tasks())
        for (int i = 0; i < t.args().size(); i++) {
          HostArray h = HostArray.of(t.args().get(i));
          if (h != null) uses.putIfAbsent(h, "argument " + i + " of task \"" + t.qualifiedName() + "\"");
        }
      g.toHost().forEach(t -> uses.putIfAbsent(t.array(), "transferToHost of graph \"" + g.name() + "\""));
    }
    List<HostArray> offHeap = new ArrayList<>();
    for (HostArray h : uses.keySet()) if (h.offHeap() && h.byteSize() > 0) offHeap.add(h);
    if (offHeap.size() < 2) return;
    offHeap.sort(Comparator.comparingLong(h -> h.segment().address()));
    HostArray reach = offHeap.get(0);   // of those before, the one whose memory ends last
    for (int k = 1; k < offHeap.size(); k++) {
      HostArray h = offHeap.get(k);
      long end = reach.segment().address() + reach.byteSize();
      if (h.segment().address() < end)
        throw new IllegalArgumentException(describe(reach, uses.get(reach)) + " and " + describe(h, uses.get(h))
            + " are different objects over the same memory; a plan keeps one device copy of each, so a kernel's writes through one would be"
            + " lost when the other is copied back. Name one of them in every task and transfer (a collection, or its getArray(), not both)");
      if (h.segment().address() + h.byteSize() > end) reach = h;
    }
  }

  private static String describe(HostArray h, String use) {
    return h.describe() + " (" + use + ")";
  }
}
