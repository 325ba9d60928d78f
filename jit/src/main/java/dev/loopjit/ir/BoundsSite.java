// One array access the bounds pass could not prove in range: what an out-of-bounds report at run time names.
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
 * @param within null, or a trip count of the launch (an expression the host evaluates from the task's
 *               arguments) that the index is known to be non-negative and below: when it is at most
 *               the array's length, the access cannot fail for those arguments (a vector add's
 *               {@code a[i]} with {@code i < c.length} and {@code a} as long as {@code c})
 */
public record BoundsSite(int id, String array, int param, int length, Src src, Expr within) {
  /** {@code Kernels.saxpy (Kernels.java:12)}, then each call it was inlined through. */
  public String where() {
    StringBuilder b = new StringBuilder(src.describe());
    for (Src c = src.caller(); c != null; c = c.caller()) b.append(", called from ").append(c.describe());
    return b.toString();
  }
}
