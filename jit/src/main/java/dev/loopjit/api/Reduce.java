// Marks an array parameter that a @Parallel loop reduces into at index 0 (sum, product, min, max).
package dev.loopjit.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an array parameter as the output of a reduction: inside the {@code @Parallel} loop it is
 * only updated as {@code out[0] = out[0] OP x} (or {@code out.set(0, out.get(0) OP x)}, or with
 * {@code Math.max/min}), so the device may combine partial results in any order.
 *
 * <pre>{@code
 * static void sum(FloatArray in, @Reduce FloatArray out) {
 *   for (@Parallel int i = 0; i < in.getSize(); i++) out.set(0, out.get(0) + in.get(i));
 * }
 * }</pre>
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.TYPE_USE})
public @interface Reduce {}
