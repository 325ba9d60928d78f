// The JMH options the benchmarks share: average time in ms, 3 warm-up and 5 measured iterations of 1 s, one fork with native access and the Vector API.
package dev.loopjit.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Base of a benchmark class that takes these options: JMH reads a benchmark class's annotations
 * from its superclasses too, and one on the class or its method overrides the one here, as
 * {@code -wi}, {@code -i} and the others on the command line do.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
public abstract class Timed {}
