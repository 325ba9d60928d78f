// Saves and loads a Sequential model (its input shape, layers, parameters and state) in a small documented binary format.
package dev.loopjit.nn;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The weight file, all numbers big-endian (Java's {@code DataOutputStream}), version 2:
 * <pre>
 * bytes  4        magic "LJNN"
 * int32           format version, 2
 * int32           R, the rank of the input shape (1: features; 3: channels, height, width)
 * R × int32       the input shape
 * int32           L, the number of layers
 * L × (int32 code, int32 n, n × int32)   each layer: its code and its n settings (floats as IEEE bits)
 * int32           P, the number of parameters
 * P × float32     IEEE 754 parameters, layer by layer in order, as each layer lays them out
 * int32           S, the number of state values (batch norm's running statistics)
 * S × float32     the state, layer by layer
 * </pre>
 * Layer codes and settings:
 * <pre>
 * 0 dense (units, inputs or 0)       1 relu  2 sigmoid  3 tanh  4 gelu  (no settings)
 * 5 conv (filters, kernel, stride, padding, bias 0/1, input channels or 0)
 * 6 max pool (size, stride)  7 avg pool (size, stride)  8 flatten ()  9 dropout (rate)
 * 10 batch norm (momentum, ε)  11 layer norm (ε)
 * </pre>
 * Parameters: dense W (OUT, IN) then b (OUT); conv W (F, C, K, K) then b (F); batch norm γ (C)
 * then β (C), state running mean (C) then running variance (C); layer norm γ (D) then β (D).
 *
 * <p>Version 1 files (written before convolutions; dense layers and activations only) still load:
 * after the version, int32 inputs, int32 L, L × (int32 kind, int32 size) with the codes above
 * (size = units for dense, 0 for activations), then P and the parameters, and no state.
 *
 * <p>The parameters are those of the host copy: after training on a device, call
 * {@link TrainingStep#pullParameters()} first ({@link Trainer#fit} does).
 */
public final class Weights {
  private static final int MAGIC = 0x4C4A4E4E; // "LJNN"
  private static final int VERSION = 2;
  private static final int MAX_LAYERS = 1 << 16, MAX_SETTINGS = 64;

  private Weights() {}

  /** Writes the model's input shape, layers, parameters and state to {@code file}. */
  public static void save(Sequential model, Path file) throws IOException {
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      write(model, out);
    }
  }

  /** The bytes {@link #save} would write: a model to send to another JVM (a Spark executor) and read there with {@link #fromBytes}. */
  public static byte[] toBytes(Sequential model) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + 4 * (model.parameterCount() + model.stateCount()));
    try {
      write(model, bytes);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);   // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /** The model in {@code bytes} written by {@link #toBytes} or {@link #save}; a malformed one gets an {@link IllegalArgumentException}. */
  public static Sequential fromBytes(byte[] bytes) {
    try {
      return read(new ByteArrayInputStream(bytes), "model bytes");
    } catch (IOException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static void write(Sequential model, OutputStream stream) throws IOException {
    DataOutputStream out = new DataOutputStream(stream);
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    Shape in = model.inputShape();
    out.writeInt(in.rank());
    for (int i = 0; i < in.rank(); i++) out.writeInt(in.dim(i));
    out.writeInt(model.layers().size());
    for (Layer l : model.layers()) {
      int[] config = l.config();
      out.writeInt(l.code());
      out.writeInt(config.length);
      for (int c : config) out.writeInt(c);
    }
    out.writeInt(model.parameterCount());
    for (int i = 0; i < model.parameterCount(); i++) out.writeFloat(model.parameters().get(i));
    out.writeInt(model.stateCount());
    for (int i = 0; i < model.stateCount(); i++) out.writeFloat(model.state().get(i));
    out.flush();
  }

  /** Reads a model saved by {@link #save} (or a version 1 file): its layers, parameters and state. */
  public static Sequential load(Path file) throws IOException {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      return read(in, file.toString());
    }
  }

  private static Sequential read(InputStream stream, String file) throws IOException {
    try {
      DataInputStream in = new DataInputStream(stream);
      if (in.readInt() != MAGIC) throw new IOException(file + ": not a LoopJIT weight file (no \"LJNN\" magic)");
      int version = in.readInt();
      Sequential model = switch (version) {
        case 1 -> readVersion1(in, file);
        case 2 -> readVersion2(in, file);
        default -> throw new IOException(file + ": weight file version " + version + "; this build reads versions 1 and 2");
      };
      readFloats(in, file, "parameters", model.parameterCount(), model.parameters(), model);
      if (version >= 2) readFloats(in, file, "state values", model.stateCount(), model.state(), model);
      if (in.read() != -1) throw new IOException(file + ": data after the last " + (version >= 2 ? "state value" : "parameter"));
      return model;
    } catch (EOFException e) {
      throw new IOException(file + ": truncated weight file", e);
    }
  }

  private static Sequential readVersion1(DataInputStream in, String file) throws IOException {
    int inputs = in.readInt(), count = in.readInt();
    if (inputs <= 0 || count <= 0 || count > MAX_LAYERS) throw new IOException(file + ": bad header (inputs " + inputs + ", layers " + count + ")");
    List<Layer> layers = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      int kind = in.readInt(), size = in.readInt();
      if (kind == Dense.CODE && size > 0) layers.add(new Dense(size));
      else if (kind >= Activation.RELU_CODE && kind <= Activation.GELU_CODE) layers.add(Activation.ofCode(kind));
      else throw new IOException(file + ": layer " + k + " has unknown kind " + kind + " (size " + size + ")");
    }
    return build(file, Shape.of(inputs), layers);
  }

  private static Sequential readVersion2(DataInputStream in, String file) throws IOException {
    int rank = in.readInt();
    if (rank < 1 || rank > 3) throw new IOException(file + ": bad input rank " + rank);
    int[] dims = new int[rank];
    for (int i = 0; i < rank; i++) dims[i] = in.readInt();
    int count = in.readInt();
    if (count <= 0 || count > MAX_LAYERS) throw new IOException(file + ": bad layer count " + count);
    List<Layer> layers = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      int code = in.readInt(), n = in.readInt();
      if (n < 0 || n > MAX_SETTINGS) throw new IOException(file + ": layer " + k + " (code " + code + ") has " + n + " settings");
      int[] config = new int[n];
      for (int i = 0; i < n; i++) config[i] = in.readInt();
      try {
        layers.add(Layer.decode(code, config));
      } catch (IllegalArgumentException e) {
        throw new IOException(file + ": layer " + k + ": " + e.getMessage(), e);
      }
    }
    Shape shape;
    try {
      shape = Shape.of(dims);
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": bad input shape: " + e.getMessage(), e);
    }
    return build(file, shape, layers);
  }

  private static Sequential build(String file, Shape input, List<Layer> layers) throws IOException {
    try {
      return Sequential.of(input, layers);
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": the layers do not fit together: " + e.getMessage(), e);
    }
  }

  private static void readFloats(DataInputStream in, String file, String what, int expected, dev.loopjit.types.FloatArray into, Sequential model)
      throws IOException {
    int n = in.readInt();
    if (n != expected) throw new IOException(file + ": " + n + " " + what + " stored but " + model + " has " + expected);
    for (int i = 0; i < n; i++) into.set(i, in.readFloat());
  }
}
