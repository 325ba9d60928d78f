// A model's forward pass on rows the caller gives: one graph, built once, run per batch; inference mode.
package dev.loopjit.nn;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.lang.foreign.MemorySegment;

/**
 * Runs a {@link Sequential} model on up to {@code rows} rows at a time, in inference mode
 * (dropout off, batch norm on its running statistics). The rows, the parameters and the state are
 * copied in on every call, so a predictor sees the host's latest parameters.
 *
 * <pre>{@code
 * try (Predictor p = model.predictor(16, Devices.get("opencl:0"))) {
 *   Predictions out = p.predict(images);            // (N, 1·28·28) floats, N ≤ 16
 *   int first = out.label(0);
 * }
 * }</pre>
 */
public final class Predictor implements AutoCloseable {
  private final Sequential model;
  private final int rows;
  private final FloatArray x, outputs;
  private final IntArray batch;
  private final ExecutionPlan plan;

  Predictor(Sequential model, int rows, Device device) {
    if (rows <= 0) throw new IllegalArgumentException("a predictor needs at least one row, not " + rows);
    this.model = model;
    this.rows = rows;
    x = new FloatArray(rows * model.inputs());
    batch = new IntArray(1 + rows);
    Wiring w = new Wiring("predict").on(device);
    Sequential.Pass pass = model.wire(w, x, batch, rows, false, null, LayerSite.kernelsFor(device), 0);
    outputs = pass.output();
    w.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, x, batch, model.parameters(), model.state());
    model.addForward(pass);
    w.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, outputs);
    plan = new ExecutionPlan(w.graph().snapshot()).withDevice(device);
  }

  /** The outputs for the rows of {@code input} ((N, inputs) row-major, N ≤ rows). */
  public Predictions predict(FloatArray input) {
    int width = model.inputs(), n = input.getSize() / width;
    if (input.getSize() % width != 0 || n == 0 || n > rows)
      throw new IllegalArgumentException(input.getSize() + " floats are not 1.." + rows + " rows of " + model.inputShape());
    MemorySegment.copy(input.getSegment(), 0, x.getSegment(), 0, (long) n * width * Float.BYTES);
    x.getSegment().asSlice((long) n * width * Float.BYTES, (long) (rows - n) * width * Float.BYTES).fill((byte) 0);
    batch.set(0, n);
    plan.execute();
    float[] all = outputs.toArray();
    return new Predictions(n, model.outputs(), java.util.Arrays.copyOf(all, n * model.outputs()));
  }

  @Override
  public void close() {
    plan.close();
  }
}
