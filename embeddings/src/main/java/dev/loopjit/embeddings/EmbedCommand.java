// `loopjit embed`: sentence embeddings from the command line, one output line of numbers per input line, or a file's lines ranked by meaning.
package dev.loopjit.embeddings;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code loopjit embed [--device ID] [--batch N] [--input FILE] [--output FILE] [--model FILE.onnx
 * --tokenizer FILE.json] [--profile] [SENTENCE...]} writes one line per sentence — its embedding's numbers
 * separated by spaces — in input order; sentences come from the arguments, else from
 * {@code --input} (one per line), else from standard input. {@code --search FILE QUERY [--top N]}
 * ranks FILE's lines by cosine similarity to QUERY and prints the best N (10; 0 for all) as
 * {@code similarity<TAB>line}. {@code --profile} prints where the time went. Everything is read and
 * checked before the model runs.
 */
public final class EmbedCommand {
  static final String USAGE = """
      usage: loopjit embed [--device ID] [--batch N] [--input FILE] [--output FILE] [--model FILE.onnx --tokenizer FILE.json] [--profile]
                           [SENTENCE...]
             loopjit embed --search FILE QUERY [--top N] [--device ID] [--batch N] [--model FILE.onnx --tokenizer FILE.json] [--profile]
        SENTENCE...          sentences to embed (else --input's lines, else standard input's)
        --input FILE         one sentence per line
        --output FILE        where the embeddings go (default: standard output), one line of numbers per sentence
        --search FILE QUERY  rank FILE's lines by cosine similarity to QUERY, best first: similarity<TAB>line
        --top N              how many ranked lines to print (default 10; 0: all)
        --device ID          the device (default: the best; loopjit devices lists them)
        --batch N            sentences per execution (default 32)
        --model, --tokenizer another BERT-family sentence encoder's ONNX file and tokenizer.json (default: all-MiniLM-L6-v2)
        --profile            afterwards, where the time went (each kind of kernel, copies, JIT) on standard error
      """;

  private EmbedCommand() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status (2: bad arguments or input). */
  static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    String device = null, input = null, output = null, model = null, tokenizer = null, search = null, query = null;
    int batch = SentenceEncoder.DEFAULT_BATCH, top = 10;
    boolean profile = false;
    List<String> sentences = new ArrayList<>();
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--device" -> device = value(args, ++i, a);
          case "--input" -> input = value(args, ++i, a);
          case "--output" -> output = value(args, ++i, a);
          case "--model" -> model = value(args, ++i, a);
          case "--tokenizer" -> tokenizer = value(args, ++i, a);
          case "--batch" -> batch = positive(value(args, ++i, a), a, 1);
          case "--top" -> top = positive(value(args, ++i, a), a, 0);
          case "--profile" -> profile = true;
          case "--search" -> {
            search = value(args, ++i, a);
            query = value(args, ++i, a + " FILE");
          }
          case "--help", "-h" -> {
            out.print(USAGE);
            return 0;
          }
          default -> {
            if (a.startsWith("--")) throw new IllegalArgumentException("unknown option " + a);
            sentences.add(a);
          }
        }
      }
      if ((model == null) != (tokenizer == null)) throw new IllegalArgumentException("--model and --tokenizer go together");
      if (search != null && (input != null || output != null || !sentences.isEmpty()))
        throw new IllegalArgumentException("--search takes FILE and QUERY only, not --input, --output or sentences");
      if (input != null && !sentences.isEmpty()) throw new IllegalArgumentException("sentences come from --input or the arguments, not both");
      if (search != null) sentences = lines(Path.of(search));
      else if (input != null) sentences = lines(Path.of(input));
      else if (sentences.isEmpty()) sentences = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).lines().toList();
    } catch (IllegalArgumentException e) {
      err.println("loopjit embed: " + e.getMessage());
      err.print(USAGE);
      return 2;
    }
    SentenceEncoder encoder;
    try {
      Device d = device == null ? Devices.best() : Devices.get(device);
      encoder = model == null ? SentenceEncoder.allMiniLmL6V2(d, batch) : SentenceEncoder.load(Path.of(model), Path.of(tokenizer), d, batch);
    } catch (IllegalArgumentException e) {
      // an unknown device, a missing file, a model or tokenizer that is not what LoopJIT reads: said before anything runs
      err.println("loopjit embed: " + e.getMessage());
      return 2;
    }
    try (encoder) {
      if (profile) encoder.encoder().withProfiler();
      int status = embed(encoder, search, query, sentences, output, top, out);
      if (profile) err.print(encoder.encoder().profileReport());
      return status;
    }
  }

  private static int embed(SentenceEncoder encoder, String search, String query, List<String> sentences, String output, int top, PrintStream out)
      throws IOException {
    if (search != null) {
      List<String> all = new ArrayList<>(sentences);
      all.add(query);
      List<float[]> e = encoder.encode(all);
      float[] q = e.get(all.size() - 1);
      List<Integer> order = new ArrayList<>();
      float[] score = new float[sentences.size()];
      for (int i = 0; i < sentences.size(); i++) {
        order.add(i);
        score[i] = SentenceEncoder.cosine(q, e.get(i));
      }
      order.sort(Comparator.comparingDouble((Integer i) -> -score[i]).thenComparingInt(i -> i));
      for (int k = 0; k < order.size() && (top == 0 || k < top); k++) out.printf("%.4f\t%s%n", score[order.get(k)], sentences.get(order.get(k)));
      return 0;
    }
    List<float[]> embeddings = encoder.encode(sentences);
    if (output == null) write(embeddings, out);
    else
      try (Writer w = Files.newBufferedWriter(Path.of(output), StandardCharsets.UTF_8)) {
        for (float[] e : embeddings) w.write(line(e));
      }
    return 0;
  }

  private static void write(List<float[]> embeddings, PrintStream out) {
    for (float[] e : embeddings) out.print(line(e));
    out.flush();
  }

  /** One embedding as a line: each number as Java prints a float (the shortest text that reads back to it), separated by spaces. */
  static String line(float[] e) {
    StringBuilder s = new StringBuilder(e.length * 12);
    for (int i = 0; i < e.length; i++) s.append(i == 0 ? "" : " ").append(e[i]);
    return s.append('\n').toString();
  }

  static List<String> lines(Path p) {
    if (!Files.isRegularFile(p)) throw new IllegalArgumentException(p + " is not a file");
    try {
      return Files.readAllLines(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + p + " as UTF-8 text: " + e.getMessage());
    }
  }

  static String value(String[] args, int i, String option) {
    if (i >= args.length) throw new IllegalArgumentException(option + " needs a value");
    return args[i];
  }

  static int positive(String v, String option, int least) {
    try {
      int n = Integer.parseInt(v);
      if (n >= least) return n;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(option + " takes a whole number ≥ " + least + ", not " + v);
  }
}
