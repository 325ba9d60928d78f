// The reference: ONNX Runtime runs the same ONNX file on the same token ids; pooling and normalisation in double here.
package dev.loopjit.embeddings;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** all-MiniLM-L6-v2 in ONNX Runtime (CPU, {@code threads} intra-op threads), one batch of sequences padded to its longest at a time. */
final class OnnxRuntimeReference implements AutoCloseable {
  private final OrtEnvironment env = OrtEnvironment.getEnvironment();
  private final OrtSession session;

  OnnxRuntimeReference(int threads) throws IOException, OrtException {
    byte[] model;
    try (InputStream in = SentenceEncoder.class.getResourceAsStream(SentenceEncoder.MINILM_ONNX)) {
      model = in.readAllBytes();
    }
    OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    options.setIntraOpNumThreads(threads);
    options.setInterOpNumThreads(1);
    session = env.createSession(model, options);
  }

  /** Mean-pooled, L2-normalised embeddings of each token id sequence, in order, {@code batch} per run. */
  List<float[]> embed(List<int[]> sequences, int batch) throws OrtException {
    List<float[]> out = new ArrayList<>();
    for (int from = 0; from < sequences.size(); from += batch) {
      List<int[]> part = sequences.subList(from, Math.min(sequences.size(), from + batch));
      int b = part.size(), t = part.stream().mapToInt(s -> s.length).max().orElseThrow();
      long[] ids = new long[b * t], mask = new long[b * t], types = new long[b * t];
      for (int i = 0; i < b; i++)
        for (int j = 0; j < part.get(i).length; j++) {
          ids[i * t + j] = part.get(i)[j];
          mask[i * t + j] = 1;
        }
      long[] shape = {b, t};
      try (OnnxTensor a = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
          OnnxTensor m = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
          OnnxTensor y = OnnxTensor.createTensor(env, LongBuffer.wrap(types), shape);
          OrtSession.Result r = session.run(Map.of("input_ids", a, "attention_mask", m, "token_type_ids", y))) {
        float[][][] hidden = (float[][][]) r.get(0).getValue();
        for (int i = 0; i < b; i++) out.add(pool(hidden[i], part.get(i).length));
      }
    }
    return out;
  }

  private static float[] pool(float[][] hidden, int tokens) {
    int d = hidden[0].length;
    double[] mean = new double[d];
    double norm = 0;
    for (int i = 0; i < d; i++) {
      for (int t = 0; t < tokens; t++) mean[i] += hidden[t][i];
      mean[i] /= tokens;
      norm += mean[i] * mean[i];
    }
    float[] e = new float[d];
    for (int i = 0; i < d; i++) e[i] = (float) (mean[i] / Math.max(Math.sqrt(norm), 1e-12));
    return e;
  }

  @Override
  public void close() throws OrtException {
    session.close();
  }
}
