// Runs the graph on the best device, checks it against plain Java, prints the profile (times, GB/s, shares).
package com.example;

import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.types.FloatArray;
import java.util.Arrays;
import java.util.Random;

/** {@code mvn exec:java} (or {@code scripts/loopjit run --class-path target/classes com.example.App}). */
public final class App {
  private App() {}

  public static void main(String[] args) {
    int rows = 1024, cols = 1024;
    float[] data = new float[rows * cols];
    Random random = new Random(42);
    for (int i = 0; i < data.length; i++) data[i] = random.nextFloat();
    FloatArray m = FloatArray.fromArray(data), means = new FloatArray(rows);

    try (ExecutionPlan plan = new ExecutionPlan(Normalize.graph(m, means, cols).snapshot())) {
      ExecutionResult r = plan.withDevice(Devices.best()).withProfiler().execute();
      float[] expected = data.clone();
      Normalize.plainJava(expected, rows, cols);
      boolean same = Arrays.equals(expected, m.toArray());
      System.out.println("normalize " + rows + "x" + cols + " on " + r.device().id() + " (" + r.device().name() + "): "
          + (same ? "same as plain Java" : "DIFFERENT from plain Java"));
      System.out.println(r.profile());
      if (!same) System.exit(1);
    }
  }
}
