// Saves and loads a Sequential model (its layers and all parameters) in a small documented binary format.
package dev.loopjit.nn;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The weight file, all numbers big-endian (Java's {@code DataOutputStream}):
 * <pre>
 * bytes  4        magic "LJNN"
 * int32           format version, 1
 * int32           inputs (features per row)
 * int32           L, the number of layers
 * L × (int32, int32)  kind and size of each layer: 0 = dense (size = units), 1 = relu, 2 = sigmoid,
 *                 3 = tanh, 4 = gelu (size = 0 for activations)
 * int32           P, the number of parameters
 * P × float32     IEEE 754 parameters: for each dense layer in order, W (OUT, IN) row-major, then b (OUT)
 * </pre>
 * For example, {@code numpy.fromfile(f, '>f4', offset=16 + 8 * L + 4)} reads the parameters.
 * The parameters are those of the host copy: after training on a device, call
 * {@link TrainingStep#pullParameters()} first ({@link Trainer#fit} does).
 */
public final class Weights {
  private static final int MAGIC = 0x4C4A4E4E; // "LJNN"
  private static final int VERSION = 1;
  private static final int DENSE = 0;

  private Weights() {}

  /** Writes the model's layers and parameters to {@code file}. */
  public static void save(Sequential model, Path file) throws IOException {
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeInt(model.inputs());
      out.writeInt(model.layers().size());
      for (Layer l : model.layers()) {
        switch (l) {
          case Layer.Dense d -> {
            out.writeInt(DENSE);
            out.writeInt(d.units());
          }
          case Layer.Activation a -> {
            out.writeInt(1 + a.ordinal());
            out.writeInt(0);
          }
        }
      }
      int p = model.parameterCount();
      out.writeInt(p);
      for (int i = 0; i < p; i++) out.writeFloat(model.parameters().get(i));
    }
  }

  /** Reads a model saved by {@link #save}: its layers and parameters. */
  public static Sequential load(Path file) throws IOException {
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      if (in.readInt() != MAGIC) throw new IOException(file + ": not a LoopJIT weight file (no \"LJNN\" magic)");
      int version = in.readInt();
      if (version != VERSION) throw new IOException(file + ": weight file version " + version + "; this build reads version " + VERSION);
      int inputs = in.readInt(), count = in.readInt();
      if (inputs <= 0 || count <= 0 || count > 1 << 16) throw new IOException(file + ": bad header (inputs " + inputs + ", layers " + count + ")");
      List<Layer> layers = new ArrayList<>();
      Layer.Activation[] activations = Layer.Activation.values();
      for (int k = 0; k < count; k++) {
        int kind = in.readInt(), size = in.readInt();
        if (kind == DENSE && size > 0) layers.add(new Layer.Dense(size));
        else if (kind >= 1 && kind <= activations.length) layers.add(activations[kind - 1]);
        else throw new IOException(file + ": layer " + k + " has unknown kind " + kind + " (size " + size + ")");
      }
      Sequential model = Sequential.of(inputs, layers);
      int p = in.readInt();
      if (p != model.parameterCount())
        throw new IOException(file + ": " + p + " parameters stored but " + model + " has " + model.parameterCount());
      for (int i = 0; i < p; i++) model.parameters().set(i, in.readFloat());
      if (in.read() != -1) throw new IOException(file + ": data after the last parameter");
      return model;
    } catch (EOFException e) {
      throw new IOException(file + ": truncated weight file", e);
    }
  }
}
