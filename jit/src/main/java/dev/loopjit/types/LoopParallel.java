// The @Parallel of this package's own kernels (the arrays' initialize): the compiler reads it as dev.loopjit.api.Parallel.
package dev.loopjit.types;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a parallel loop in a kernel of this package, which cannot use {@code dev.loopjit.api.Parallel}
 * (the types do not depend on the API). Not for programs: they write {@code @Parallel}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE_USE)
@interface LoopParallel {}
