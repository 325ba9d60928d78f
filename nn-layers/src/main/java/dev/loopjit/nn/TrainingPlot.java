// `loopjit train --plot FILE.png`: training and test loss and test accuracy per epoch, drawn with Java2D.
package dev.loopjit.nn;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A PNG of a training run: the loss of each epoch on the training data and on the test data (left
 * axis) and the test accuracy (right axis, percent), one point per epoch. Drawn with the JDK's own
 * Java2D and ImageIO (headless), so nn-layers, a library, takes no charting dependency for one plot.
 * Where Java2D has no font (a server image without fontconfig's fonts), the text is drawn with
 * {@link PlotFont}'s pixel glyphs instead. The file is written under a temporary name and moved into
 * place: a failed write leaves nothing.
 */
final class TrainingPlot {
  private static final int W = 900, H = 520, LEFT = 80, RIGHT = 80, TOP = 50, BOTTOM = 60;
  private static final Color TRAIN = new Color(0x1f77b4), TEST = new Color(0xff7f0e), ACCURACY = new Color(0x2ca02c);

  private TrainingPlot() {}

  /** Checks, before training, that {@code file} can be written: a PNG name in an existing, writable directory. */
  static void checkWritable(Path file) {
    if (!file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png"))
      throw new IllegalArgumentException("--plot writes a PNG: give a file name ending in .png, not " + file);
    Path dir = file.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) throw new IllegalArgumentException("--plot: the directory " + dir + " does not exist");
    if (!Files.isWritable(dir)) throw new IllegalArgumentException("--plot: the directory " + dir + " is not writable");
    if (Files.isDirectory(file)) throw new IllegalArgumentException("--plot: " + file + " is a directory");
  }

  /** Draws {@code epochs} (of a run titled {@code title}) to {@code file}. */
  static void write(List<Trainer.Epoch> epochs, String title, Path file) throws IOException {
    write(epochs, title, file, systemFontsWork());
  }

  /** As {@link #write(List, String, Path)}, with the system's fonts or with {@link PlotFont}'s. */
  static void write(List<Trainer.Epoch> epochs, String title, Path file, boolean systemFonts) throws IOException {
    System.setProperty("java.awt.headless", "true");
    BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      draw(new Text(g, systemFonts), epochs, title);
    } finally {
      g.dispose();
    }
    Path target = file.toAbsolutePath();
    Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
    try {
      if (!ImageIO.write(img, "png", tmp.toFile())) throw new IOException("no PNG writer in this JDK");
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Whether Java2D can measure and draw text here: it needs fontconfig and an installed font. */
  static boolean systemFontsWork() {
    Graphics2D g = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB).createGraphics();
    try {
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      g.drawString("0", 0, 8);
      return g.getFontMetrics().stringWidth("0") > 0;
    } catch (RuntimeException | LinkageError | InternalError e) {   // "Fontconfig head is null", a missing libfontmanager
      return false;
    } finally {
      g.dispose();
    }
  }

  /** Text in the plot: Java2D's sans-serif where it has fonts, {@link PlotFont}'s pixels (twice as large for the title) where not. */
  private static final class Text {
    final Graphics2D g;
    private final boolean systemFonts;
    private int scale = 1;

    Text(Graphics2D g, boolean systemFonts) {
      this.g = g;
      this.systemFonts = systemFonts;
    }

    void font(boolean title) {
      if (systemFonts) g.setFont(new Font(Font.SANS_SERIF, title ? Font.BOLD : Font.PLAIN, title ? 14 : 12));
      scale = title ? 2 : 1;
    }

    int width(String s) {
      return systemFonts ? g.getFontMetrics().stringWidth(s) : PlotFont.width(s, scale);
    }

    void draw(String s, int x, int y) {
      if (systemFonts) g.drawString(s, x, y);
      else PlotFont.draw(g, s, x, y, scale);
    }
  }

  private static void draw(Text t, List<Trainer.Epoch> epochs, String title) {
    Graphics2D g = t.g;
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, W, H);
    int n = epochs.size();
    double maxLoss = 0;
    for (Trainer.Epoch e : epochs) {
      maxLoss = Math.max(maxLoss, e.trainLoss());
      if (e.test() != null) maxLoss = Math.max(maxLoss, e.test().loss());
    }
    maxLoss = niceCeiling(maxLoss);
    int pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
    // Frame, grid and ticks: the loss on the left, the accuracy (0-100 %) on the right, the epochs below.
    t.font(false);
    for (int k = 0; k <= 5; k++) {
      int y = TOP + ph - ph * k / 5;
      g.setColor(new Color(0xe6e6e6));
      g.drawLine(LEFT, y, LEFT + pw, y);
      g.setColor(Color.DARK_GRAY);
      String loss = String.format(Locale.ROOT, "%.2f", maxLoss * k / 5);
      t.draw(loss, LEFT - 8 - t.width(loss), y + 4);
      t.draw(20 * k + " %", LEFT + pw + 8, y + 4);
    }
    int step = Math.max(1, (n + 11) / 12);
    for (int i = 1; i <= n; i += step) {
      int x = xOf(i, n, pw);
      String s = Integer.toString(i);
      t.draw(s, x - t.width(s) / 2, TOP + ph + 18);
    }
    g.setColor(Color.GRAY);
    g.drawRect(LEFT, TOP, pw, ph);
    g.setColor(Color.BLACK);
    t.draw("epoch", LEFT + pw / 2 - 16, H - 18);
    t.draw("loss", 12, TOP - 12);
    t.draw("test accuracy", W - RIGHT - 20, TOP - 12);
    t.font(true);
    t.draw(title, LEFT, 24);
    // The three lines.
    double[] train = new double[n], test = new double[n], accuracy = new double[n];
    for (int i = 0; i < n; i++) {
      Trainer.Epoch e = epochs.get(i);
      train[i] = e.trainLoss() / maxLoss;
      test[i] = e.test() == null ? Double.NaN : e.test().loss() / maxLoss;
      accuracy[i] = e.test() == null ? Double.NaN : e.test().accuracy();
    }
    line(g, train, TRAIN, pw, ph);
    line(g, test, TEST, pw, ph);
    line(g, accuracy, ACCURACY, pw, ph);
    legend(t, new String[] {"training loss", "test loss", "test accuracy"}, new Color[] {TRAIN, TEST, ACCURACY}, pw);
  }

  /** The points {@code v} (each in [0, 1] of the plot's height; NaN: none), joined. */
  private static void line(Graphics2D g, double[] v, Color c, int pw, int ph) {
    g.setColor(c);
    g.setStroke(new BasicStroke(2f));
    int px = -1, py = -1;
    for (int i = 0; i < v.length; i++) {
      if (Double.isNaN(v[i])) continue;
      int x = xOf(i + 1, v.length, pw), y = TOP + ph - (int) Math.round(ph * Math.max(0, Math.min(1, v[i])));
      g.fillOval(x - 3, y - 3, 7, 7);
      if (px >= 0) g.drawLine(px, py, x, y);
      px = x;
      py = y;
    }
  }

  private static void legend(Text t, String[] names, Color[] colors, int pw) {
    Graphics2D g = t.g;
    t.font(false);
    int x = LEFT + pw - 150, y = TOP + 16;
    for (int i = 0; i < names.length; i++) {
      g.setColor(colors[i]);
      g.fillRect(x, y + 18 * i - 9, 14, 10);
      g.setColor(Color.BLACK);
      t.draw(names[i], x + 20, y + 18 * i);
    }
  }

  private static int xOf(int epoch, int n, int pw) {
    return n <= 1 ? LEFT + pw / 2 : LEFT + (int) Math.round((double) (epoch - 1) * pw / (n - 1));
  }

  /** 1, 2 or 5 times a power of ten, at least {@code v}. */
  private static double niceCeiling(double v) {
    if (!(v > 0)) return 1;
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 5, 10}) if (m * p >= v) return m * p;
    return 10 * p;
  }
}
