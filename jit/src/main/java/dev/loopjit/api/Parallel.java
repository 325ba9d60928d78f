// Marks the induction variable of a loop whose iterations may run in parallel, one work-item each.
package dev.loopjit.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a loop's induction variable: the loop's iterations are independent and may run in
 * parallel, one work-item (GPU thread) each. Nest up to three such loops for a 2-D or 3-D grid.
 * It is a {@code TYPE_USE} annotation, so javac records it in the class file (in the
 * {@code Code} attribute's type annotations), which is how the JIT finds the loop.
 *
 * <pre>{@code
 * static void saxpy(float a, FloatArray x, FloatArray y) {
 *   for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, a * x.get(i) + y.get(i));
 * }
 * }</pre>
 *
 * On the {@code jvm} device the loop runs as written, sequentially: that is the reference result.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE_USE)
public @interface Parallel {}
