// One process of scripts/bench-embeddings: the corpus embedded by ONNX Runtime or by LoopJIT on one device, a warm-up pass, then timed passes.
package dev.loopjit.embeddings;

import dev.loopjit.api.Devices;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * {@code EmbeddingBenchmark SYSTEM THREADS STEP PASSES}, or {@code EmbeddingBenchmark SYSTEM THREADS
 * shape:BATCH:TOKENS PASSES} for sentences of exactly TOKENS tokens (random word pieces between
 * [CLS] and [SEP]), BATCH per execution, about 8,192 tokens per pass (2,048 on the sequential jvm). SYSTEM is {@code ort} or a LoopJIT device
 * id; the corpus's every STEP-th sentence, tokenized once by LoopJIT's tokenizer (equal to Hugging
 * Face's), embedded 1 + PASSES times, 32 sentences per batch, longest first as sentence-transformers
 * batches them (ONNX Runtime pads each batch to its longest sentence; LoopJIT as
 * {@link dev.loopjit.nn.TransformerEncoder} does). Prints {@code SYSTEM first=SECONDS median=SECONDS
 * sentences=N tokens=T}: the first pass (with LoopJIT's JIT or the disk cache) and the median of the others.
 */
public final class EmbeddingBenchmark {
  private EmbeddingBenchmark() {}

  public static void main(String[] args) throws Exception {
    String system = args[0];
    int threads = Integer.parseInt(args[1]), passes = Integer.parseInt(args[3]);
    if (args[2].startsWith("shape:")) {
      String[] s = args[2].split(":");
      shapes(system, threads, Integer.parseInt(s[1]), Integer.parseInt(s[2]), passes);
      return;
    }
    List<String> sentences = Corpus.sample(Integer.parseInt(args[2]));
    long start = System.nanoTime();
    double[] seconds = new double[passes + 1];
    long tokens = 0;
    if (system.equals("ort")) {
      WordPieceTokenizer tokenizer = SentenceEncoder.miniLmTokenizer();
      try (OnnxRuntimeReference ort = new OnnxRuntimeReference(threads)) {
        for (int p = 0; p <= passes; p++) {
          long t0 = System.nanoTime();
          List<int[]> ids = new ArrayList<>();
          for (String s : sentences) ids.add(tokenizer.encode(s, SentenceEncoder.MAX_TOKENS));
          if (p == 0) tokens = ids.stream().mapToLong(i -> i.length).sum();
          ids.sort(Comparator.comparingInt((int[] i) -> -i.length));
          ort.embed(ids, SentenceEncoder.DEFAULT_BATCH);
          seconds[p] = (System.nanoTime() - (p == 0 ? start : t0)) / 1e9;
        }
      }
    } else {
      try (SentenceEncoder encoder = SentenceEncoder.allMiniLmL6V2(Devices.get(system))) {
        for (String s : sentences) tokens += encoder.tokenizer().encode(s, SentenceEncoder.MAX_TOKENS).length;
        for (int p = 0; p <= passes; p++) {
          long t0 = System.nanoTime();
          encoder.encode(sentences);
          seconds[p] = (System.nanoTime() - (p == 0 ? start : t0)) / 1e9;
        }
      }
    }
    double[] timed = Arrays.copyOfRange(seconds, 1, seconds.length);
    Arrays.sort(timed);
    System.out.printf("%s first=%.3f median=%.3f sentences=%d tokens=%d%n", system, seconds[0], timed[timed.length / 2], sentences.size(), tokens);
  }

  /** Fixed-shape batches: {@code batch} sentences of {@code tokens} tokens per execution, the same batches for every system. */
  private static void shapes(String system, int threads, int batch, int tokens, int passes) throws Exception {
    int batches = Math.max(1, (system.equals("jvm") ? 2048 : 8192) / (batch * tokens));   // the sequential jvm: a quarter
    java.util.Random r = new java.util.Random(11);
    List<int[]> ids = new ArrayList<>();
    for (int i = 0; i < batches * batch; i++) {
      int[] s = new int[tokens];
      s[0] = 101;
      for (int t = 1; t < tokens - 1; t++) s[t] = 1000 + r.nextInt(29000);
      s[tokens - 1] = 102;
      ids.add(s);
    }
    double[] seconds = new double[passes + 1];
    if (system.equals("ort")) {
      try (OnnxRuntimeReference ort = new OnnxRuntimeReference(threads)) {
        for (int p = 0; p <= passes; p++) {
          long t0 = System.nanoTime();
          ort.embed(ids, batch);
          seconds[p] = (System.nanoTime() - t0) / 1e9;
        }
      }
    } else {
      try (SentenceEncoder encoder = SentenceEncoder.allMiniLmL6V2(Devices.get(system), batch)) {
        for (int p = 0; p <= passes; p++) {
          long t0 = System.nanoTime();
          for (int b = 0; b < batches; b++) encoder.encoder().encode(ids.subList(b * batch, (b + 1) * batch));
          seconds[p] = (System.nanoTime() - t0) / 1e9;
        }
      }
    }
    double[] timed = Arrays.copyOfRange(seconds, 1, seconds.length);
    Arrays.sort(timed);
    System.out.printf("%s first=%.3f median=%.3f sentences=%d tokens=%d%n", system, seconds[0], timed[timed.length / 2], ids.size(),
        ids.size() * tokens);
  }
}
