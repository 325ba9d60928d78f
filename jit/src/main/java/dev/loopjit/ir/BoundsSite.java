// One array access the bounds pass could not prove in range, or a Math.*Exact that may overflow: what a report at run time names.
package dev.loopjit.ir;

/**
 * An array access guarded by the {@code bounds} pass. A failing work-item writes
 * {@code (long) id << 32 | index & 0xFFFFFFFFL} into the kernel's report argument; the runtime
 * reads it after the launch and names the access from this site.
 *
 * @param id     the site's number in its kernel, from 1 (0 in the report means none failed)
 * @param array  the array's Java name (a parameter's, or a local variable's)
 * @param param  the Java parameter the array is (its length is the host array's), or -1
 * @param length the constant length of a private or local array, or -1 for a parameter
 * @param src    where the access is in the Java source (with the calls it was inlined through)
 * @param upper  null, or an upper bound of the index (inclusive) that the host evaluates from the
 *               task's arguments: sums and products of constants, lengths, trip counts and int
 *               parameters, {@code b - 1} standing for a non-negative value below b. When every
 *               leaf is non-negative, every node's value fits in an int and the bound is below the
 *               array's length, the access cannot fail for those arguments (vector add's {@code a[i]}
 *               with {@code i < c.length} and {@code a} as long as {@code c}; a matmul's
 *               {@code a[i * k + p]} with {@code a.length >= m * k}). {@code spi.KernelFacts#mayFail} reads it.
 * @param thrown null for an array access; for a {@code THROW} the message of Java's ArithmeticException
 * @param size   for a private array sized at launch ({@code new float[n]}), its length as the host computes
 *               it from the task's arguments (the report's length); null otherwise
 */
public record BoundsSite(int id, String array, int param, int length, Src src, Expr upper, String thrown, Expr size) {
  /** An array access's site. */
  public BoundsSite(int id, String array, int param, int length, Src src, Expr upper) {
    this(id, array, param, length, src, upper, null, null);
  }

  /** This site with {@code size}, the length of the private array it reads as the host computes it. */
  public BoundsSite withSize(Expr size) {
    return new BoundsSite(id, array, param, length, src, upper, thrown, size);
  }

  /** A site where the kernel throws Java's {@code ArithmeticException} with {@code message} (a {@code Math.*Exact} that overflowed). */
  public static BoundsSite thrown(int id, String message, Src src) {
    return new BoundsSite(id, null, -1, -1, src, null, message, null);
  }

  /** {@code Kernels.saxpy (Kernels.java:12)}, then each call it was inlined through. */
  public String where() {
    StringBuilder b = new StringBuilder(src.describe());
    for (Src c = src.caller(); c != null; c = c.caller()) b.append(", called from ").append(c.describe());
    return b.toString();
  }
}
