// Classifies a few Fashion-MNIST test images with a trained model and prints them as text, each with its prediction and true label.
package dev.loopjit.nn;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.types.FloatArray;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code model.predict(batch)} on the first test images, drawn as text four to a row:
 * <pre>
 * java … dev.loopjit.nn.ClassifyExample cnn.ljnn [N] [DEVICE]
 * scripts/loopjit train --dataset fashion-mnist --load cnn.ljnn --epochs 0 --show 8
 * </pre>
 * (the weights from {@code scripts/loopjit train --dataset fashion-mnist --model cnn --save cnn.ljnn}).
 */
public final class ClassifyExample {
  /** Grey levels from white (space) to black, for pixels in [0, 1]. */
  private static final String SHADES = " .:-=+*#%@";
  private static final int PER_ROW = 4;

  private ClassifyExample() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: ClassifyExample WEIGHTS [N] [DEVICE]   (train one with: scripts/loopjit train --dataset fashion-mnist --model cnn --save cnn.ljnn)");
      System.exit(2);
    }
    Sequential model = Weights.load(Path.of(args[0]));
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    Device device = args.length > 2 ? Devices.get(args[2]) : Devices.best();
    show(model, FashionMnist.test(FashionMnist.DEFAULT_DIR), n, device, System.out);
  }

  /** Predicts the first {@code n} rows of {@code test} (28×28 images) and prints them with the predicted and the true class. */
  public static void show(Sequential model, Dataset test, int n, Device device, PrintStream out) {
    int pixels = test.width();
    FloatArray images = new FloatArray(n * pixels);
    java.lang.foreign.MemorySegment.copy(test.features().getSegment(), 0, images.getSegment(), 0, (long) n * pixels * Float.BYTES);
    Predictions p = model.predict(images, device);
    out.printf("%nThe first %d test images, predicted by %s on %s:%n", n, model, device.id());
    int side = (int) Math.round(Math.sqrt(pixels)), right = 0;
    for (int first = 0; first < n; first += PER_ROW) {
      int last = Math.min(n, first + PER_ROW);
      StringBuilder caption = new StringBuilder();
      for (int i = first; i < last; i++) {
        int predicted = p.label(i), truth = test.labels().get(i);
        if (predicted == truth) right++;
        String text = String.format("%s %.0f%% %s", name(predicted), 100 * p.probabilities(i)[predicted], predicted == truth ? "ok" : "(is " + name(truth) + ")");
        caption.append(String.format("%-" + (side + 3) + "s", text.length() > side + 2 ? text.substring(0, side + 2) : text));
      }
      out.println();
      for (int y = 0; y < side; y += 2) {   // two pixel rows per line, so the images keep their proportions
        StringBuilder line = new StringBuilder();
        for (int i = first; i < last; i++) {
          for (int x = 0; x < side; x++) {
            float v = (test.features().get(i * pixels + y * side + x) + test.features().get(i * pixels + Math.min(y + 1, side - 1) * side + x)) / 2;
            line.append(SHADES.charAt(Math.min(SHADES.length() - 1, (int) (v * SHADES.length()))));
          }
          line.append("   ");
        }
        out.println(line.toString().stripTrailing());
      }
      out.println(caption.toString().stripTrailing());
    }
    out.printf("%n%d of %d right%n", right, n);
  }

  private static String name(int label) {
    return label >= 0 && label < FashionMnist.CLASS_NAMES.length ? FashionMnist.CLASS_NAMES[label] : "class " + label;
  }
}
