// The public inspect API: the code a kernel method becomes for a target, with no device.
package dev.loopjit.api;

import java.io.Serializable;
import java.util.Objects;

/**
 * What the JIT makes of a kernel method for one target, without any device: the same recipe the
 * runtime uses to run it, so what you read is what runs.
 *
 * <pre>{@code
 * System.out.println(KernelCode.of(Kernels::saxpy, "opencl"));      // OpenCL C
 * System.out.println(KernelCode.of(Kernels::saxpy, "ptx:sm_90"));   // PTX for a compute capability
 * System.out.println(KernelCode.of(Kernels::saxpy, "ir:parallel")); // the IR after a pass, as pseudo-Java
 * }</pre>
 *
 * Targets: {@code ir} (the IR after the last pass), {@code ir:PASS} ({@code ir:parse} straight after
 * the front end), {@code opencl}, {@code ptx} / {@code ptx:sm_XX}, and every other language a
 * backend on the class path provides. A kernel the target cannot run is refused with
 * {@link KernelCompilationException}, as it would be at {@code execute()}.
 *
 * @param target the target asked for
 * @param text   the code, as text
 */
public record KernelCode(String target, String text) {
  public KernelCode {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(text, "text");
  }

  /** The code of {@code kernel}, a {@code Task0}…{@code Task20} method reference, for {@code target}. */
  public static KernelCode of(Serializable kernel, String target) {
    Objects.requireNonNull(kernel, "kernel");
    Objects.requireNonNull(target, "target");
    return new KernelCode(target, Engine.get().code(kernel, target));
  }

  // One overload per arity, so that a plain method reference needs no cast.
  public static KernelCode of(Task0 k, String target) { return of((Serializable) k, target); }
  public static <A> KernelCode of(Task1<A> k, String target) { return of((Serializable) k, target); }
  public static <A, B> KernelCode of(Task2<A, B> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C> KernelCode of(Task3<A, B, C> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D> KernelCode of(Task4<A, B, C, D> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E> KernelCode of(Task5<A, B, C, D, E> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F> KernelCode of(Task6<A, B, C, D, E, F> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G> KernelCode of(Task7<A, B, C, D, E, F, G> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H> KernelCode of(Task8<A, B, C, D, E, F, G, H> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I> KernelCode of(Task9<A, B, C, D, E, F, G, H, I> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J> KernelCode of(Task10<A, B, C, D, E, F, G, H, I, J> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K> KernelCode of(Task11<A, B, C, D, E, F, G, H, I, J, K> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L> KernelCode of(Task12<A, B, C, D, E, F, G, H, I, J, K, L> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M> KernelCode of(Task13<A, B, C, D, E, F, G, H, I, J, K, L, M> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M, N> KernelCode of(Task14<A, B, C, D, E, F, G, H, I, J, K, L, M, N> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> KernelCode of(Task15<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P> KernelCode of(Task16<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q> KernelCode of(Task17<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R> KernelCode of(Task18<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S> KernelCode of(Task19<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S> k, String target) { return of((Serializable) k, target); }
  public static <A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T> KernelCode of(Task20<A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T> k, String target) { return of((Serializable) k, target); }

  @Override
  public String toString() {
    return text;
  }
}
