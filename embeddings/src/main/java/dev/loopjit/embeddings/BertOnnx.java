// Reads a BERT encoder's weights from an ONNX file exported from Hugging Face transformers, refusing any other graph before device work.
package dev.loopjit.embeddings;

import dev.loopjit.embeddings.onnx.Onnx;
import dev.loopjit.nn.EncoderShape;
import dev.loopjit.types.FloatArray;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The weights of a BERT encoder in an ONNX file, as {@link EncoderShape} lays them out. The file
 * is read with classes generated from the ONNX format's protobuf description at build time. Named
 * initializers ({@code embeddings.word_embeddings.weight}, {@code encoder.layer.3.output.dense.bias},
 * …) map by name; the projection matrices, which PyTorch's export leaves unnamed, map through the
 * {@code MatMul} node whose output the export names after the layer
 * ({@code /encoder/layer.3/attention/self/query/MatMul_output_0}). The head count comes from the
 * attention's scale (the divisor of {@code QKᵀ}, √E), LayerNorm's ε from its {@code Add} node.
 * Anything else — a missing tensor, a wrong shape, an operator BERT does not use, weights kept
 * outside the file — is refused with an {@link IllegalArgumentException} naming it.
 */
public final class BertOnnx {
  /** The operators of a BERT encoder as PyTorch exports it (opset 11 and later). */
  static final Set<String> OPERATORS = Set.of("Add", "Cast", "Concat", "Constant", "ConstantOfShape", "Div", "Equal", "Erf", "Expand", "Gather",
      "MatMul", "Mul", "Pow", "ReduceMean", "Reshape", "Shape", "Slice", "Softmax", "Sqrt", "Sub", "Transpose", "Unsqueeze", "Where");
  private static final int FLOAT = 1;

  /** An encoder's sizes and weights. */
  public record Weights(EncoderShape shape, FloatArray params) {}

  private final String source;
  private final Map<String, Onnx.Tensor> tensors = new HashMap<>();
  private final Map<String, Onnx.Node> producers = new HashMap<>();
  private final List<Onnx.Node> nodes;

  private BertOnnx(String source, Onnx.Model model) {
    this.source = source;
    Onnx.Graph graph = model.getGraph();
    nodes = graph.getNodeList();
    for (Onnx.Tensor t : graph.getInitializerList()) tensors.put(t.getName(), t);
    for (Onnx.Node n : nodes) {
      if (!n.getDomain().isEmpty() || !OPERATORS.contains(n.getOpType()))
        throw refuse("has a " + (n.getDomain().isEmpty() ? "" : n.getDomain() + ".") + n.getOpType() + " node (" + n.getName()
            + "), which a BERT encoder exported from PyTorch does not use");
      for (String out : n.getOutputList()) producers.put(out, n);
      if (n.getOpType().equals("Constant"))
        for (Onnx.Attribute a : n.getAttributeList())
          if (a.getName().equals("value")) tensors.put(n.getOutput(0), a.getT());
    }
    List<String> inputs = graph.getInputList().stream().map(Onnx.ValueInfo::getName).toList();
    if (!inputs.contains("input_ids") || !inputs.contains("attention_mask"))
      throw refuse("takes " + inputs + "; a BERT encoder takes input_ids and attention_mask (and token_type_ids)");
  }

  /** Reads the encoder from {@code in} (an ONNX file's bytes); {@code source} names it in errors. */
  public static Weights read(InputStream in, String source) throws IOException {
    Onnx.Model model;
    try {
      model = Onnx.Model.parseFrom(in);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(source + " is not an ONNX model: " + e.getMessage(), e);
    }
    return new BertOnnx(source, model).weights();
  }

  private Weights weights() {
    float[] word = matrix("embeddings.word_embeddings.weight", -1, -1);
    Onnx.Tensor w = tensor("embeddings.word_embeddings.weight");
    int vocabulary = (int) w.getDims(0), hidden = (int) w.getDims(1);
    float[] position = matrix("embeddings.position_embeddings.weight", -1, hidden);
    float[] type = matrix("embeddings.token_type_embeddings.weight", -1, hidden);
    int positions = position.length / hidden, tokenTypes = type.length / hidden;
    int layers = 0;
    while (tensors.containsKey("encoder.layer." + layers + ".attention.self.query.bias")) layers++;
    if (layers == 0) throw refuse("has no encoder.layer.0.attention.self.query.bias: no encoder layers");
    int intermediate = (int) tensor("encoder.layer.0.intermediate.dense.bias").getDims(0);
    int heads = hidden / headSize(hidden);
    EncoderShape shape = new EncoderShape(vocabulary, positions, tokenTypes, hidden, heads, intermediate, layers, epsilon());

    FloatArray params = new FloatArray(shape.parameters());
    put(params, shape.word(), word);
    put(params, shape.position(), position);
    put(params, shape.type(), type);
    put(params, shape.embeddingNorm(), vector("embeddings.LayerNorm.weight", hidden));
    put(params, shape.embeddingNorm() + hidden, vector("embeddings.LayerNorm.bias", hidden));
    for (int l = 0; l < layers; l++) {
      EncoderShape.Block b = shape.block(l);
      String p = "encoder.layer." + l + ".", node = "/encoder/layer." + l + "/";
      String[] qkv = {"attention/self/query", "attention/self/key", "attention/self/value"};
      for (int i = 0; i < 3; i++) {
        put(params, b.qkv() + i * hidden * hidden, transposed(projection(node + qkv[i]), hidden, hidden));
        put(params, b.qkvBias() + i * hidden, vector(p + qkv[i].replace('/', '.') + ".bias", hidden));
      }
      put(params, b.output(), transposed(projection(node + "attention/output/dense"), hidden, hidden));
      put(params, b.outputBias(), vector(p + "attention.output.dense.bias", hidden));
      put(params, b.attentionNorm(), vector(p + "attention.output.LayerNorm.weight", hidden));
      put(params, b.attentionNorm() + hidden, vector(p + "attention.output.LayerNorm.bias", hidden));
      put(params, b.up(), transposed(projection(node + "intermediate/dense"), hidden, intermediate));
      put(params, b.upBias(), vector(p + "intermediate.dense.bias", intermediate));
      put(params, b.down(), transposed(projection(node + "output/dense"), intermediate, hidden));
      put(params, b.downBias(), vector(p + "output.dense.bias", hidden));
      put(params, b.outputNorm(), vector(p + "output.LayerNorm.weight", hidden));
      put(params, b.outputNorm() + hidden, vector(p + "output.LayerNorm.bias", hidden));
    }
    long erfs = nodes.stream().filter(n -> n.getOpType().equals("Erf")).count();
    long softmaxes = nodes.stream().filter(n -> n.getOpType().equals("Softmax")).count();
    if (erfs != layers || softmaxes != layers)
      throw refuse("has " + erfs + " Erf and " + softmaxes + " Softmax nodes for " + layers + " layers; a BERT encoder has one of each per layer");
    return new Weights(shape, params);
  }

  /** The (in, out) matrix a layer's MatMul multiplies by, found through the node the export names after the layer. */
  private float[] projection(String layer) {
    String output = layer + "/MatMul_output_0";
    Onnx.Node n = producers.get(output);
    if (n == null || !n.getOpType().equals("MatMul") || n.getInputCount() != 2)
      throw refuse("has no MatMul node producing " + output);
    String weight = n.getInput(1);
    if (!tensors.containsKey(weight)) throw refuse("multiplies " + output + " by " + weight + ", which is not a weight in the file");
    return floats(tensor(weight));
  }

  /** √E, the divisor of the first layer's QKᵀ, gives the head size E. */
  private int headSize(int hidden) {
    Onnx.Node scores = producers.get("/encoder/layer.0/attention/self/MatMul_output_0");
    for (Onnx.Node n : nodes)
      if (scores != null && n.getOpType().equals("Div") && n.getInput(0).equals(scores.getOutput(0)) && tensors.containsKey(n.getInput(1))) {
        float scale = scalar(n.getInput(1));
        int e = Math.round(scale * scale);
        if (e > 0 && hidden % e == 0 && Math.abs(Math.sqrt(e) - scale) < 1e-4) return e;
        throw refuse("scales the attention scores by 1/" + scale + ", which is not 1/√E for a head size E dividing " + hidden);
      }
    throw refuse("does not divide /encoder/layer.0/attention/self/MatMul_output_0 by a constant; cannot tell the attention's head count");
  }

  /** LayerNorm's ε: the constant the embeddings' LayerNorm adds to the variance. */
  private float epsilon() {
    Onnx.Node add = producers.get("/embeddings/LayerNorm/Add_output_0");
    if (add != null && add.getOpType().equals("Add"))
      for (String in : add.getInputList())
        if (tensors.containsKey(in)) return scalar(in);
    throw refuse("has no /embeddings/LayerNorm/Add node adding ε to the variance");
  }

  private Onnx.Tensor tensor(String name) {
    Onnx.Tensor t = tensors.get(name);
    if (t == null) throw refuse("has no tensor " + name);
    if (t.getDataLocation() != 0 || t.getExternalDataCount() > 0) throw refuse("keeps " + name + " in an external file, which LoopJIT does not read");
    if (t.getDataType() != FLOAT) throw refuse("holds " + name + " as ONNX data type " + t.getDataType() + ", not float (1)");
    return t;
  }

  private float scalar(String name) {
    float[] v = floats(tensor(name));
    if (v.length != 1) throw refuse("holds " + v.length + " values in " + name + ", which should be one number");
    return v[0];
  }

  private float[] matrix(String name, long rows, long columns) {
    Onnx.Tensor t = tensor(name);
    if (t.getDimsCount() != 2 || (rows >= 0 && t.getDims(0) != rows) || (columns >= 0 && t.getDims(1) != columns))
      throw refuse("holds " + name + " as " + t.getDimsList() + ", not (" + (rows < 0 ? "any" : rows) + ", " + (columns < 0 ? "any" : columns) + ")");
    return floats(t);
  }

  private float[] vector(String name, int length) {
    Onnx.Tensor t = tensor(name);
    if (t.getDimsCount() != 1 || t.getDims(0) != length) throw refuse("holds " + name + " as " + t.getDimsList() + ", not [" + length + "]");
    return floats(t);
  }

  private float[] floats(Onnx.Tensor t) {
    long count = 1;
    for (long d : t.getDimsList()) count *= d;
    float[] v;
    if (!t.getRawData().isEmpty()) {
      if (t.getRawData().size() != count * Float.BYTES)
        throw refuse("holds " + t.getRawData().size() + " bytes for " + t.getName() + " of shape " + t.getDimsList());
      v = new float[(int) count];
      ByteBuffer.wrap(t.getRawData().toByteArray()).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
    } else {
      if (t.getFloatDataCount() != count) throw refuse("holds " + t.getFloatDataCount() + " floats for " + t.getName() + " of shape " + t.getDimsList());
      v = new float[(int) count];
      for (int i = 0; i < count; i++) v[i] = t.getFloatData(i);
    }
    return v;
  }

  private float[] transposed(float[] m, int rows, int columns) {
    if (m.length != rows * columns) throw refuse("has a projection of " + m.length + " values where (" + rows + ", " + columns + ") was expected");
    float[] t = new float[m.length];
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < columns; c++) t[c * rows + r] = m[r * columns + c];
    return t;
  }

  private static void put(FloatArray params, int at, float[] values) {
    java.lang.foreign.MemorySegment.copy(values, 0, params.getSegment(), java.lang.foreign.ValueLayout.JAVA_FLOAT, (long) at * Float.BYTES,
        values.length);
  }

  private IllegalArgumentException refuse(String what) {
    return new IllegalArgumentException(source + " is not a BERT encoder LoopJIT can read: it " + what);
  }
}
