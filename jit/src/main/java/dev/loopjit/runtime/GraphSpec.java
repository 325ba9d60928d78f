// The content of a task graph: data to copy in, tasks in order, data to copy out.
package dev.loopjit.runtime;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Engine;
import dev.loopjit.api.KernelContext;
import dev.loopjit.spi.HostArray;
import dev.loopjit.spi.TaskSpec;
import java.util.List;

/** A frozen task graph. */
public record GraphSpec(String name, List<Transfer> toDevice, List<TaskSpec> tasks, List<Transfer> toHost) implements Engine.Graph {
  /** One array and when it moves. */
  public record Transfer(DataTransferMode mode, HostArray array) implements Engine.Transfer {}

  public GraphSpec {
    toDevice = List.copyOf(toDevice);
    tasks = List.copyOf(tasks);
    toHost = List.copyOf(toHost);
  }

  /**
   * Checks transfers. Arrays move; boxed primitives, vector and HalfFloat values and the
   * {@code KernelContext} (which TornadoVM programs often list) are values the tasks pass, so there
   * is nothing to move and they are skipped — except in {@code transferToHost}, where a value is
   * refused as TornadoVM refuses it (nothing can come back into the caller's copy). An object of the
   * program's own classes moves the arrays it holds (in its fields, its superclasses' and the objects
   * of the program's classes it holds). Anything else is an IllegalArgumentException naming the graph and the argument.
   */
  public static List<Transfer> transfers(String graph, String what, DataTransferMode mode, Object[] arrays) {
    if (mode == null) throw new IllegalArgumentException("graph \"" + graph + "\": " + what + " needs a DataTransferMode, not null");
    if (arrays == null) throw new IllegalArgumentException("graph \"" + graph + "\": " + what + " was given a null array list");
    List<Transfer> into = new java.util.ArrayList<>();
    for (int i = 0; i < arrays.length; i++) {
      Object o = arrays[i];
      HostArray h = HostArray.of(o);
      boolean value = o instanceof Number || o instanceof Boolean || o instanceof Character
          || o != null && dev.loopjit.compiler.KernelValues.fieldsOf(o.getClass()) > 0;
      if (h == null && value && what.equals("transferToHost"))   // nothing comes back into it: a kernel takes a value, never the host's variable or object
        throw new dev.loopjit.api.TornadoRuntimeException("graph \"" + graph + "\": transferToHost argument " + i + " is a "
            + o.getClass().getSimpleName() + " (" + o + "), a value: " + (o instanceof Number || o instanceof Boolean || o instanceof Character
                ? "a kernel cannot change it for the host, as a Java method cannot change its caller's variable; return results in an array (e.g. an IntArray of 1)"
                : "a kernel takes its elements and cannot change the host's object; write results into an array or a vector collection (e.g. a VectorFloat4 of 1)"));
      if (h == null && (value || o instanceof KernelContext)) continue;
      if (h == null && o != null && dev.loopjit.compiler.ObjectFields.isProgramObject(o.getClass())) {
        // an object of the program's classes: the arrays it holds move (through nested objects too)
        List<HostArray> held = new java.util.ArrayList<>();
        arraysOf(o, held, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
        if (held.isEmpty())
          throw new dev.loopjit.api.TornadoRuntimeException("graph \"" + graph + "\": " + what + " argument " + i + " is a "
              + o.getClass().getName() + " that holds no array; its other fields are read by the kernels at each launch, nothing moves");
        for (HostArray a : held) into.add(new Transfer(mode, a));
        continue;
      }
      if (h == null)   // TornadoVM's type for it; an IllegalArgumentException
        throw new dev.loopjit.api.TornadoRuntimeException("graph \"" + graph + "\": " + what + " argument " + i + " is "
            + (o == null ? "null" : "a " + o.getClass().getName())
            + "; arrays move between host and device (primitive arrays and dev.loopjit.types arrays), values are passed by the task");
      into.add(new Transfer(mode, h));
    }
    return into;
  }

  /** The arrays {@code o} holds in its fields and its superclasses', and in the objects of the program's classes it holds, in order. */
  private static void arraysOf(Object o, List<HostArray> into, java.util.Set<Object> seen) {
    if (!seen.add(o)) return;
    List<Class<?>> classes = new java.util.ArrayList<>();
    for (Class<?> c = o.getClass(); c != null && c != Object.class; c = c.getSuperclass()) classes.add(0, c);
    for (Class<?> c : classes)
      for (java.lang.reflect.Field f : c.getDeclaredFields()) {
        if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) continue;
        Object v;
        try {
          f.setAccessible(true);
          v = f.get(o);
        } catch (ReflectiveOperationException | RuntimeException e) {
          continue;   // not readable: not moved (a kernel reading it is refused when the task is added)
        }
        if (v == null) continue;
        HostArray h = HostArray.of(v);
        if (h != null) {
          if (!into.contains(h)) into.add(h);
        } else if (dev.loopjit.compiler.ObjectFields.isProgramObject(v.getClass())) {
          arraysOf(v, into, seen);
        }
      }
  }

  /** The mode of {@code array} in {@code transfers}, or null. */
  public static DataTransferMode modeOf(List<Transfer> transfers, HostArray array) {
    for (Transfer t : transfers) if (t.array().equals(array)) return t.mode();
    return null;
  }

  @Override
  public List<String> taskIds() {
    return tasks.stream().map(TaskSpec::id).toList();
  }

  @Override
  public String toString() {
    return "TaskGraph " + name + " " + tasks.stream().map(TaskSpec::id).toList();
  }
}
