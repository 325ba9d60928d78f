// TornadoVM's TornadoFunctions: its task interfaces as nested types, each one of LoopJIT's TaskN, so programs that name them compile.
package dev.loopjit.api;

/**
 * TornadoVM declares its task types inside this class ({@code TornadoFunctions.Task2<A, B>}); here
 * each is LoopJIT's {@link Task2} and its kin, so a method reference typed as one is given to
 * {@link TaskGraph#task} as it is.
 */
public final class TornadoFunctions {
  private TornadoFunctions() {}

  /** {@link Task0}. */
  @FunctionalInterface
  public interface Task extends Task0 {}

  /** {@link Task1}. */
  @FunctionalInterface
  public interface Task1<T1> extends dev.loopjit.api.Task1<T1> {}

  /** {@link Task2}. */
  @FunctionalInterface
  public interface Task2<T1, T2> extends dev.loopjit.api.Task2<T1, T2> {}

  /** {@link Task3}. */
  @FunctionalInterface
  public interface Task3<T1, T2, T3> extends dev.loopjit.api.Task3<T1, T2, T3> {}

  /** {@link Task4}. */
  @FunctionalInterface
  public interface Task4<T1, T2, T3, T4> extends dev.loopjit.api.Task4<T1, T2, T3, T4> {}

  /** {@link Task5}. */
  @FunctionalInterface
  public interface Task5<T1, T2, T3, T4, T5> extends dev.loopjit.api.Task5<T1, T2, T3, T4, T5> {}

  /** {@link Task6}. */
  @FunctionalInterface
  public interface Task6<T1, T2, T3, T4, T5, T6> extends dev.loopjit.api.Task6<T1, T2, T3, T4, T5, T6> {}

  /** {@link Task7}. */
  @FunctionalInterface
  public interface Task7<T1, T2, T3, T4, T5, T6, T7> extends dev.loopjit.api.Task7<T1, T2, T3, T4, T5, T6, T7> {}

  /** {@link Task8}. */
  @FunctionalInterface
  public interface Task8<T1, T2, T3, T4, T5, T6, T7, T8> extends dev.loopjit.api.Task8<T1, T2, T3, T4, T5, T6, T7, T8> {}

  /** {@link Task9}. */
  @FunctionalInterface
  public interface Task9<T1, T2, T3, T4, T5, T6, T7, T8, T9> extends dev.loopjit.api.Task9<T1, T2, T3, T4, T5, T6, T7, T8, T9> {}

  /** {@link Task10}. */
  @FunctionalInterface
  public interface Task10<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> extends dev.loopjit.api.Task10<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10> {}

  /** {@link Task11}. */
  @FunctionalInterface
  public interface Task11<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11> extends dev.loopjit.api.Task11<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11> {}

  /** {@link Task12}. */
  @FunctionalInterface
  public interface Task12<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12> extends dev.loopjit.api.Task12<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12> {}

  /** {@link Task13}. */
  @FunctionalInterface
  public interface Task13<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13> extends dev.loopjit.api.Task13<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13> {}

  /** {@link Task14}. */
  @FunctionalInterface
  public interface Task14<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14> extends dev.loopjit.api.Task14<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14> {}

  /** {@link Task15}. */
  @FunctionalInterface
  public interface Task15<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15> extends dev.loopjit.api.Task15<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15> {}
}
