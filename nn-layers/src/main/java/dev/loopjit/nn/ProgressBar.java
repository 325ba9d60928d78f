// A one-line progress bar for a terminal: steps done, the running loss and samples per second, redrawn in place.
package dev.loopjit.nn;

import java.io.PrintStream;

/**
 * Draws {@code [=========>          ] 234/468  loss 0.4123  5,321 samples/s} on one line with
 * {@code \r}, at most ten times a second. Draws nothing when {@code enabled} is false (output
 * going to a file or a pipe), so logs hold only the per-epoch lines.
 */
final class ProgressBar {
  private static final int WIDTH = 30;
  private static final long REDRAW_NANOS = 100_000_000L;

  private final PrintStream out;
  private final boolean enabled;
  private final String label;
  private final int total;
  private final long start = System.nanoTime();
  private long lastDraw;
  private int drawnLength;

  ProgressBar(PrintStream out, boolean enabled, String label, int total) {
    this.out = out;
    this.enabled = enabled;
    this.label = label;
    this.total = total;
  }

  /** Whether standard output is a terminal (the only place a redrawn line makes sense). */
  static boolean terminal() {
    java.io.Console c = System.console();
    return c != null && c.isTerminal();
  }

  void update(int done, double loss, long samples) {
    if (!enabled) return;
    long now = System.nanoTime();
    if (done < total && now - lastDraw < REDRAW_NANOS) return;
    lastDraw = now;
    int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
    String bar = "=".repeat(Math.max(0, filled - 1)) + (filled > 0 ? (done == total ? "=" : ">") : "") + " ".repeat(WIDTH - filled);
    double seconds = (now - start) / 1e9;
    String line = String.format("%s [%s] %d/%d  loss %.4f  %,.0f samples/s", label, bar, done, total, loss, seconds > 0 ? samples / seconds : 0);
    out.print("\r" + line + " ".repeat(Math.max(0, drawnLength - line.length())));
    out.flush();
    drawnLength = line.length();
  }

  /** Clears the bar so that the next line starts clean. */
  void clear() {
    if (!enabled || drawnLength == 0) return;
    out.print("\r" + " ".repeat(drawnLength) + "\r");
    out.flush();
    drawnLength = 0;
  }
}
