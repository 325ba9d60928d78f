// Where one layer sits in a graph being built: its shapes, its activation and gradient buffers, its parameters and its own scratch arrays.
package dev.loopjit.nn;

import dev.loopjit.api.Device;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.HashMap;
import java.util.Map;

/**
 * What a {@link Layer} needs to add its tasks to a graph: made by {@link Sequential} for each
 * layer of each graph (one site serves a layer's forward and backward in a training step, so
 * what the forward keeps for the backward — a max-pool's choices, a batch norm's statistics —
 * lives in the site's own arrays). Shapes, row-major, B = rows of the batch:
 * <pre>
 * x (B, in), y (B, out); dy like y, dx like x
 * params: the layer's parameters start at paramAt; grads: their gradients, same offsets
 * state: the layer's non-trained state (running statistics) starts at stateAt
 * batch (1 + B): batch[0] = V, the rows in use; rows V..B-1 pad a short last batch
 * </pre>
 */
public final class LayerSite {
  final Wiring wiring;
  final int index;
  final Shape in, out;
  final int rows;
  final boolean training;
  final Device.Kind device;
  final FloatArray x, y, dx, dy;
  final FloatArray params, grads, state;
  final int paramAt, stateAt;
  final IntArray batch;
  final int seed;
  private final Map<String, FloatArray> floats = new HashMap<>();
  private final Map<String, IntArray> ints = new HashMap<>();

  LayerSite(Wiring wiring, int index, Shape in, Shape out, int rows, boolean training, Device.Kind device, FloatArray x, FloatArray y,
      FloatArray dx, FloatArray dy, FloatArray params, FloatArray grads, int paramAt, FloatArray state, int stateAt, IntArray batch, int seed) {
    this.wiring = wiring;
    this.index = index;
    this.in = in;
    this.out = out;
    this.rows = rows;
    this.training = training;
    this.device = device;
    this.x = x;
    this.y = y;
    this.dx = dx;
    this.dy = dy;
    this.params = params;
    this.grads = grads;
    this.paramAt = paramAt;
    this.state = state;
    this.stateAt = stateAt;
    this.batch = batch;
    this.seed = seed;
  }

  /** The graph to add tasks to. */
  TaskGraph graph() {
    return wiring.graph();
  }

  /** The id of one of this layer's tasks, {@code "L3_conv"}; recorded in the graph's task list. */
  String id(String what) {
    return wiring.id("L" + index + "_" + what);
  }

  /** The layer's own float array {@code name} of {@code n} elements, made on first use; it stays on the device. */
  FloatArray floats(String name, int n) {
    return floats.computeIfAbsent(name, k -> new FloatArray(Math.max(n, 1)));
  }

  /** The layer's own int array {@code name} of {@code n} elements, made on first use; it stays on the device. */
  IntArray ints(String name, int n) {
    return ints.computeIfAbsent(name, k -> new IntArray(Math.max(n, 1)));
  }

  /**
   * Whether to use the strip kernels (private rows updated by outer products): on CPUs and the
   * JVM, whose compilers vectorise their inner loops. GPUs get the one-output-per-work-item kernels,
   * which keep neighbouring work-items on neighbouring memory and need no private arrays.
   */
  boolean prefersStrips() {
    return device == Device.Kind.CPU || device == Device.Kind.JVM;
  }

  /**
   * Whether the layers run plain one-output-per-work-item products (dense layers their naive
   * kernels, convolutions the {@code convForwardRows}/{@code convWeightImages} products over the
   * unrolled image): on CPU OpenCL devices and {@code jvm-mt}, whose compilers coarsen them (lanes,
   * rows, Vector API strips) into code faster than the hand-written strips — at batch 128, 784 → 256
   * on this project's 2-core machine, forward 0.95 ms against 3.5 on PoCL and 4.7 against 7.0 on
   * {@code jvm-mt}, the weight gradient 1.3 against 2.3 and 1.7 against 6.0, the input gradient 0.76
   * against 5.7 on {@code jvm-mt}; the CNN's second convolution forward 6 ms against 30 and its weight
   * gradient 7 against 26 (docs/PERFORMANCE.md). The sequential {@code jvm} keeps the strips (the
   * naive loops there are 3× slower). All of them give the naive kernels' bits.
   */
  boolean compilerCoarsens() {
    return device == Device.Kind.CPU;
  }

  /**
   * Whether a dense layer's forward pass transposes its weights first and then runs the naive
   * kernel over them, a matrix product's shape (outputs side by side along the weights' rows): on
   * {@code jvm-mt}, whose Vector API rows then load contiguous weights — at batch 128, 784 → 256 on
   * this project's 2-core machine the MLP's step went from 7.2 to 2.7 ms (JMH), its first layer's
   * forward from 4.9–5.4 ms to 0.6–1.6 plus 0.2 for the transpose (profiler on). On PoCL the transpose
   * cost what the product gained (0.27 + 0.67 ms against 0.8): OpenCL CPUs keep the naive kernel.
   * The same bits either way.
   */
  boolean transposesDenseWeights() {
    return compilerCoarsens() && wiring.jvmMt();
  }

  /** The kind of kernels a model gets on {@code device}: {@code jvm-mt}'s are a CPU's (its compiler coarsens as OpenCL CPUs' do). */
  static Device.Kind kernelsFor(Device device) {
    return device.id().equals("jvm-mt") ? Device.Kind.CPU : device.kind();
  }

  /** Whether anything needs the gradient of this layer's input (not for the first layer, whose input is the data). */
  boolean needsInputGradient() {
    return dx != null;
  }
}
