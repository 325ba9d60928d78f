// Fashion-MNIST from its IDX files (plain or gzipped), as Datasets of 784 features in [0, 1] and 10 class labels.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Reads Zalando's Fashion-MNIST: 60,000 training and 10,000 test images of 28×28 grey pixels,
 * 10 classes, from the four IDX files {@code train-images-idx3-ubyte}, {@code train-labels-idx1-ubyte},
 * {@code t10k-images-idx3-ubyte}, {@code t10k-labels-idx1-ubyte}, each plain or with {@code .gz}.
 * Debian's {@code dataset-fashion-mnist} installs them (gzipped) in {@link #DEFAULT_DIR}.
 *
 * <p>IDX: a big-endian header {@code 0x00 0x00 type dims}, then {@code dims} int32 sizes, then the
 * values row-major; type {@code 0x08} is unsigned bytes.
 */
public final class FashionMnist {
  /** Where Debian's {@code dataset-fashion-mnist} package puts the files. */
  public static final Path DEFAULT_DIR = Path.of("/usr/share/datasets/fashion-mnist");
  public static final int PIXELS = 28 * 28, CLASSES = 10;
  /** The class names, by label. */
  public static final String[] CLASS_NAMES = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
      "Ankle boot"};

  private FashionMnist() {}

  /**
   * The convolutional network of issue #16, for 28×28 grey images and 10 classes, with batch norm
   * after each convolution and dropout after the second pooling block:
   * {@code (1, 28, 28) → conv 32 3×3 → batch norm → relu → max pool 2×2 → conv 64 3×3 → batch norm → relu
   * → max pool 2×2 → dropout 0.25 → flatten → dense 128 → relu → dropout 0.25 → dense 10}; 225,226
   * parameters, uninitialised. (Without the two batch norms and the first dropout, the form,
   * it peaked at 90.84 % and overfitted; see docs/PERFORMANCE.md.)
   */
  public static Sequential cnn() {
    return Sequential.of(Layer.shape(1, 28, 28), Layer.conv(32, 3), Layer.batchNorm(), Layer.relu(), Layer.maxPool(2),
        Layer.conv(64, 3), Layer.batchNorm(), Layer.relu(), Layer.maxPool(2), Layer.dropout(0.25f), Layer.flatten(), Layer.dense(128),
        Layer.relu(), Layer.dropout(0.25f), Layer.dense(10));
  }

  /** Whether {@code dir} holds all four files. */
  public static boolean present(Path dir) {
    for (String f : new String[] {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"})
      if (find(dir, f) == null) return false;
    return true;
  }

  /** What to do when the files are missing from {@code dir}. */
  public static String howToGet(Path dir) {
    return "Fashion-MNIST not found in " + dir + " (looked for train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte, "
        + "t10k-labels-idx1-ubyte, plain or .gz).\n"
        + "Get it with Debian's package: apt-get install dataset-fashion-mnist (installs it in " + DEFAULT_DIR + "),\n"
        + "or download the four files from https://github.com/zalandoresearch/fashion-mnist (data/fashion) and pass --data DIR.";
  }

  /** The 60,000 training images. */
  public static Dataset train(Path dir) throws IOException {
    return read(dir, "train", "fashion-mnist train");
  }

  /** The 10,000 test images. */
  public static Dataset test(Path dir) throws IOException {
    return read(dir, "t10k", "fashion-mnist test");
  }

  private static Dataset read(Path dir, String prefix, String name) throws IOException {
    if (!present(dir)) throw new IOException(howToGet(dir));
    Idx images = Idx.read(find(dir, prefix + "-images-idx3-ubyte"));
    Idx labels = Idx.read(find(dir, prefix + "-labels-idx1-ubyte"));
    if (images.dims().length != 3 || images.dims()[1] * images.dims()[2] != PIXELS || labels.dims().length != 1
        || labels.dims()[0] != images.dims()[0])
      throw new IOException(dir + ": " + prefix + " files are not 28×28 images with one label each");
    int n = images.dims()[0];
    FloatArray x = new FloatArray(n * PIXELS);
    for (int i = 0; i < n * PIXELS; i++) x.set(i, (images.values()[i] & 0xff) / 255f);
    IntArray y = new IntArray(n);
    for (int i = 0; i < n; i++) y.set(i, labels.values()[i] & 0xff);
    return Dataset.labelled(name, x, PIXELS, y, CLASSES);
  }

  private static Path find(Path dir, String file) {
    for (Path p : new Path[] {dir.resolve(file), dir.resolve(file + ".gz")}) if (Files.isRegularFile(p)) return p;
    return null;
  }

  /** An IDX file of unsigned bytes: its sizes and its values. */
  record Idx(int[] dims, byte[] values) {
    static Idx read(Path p) throws IOException {
      try (InputStream raw = new BufferedInputStream(Files.newInputStream(p), 1 << 16)) {
        raw.mark(2);
        boolean gz = raw.read() == 0x1f & raw.read() == 0x8b;
        raw.reset();
        return read(new DataInputStream(gz ? new GZIPInputStream(raw, 1 << 16) : raw), p);
      }
    }

    static Idx read(DataInputStream in, Object source) throws IOException {
      int magic = in.readInt();
      if ((magic >>> 16) != 0 || ((magic >>> 8) & 0xff) != 0x08)
        throw new IOException(source + ": not an IDX file of unsigned bytes (magic 0x" + Integer.toHexString(magic) + ")");
      int[] dims = new int[magic & 0xff];
      long count = 1;
      for (int i = 0; i < dims.length; i++) {
        dims[i] = in.readInt();
        count *= dims[i];
      }
      if (dims.length == 0 || count > Integer.MAX_VALUE - 8) throw new IOException(source + ": bad IDX sizes " + java.util.Arrays.toString(dims));
      byte[] values = new byte[(int) count];
      in.readFully(values);
      return new Idx(dims, values);
    }
  }
}
