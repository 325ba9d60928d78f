// Kernels the JIT must refuse with a KernelCompilationException: each uses one construct a device cannot run.
// Markers (read by UnsupportedKernelsTest, so no line number is written twice):
//   "REFUSED: a | b"        this line must be the one reported; the message must contain a or b (case-insensitive)
//   "CALLS: helper"         the refusal is inside helper, called on this line; the message must name this line
//   "REFUSED IN m(desc): a" the refusal is inside JDK method m, at its first 'new'; this line must be in the message
// Every kernel is correct Java; none is meant to run.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.IntArray;
import java.util.function.IntUnaryOperator;

/** Kernels with one unsupported construct each, checked by {@link UnsupportedKernelsTest}. */
public final class UnsupportedKernels {
  private UnsupportedKernels() {}

  /** An object with a field, reachable from a kernel only through a static field. */
  static final class Box {
    int value;
  }

  static final Box BOX = new Box();
  static final Object LOCK = new Object();
  static final IntUnaryOperator TWICE = v -> 2 * v;
  static int counter;

  public static void newObject(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      new Object(); // REFUSED: java.lang.Object
      y[i] = x[i];
    }
  }

  public static void newInHelper(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = withScratchList(x[i]); // CALLS: withScratchList
  }

  private static int withScratchList(int v) {
    java.util.List<Integer> scratch = new java.util.ArrayList<>(); // REFUSED: java.util.ArrayList
    return v + 1;
  }

  public static void virtualCall(IntArray x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = x.get(i) + x.hashCode(); // REFUSED: hashCode
  }

  public static void interfaceCall(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = TWICE.applyAsInt(x[i]); // REFUSED: applyAsInt | IntUnaryOperator | TWICE
  }

  public static void throwException(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      if (x[i] < 0) throw new IllegalStateException("negative"); // REFUSED: throw | IllegalStateException
      y[i] = x[i];
    }
  }

  public static void tryCatch(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      try { y[i] = 100 / x[i]; } catch (ArithmeticException e) { y[i] = -1; } // REFUSED: try | catch | exception handler
    }
  }

  public static void instanceFieldRead(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = x[i] + BOX.value; // REFUSED: field | value | BOX
  }

  public static void instanceFieldWrite(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      BOX.value = x[i]; // REFUSED: field | value | BOX
      y[i] = x[i];
    }
  }

  public static void staticFieldWrite(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      counter = x[i]; // REFUSED: counter | static field
      y[i] = x[i];
    }
  }

  public static void synchronizedBlock(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      synchronized (LOCK) { y[i] = x[i]; } // REFUSED: synchronized | monitor
    }
  }

  public static void recursionDirect(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = factorial(x[i] & 7); // CALLS: factorial
  }

  private static int factorial(int n) {
    return n <= 1 ? 1 : n * factorial(n - 1); // REFUSED: recursion | recursive
  }

  public static void recursionMutual(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = isEven(x[i] & 15) ? 1 : 0; // CALLS: isEven
  }

  private static boolean isEven(int n) {
    return n == 0 || isOdd(n - 1); // CALLS: isOdd
  }

  private static boolean isOdd(int n) {
    return n != 0 && isEven(n - 1); // REFUSED: recursion | recursive
  }

  public static void string(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = x[i] + "kernel".length(); // REFUSED: String
  }

  public static void lambda(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = ((IntUnaryOperator) v -> v + 1).applyAsInt(x[i]); // REFUSED: lambda | invokedynamic
  }

  public static void arraySizeFromMemory(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      float[] scratch = new float[x[0]]; // REFUSED: reads an array element
      y[i] = x[i] + scratch.length;
    }
  }

  public static void arrayClone(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      int[] copy = x.clone(); // REFUSED: clone
      y[i] = copy[i];
    }
  }

  public static void objectArrayLocal(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      float[][] m = new float[2][3]; y[i] = x[i] + m.length; // REFUSED: float[][] | multianewarray | array of arrays
    }
  }

  /** Refused before its body is read; the first line of the body is the one the class file can name. */
  public static void objectArrayParameter(float[][] rows, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = (int) rows[i][0]; // REFUSED: float[][]
  }

  public static void jdkMethodThatThrows(int[] x, int[] y) {
    // (Math.addExact and the other *Exact methods run: ExactKernels; divideExact, whose division by zero a device cannot throw, is refused)
    for (@Parallel int i = 0; i < y.length; i++) y[i] = Math.divideExact(x[i], x[i] | 1); // REFUSED IN java.lang.Math.divideExact(II)I: ArithmeticException | throw
  }

  public static void printInKernel(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      System.out.println(x[i]); // REFUSED: System.out | println | PrintStream
      y[i] = x[i];
    }
  }

  /** Java would stop every later iteration; work-items cannot. */
  public static void returnInParallelLoop(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      if (x[i] < 0) return; // REFUSED: return
      y[i] = x[i];
    }
  }

  /** TornadoVM's testInitNewArrayParallel: Java reads what iteration 2 wrote; each work-item had its own t (issue #26). */
  public static void privateArrayReadAfterLoop(int[] x, int[] y) {
    int[] t = new int[4];
    for (@Parallel int i = 0; i < y.length; i++) {
      if (i == 2) t[0] = 5;
      y[i] = 1;
    }
    y[0] = y[0] + t[0]; // REFUSED: private array | after
  }

  /** A value passed from one iteration to the next: each work-item would read the value from before the loop. */
  public static void scalarCarried(int[] x, int[] y) {
    int previous = 0;
    for (@Parallel int i = 0; i < y.length; i++) {
      y[i] = previous; // REFUSED: previous | carried
      previous = x[i];
    }
  }

  /** The same through a private array's element. */
  public static void privateArrayCarried(int[] x, int[] y) {
    int[] t = new int[2];
    for (@Parallel int i = 0; i < y.length; i++) {
      if (x[i] > 3) t[1] = x[i];
      y[i] = t[1]; // REFUSED: private array | carried
    }
  }

  /** Java leaves the last iteration's value in s; each work-item has its own. */
  public static void scalarReadAfterLoop(int[] x, int[] y) {
    int s = 0;
    for (@Parallel int i = 0; i < y.length; i++) {
      s = x[i];
      y[i] = s;
    }
    y[0] = s; // REFUSED: 's' | after
  }

  public static void innerBoundDependsOnOuter(int[] x, int[] y, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < i; j++) // REFUSED: bound | invariant | depends
        y[i * n + j] = x[i] + j;
  }

  public static void fourDeepNest(int[] x, int[] y, int n) {
    for (@Parallel int a = 0; a < n; a++)
      for (@Parallel int b = 0; b < n; b++)
        for (@Parallel int c = 0; c < n; c++)
          for (@Parallel int d = 0; d < n; d++) // REFUSED: dimension | nest | deep | three
            y[((a * n + b) * n + c) * n + d] = x[a] + d;
  }

  public static void longInductionVariable(int[] x, int[] y) {
    for (@Parallel long i = 0; i < y.length; i++) // REFUSED: long
      y[(int) i] = x[(int) i];
  }

  public static void stepNotLoopInvariant(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i += x[i]) // REFUSED: step | invariant
      y[i] = i;
  }

  /** Debug.printf's %s: strings print differently on each driver (and a kernel has none). */
  public static void printfString(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      dev.loopjit.api.Debug.printf("%s\n", x[i]); // REFUSED: %s
      y[i] = x[i];
    }
  }

  /** Debug.printf's %f given an int. */
  public static void printfMismatch(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      dev.loopjit.api.Debug.printf("%f\n", x[i]); // REFUSED: %f
      y[i] = x[i];
    }
  }

  /** A setter on a Float4 another variable refers to: it would not reach the other variable, as it does in Java. */
  public static void float4Setter(int[] x, int[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      dev.loopjit.types.Float4 f = new dev.loopjit.types.Float4(x[i], 0f, 0f, 0f);
      dev.loopjit.types.Float4 g = f;
      g.setX(1f); // REFUSED: setX
      y[i] = (int) f.getX();
    }
  }

  /** An array variable that refers to different arrays in different iterations of a loop (buffers swapped inside the kernel). */
  public static void swapInLoop(int[] a, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int[] p = a, q = out;
      for (int k = 0; k < 3; k++) { // REFUSED: different arrays in different iterations
        int[] t = p;
        p = q;
        q = t;
      }
      out[i] = p[i % p.length];
    }
  }

  /** One variable for a parameter or a private array: arrays of different kinds, not one choice. */
  public static void arrayOfAnotherKind(int[] a, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int[] p = i > 3 ? a : new int[4]; // REFUSED: chosen by ?: or a branch
      out[i] = p[0];
    }
  }
}
