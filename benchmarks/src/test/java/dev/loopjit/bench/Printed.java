// Test helper: what a report's main method prints, with JMH's JSON written to a file first.
package dev.loopjit.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Runs a report ({@link Report}, {@link LibraryReport}) on JMH results and returns its standard output. */
final class Printed {
  /** A report's {@code main}. */
  interface Main {
    void run(String[] args) throws Exception;
  }

  private Printed() {}

  /** Writes the JSON array of {@code results} to {@code file}, then runs {@code main} with {@code args} and the file last. */
  static String report(Main main, Path file, String results, String... args) throws Exception {
    Files.writeString(file, results);
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = file.toString();
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      main.run(all);
    } finally {
      System.setOut(out);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
