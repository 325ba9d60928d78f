// The IDX reader on small files written here (plain and gzipped), the message when the data is absent, and one real epoch.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Devices;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FashionMnistTest {
  @TempDir Path dir;

  /** Writes an IDX file of unsigned bytes with these sizes; pixel or label i is (i * 7 + seed) mod 256 (mod 10 for labels). */
  private static void idx(Path p, boolean gzip, int seed, int... dims) throws IOException {
    try (OutputStream raw = Files.newOutputStream(p); OutputStream o = gzip ? new GZIPOutputStream(raw) : raw;
         DataOutputStream out = new DataOutputStream(o)) {
      out.writeInt(0x0800 | dims.length);
      int n = 1;
      for (int d : dims) {
        out.writeInt(d);
        n *= d;
      }
      for (int i = 0; i < n; i++) out.writeByte(dims.length == 1 ? (i * 7 + seed) % 10 : (i * 7 + seed) % 256);
    }
  }

  private void writeSet(boolean gzip) throws IOException {
    String gz = gzip ? ".gz" : "";
    idx(dir.resolve("train-images-idx3-ubyte" + gz), gzip, 1, 3, 28, 28);
    idx(dir.resolve("train-labels-idx1-ubyte" + gz), gzip, 2, 3);
    idx(dir.resolve("t10k-images-idx3-ubyte" + gz), gzip, 3, 2, 28, 28);
    idx(dir.resolve("t10k-labels-idx1-ubyte" + gz), gzip, 4, 2);
  }

  @Test
  void readsPlainAndGzippedIdxFiles() throws IOException {
    for (boolean gzip : new boolean[] {false, true}) {
      try (var files = Files.list(dir)) {
        for (Path p : files.toList()) Files.delete(p);
      }
      writeSet(gzip);
      Dataset train = FashionMnist.train(dir), test = FashionMnist.test(dir);
      assertEquals(3, train.size());
      assertEquals(2, test.size());
      assertEquals(784, train.width());
      assertEquals(10, train.classes());
      assertEquals((100 * 7 + 1) % 256 / 255f, train.features().get(100), 0f, "pixels scale to [0, 1]");
      assertEquals((1 * 7 + 4) % 10, test.labels().get(1));
    }
  }

  @Test
  void absentDataSaysHowToGetIt() {
    Path nowhere = dir.resolve("nothing-here");
    assertTrue(!FashionMnist.present(nowhere));
    String message = assertThrows(IOException.class, () -> FashionMnist.train(nowhere)).getMessage();
    assertTrue(message.contains("apt-get install dataset-fashion-mnist") && message.contains("--data"), message);
  }

  @Test
  void aFileOfTheWrongTypeIsRefused() throws IOException {
    writeSet(false);
    try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(dir.resolve("train-labels-idx1-ubyte")))) {
      out.writeInt(0x0D01);   // floats, not unsigned bytes
      out.writeInt(3);
    }
    assertTrue(assertThrows(IOException.class, () -> FashionMnist.train(dir)).getMessage().contains("unsigned bytes"));
  }

  /**
   * One epoch of the issue's MLP (784 → 256 → 10, Adam 1e-3, batch 128) on the best device. Ten
   * epochs reach 88 % (docs/PERFORMANCE.md, "nn-layers"); one must clear 83 % here. Needs the
   * dataset (Debian's dataset-fashion-mnist, which scripts/test installs).
   */
  /**
   * A few steps of the issue's CNN on the real images, on the best device: 40 batches of 64
   * (2,560 images) must take the first 1,000 test images past 65 %, and the trained model must
   * save, load and predict the same. The full run (≥ 91 %) is in docs/PERFORMANCE.md.
   */
  @Test
  void aFewBatchesOfTheCnnAndItsWeightsOnTheBestDevice() throws IOException {
    Assumptions.assumeTrue(FashionMnist.present(FashionMnist.DEFAULT_DIR), FashionMnist.howToGet(FashionMnist.DEFAULT_DIR));
    Dataset train = FashionMnist.train(FashionMnist.DEFAULT_DIR).rows("first 2560", 0, 2560);
    Dataset test = FashionMnist.test(FashionMnist.DEFAULT_DIR).rows("first 1000", 0, 1000);
    Sequential m = FashionMnist.cnn().initialize(42);
    List<Trainer.Epoch> log = new Trainer(m, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), Devices.best()).epochs(1).batch(64).seed(42)
        .out(null).fit(train, test);
    assertTrue(log.getFirst().test().accuracy() >= 0.65, "test accuracy after 40 batches on " + Devices.best().id() + ": " + log);
    Path f = dir.resolve("cnn.ljnn");
    Weights.save(m, f);
    Sequential back = Weights.load(f);
    dev.loopjit.types.FloatArray images = test.rows("first 16", 0, 16).features();
    assertEquals(java.util.Arrays.toString(m.predict(images, Devices.best()).labels()), java.util.Arrays.toString(back.predict(images, Devices.best()).labels()));
    java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
    ClassifyExample.show(back, test, 4, Devices.best(), new java.io.PrintStream(text, true, java.nio.charset.StandardCharsets.UTF_8));
    String shown = text.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(shown.contains("of 4 right") && shown.lines().filter(l -> l.contains("@") || l.contains("%")).count() >= 10, shown);
  }

  @Test
  void oneEpochOfTheMlpOnTheBestDevice() throws IOException {
    Assumptions.assumeTrue(FashionMnist.present(FashionMnist.DEFAULT_DIR), FashionMnist.howToGet(FashionMnist.DEFAULT_DIR));
    Dataset train = FashionMnist.train(FashionMnist.DEFAULT_DIR), test = FashionMnist.test(FashionMnist.DEFAULT_DIR);
    Sequential m = Sequential.of(784, Layer.dense(256), Layer.relu(), Layer.dense(10)).initialize(42);
    List<Trainer.Epoch> log = new Trainer(m, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), Devices.best()).epochs(1).batch(128).seed(42)
        .out(null).fit(train, test);
    double accuracy = log.getFirst().test().accuracy();
    assertTrue(accuracy >= 0.83, "test accuracy after one epoch on " + Devices.best().id() + ": " + accuracy);
  }
}
