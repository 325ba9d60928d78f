// Weight files: a saved model loads back identical (dense or convolutional, with state); version 1 files still load; damaged files fail.
package dev.loopjit.nn;

import static dev.loopjit.nn.Layer.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeightsTest {
  @TempDir Path dir;

  private static void assertSame(Sequential m, Sequential back) {
    assertEquals(m.toString(), back.toString());
    assertEquals(m.inputShape(), back.inputShape());
    assertEquals(m.layers(), back.layers());
    assertArrayEquals(m.parameters().toArray(), back.parameters().toArray());
    assertArrayEquals(m.state().toArray(), back.state().toArray());
  }

  @Test
  void aSavedModelLoadsBackWithTheSameLayersAndParameters() throws IOException {
    Sequential m = Sequential.of(7, dense(5), gelu(), dense(4), sigmoid(), tanh(), dense(3), relu()).initialize(8);
    Path f = dir.resolve("m.ljnn");
    Weights.save(m, f);
    assertSame(m, Weights.load(f));
  }

  @Test
  void everyLayerAndItsSettingsAndStateLoadBack() throws IOException {
    Sequential m = Sequential.of(shape(3, 9, 8), conv(4, 3, 2, 1).withInputChannels(3), batchNorm(), relu(), maxPool(2, 1),
        conv(5, 2).withoutBias(), avgPool(2), flatten(), dropout(0.375f), dense(6).withInputs(5), layerNorm(), dense(2)).initialize(3);
    for (int i = 0; i < m.stateCount(); i++) m.state().set(i, 0.5f + i);   // as if trained: running statistics that are not the initial ones
    Path f = dir.resolve("cnn.ljnn");
    Weights.save(m, f);
    Sequential back = Weights.load(f);
    assertSame(m, back);
    assertEquals(8, m.stateCount());
  }

  @Test
  void theFileIsTheDocumentedLayout() throws IOException {
    Sequential m = Sequential.of(3, dense(2), relu()).initialize(1);
    Path f = dir.resolve("small.ljnn");
    Weights.save(m, f);
    byte[] bytes = Files.readAllBytes(f);
    // magic, version, rank, 1 dim, L, (code, n, units, inputs), (code, n), P, 8 floats, S
    assertEquals(4 + 4 + 4 + 4 + 4 + 16 + 8 + 4 + 8 * 4 + 4, bytes.length);
    ByteBuffer b = ByteBuffer.wrap(bytes);     // big-endian, as documented
    assertEquals("LJNN", new String(bytes, 0, 4, java.nio.charset.StandardCharsets.US_ASCII));
    b.position(4);
    int[] header = {2, 1, 3, 2, 0, 2, 2, 0, 1, 0, 8};
    for (int h : header) assertEquals(h, b.getInt());
    for (int i = 0; i < 8; i++) assertEquals(m.parameters().get(i), b.getFloat(), "parameter " + i);
    assertEquals(0, b.getInt());
  }

  @Test
  void aVersion1FileStillLoads() throws IOException {
    // written by hand as the MLP builds before version 2 wrote them: 3 → dense 2 → relu → dense 1
    Path f = dir.resolve("v1.ljnn");
    float[] p = {0.5f, -1f, 2f, 0.25f, 0f, 1.5f, 0.1f, -0.2f, 3f, -4f, 0.75f};
    try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(f))) {
      out.writeInt(0x4C4A4E4E);
      out.writeInt(1);
      out.writeInt(3);
      out.writeInt(3);
      for (int[] layer : new int[][] {{0, 2}, {1, 0}, {0, 1}}) {
        out.writeInt(layer[0]);
        out.writeInt(layer[1]);
      }
      out.writeInt(p.length);
      for (float v : p) out.writeFloat(v);
    }
    Sequential m = Weights.load(f);
    assertEquals("3 → dense 2 → relu → dense 1 (11 parameters)", m.toString());
    assertEquals(java.util.List.of(dense(2), relu(), dense(1)), m.layers());
    assertArrayEquals(p, m.parameters().toArray());
    assertEquals(0, m.stateCount());
  }

  @Test
  void damagedFilesFailWithAMessage() throws IOException {
    Sequential m = Sequential.of(3, dense(2)).initialize(1);
    Path good = dir.resolve("good.ljnn");
    Weights.save(m, good);
    byte[] bytes = Files.readAllBytes(good);

    Path truncated = dir.resolve("truncated.ljnn");
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 3));
    assertTrue(assertThrows(IOException.class, () -> Weights.load(truncated)).getMessage().contains("truncated"));

    Path foreign = dir.resolve("foreign.bin");
    Files.write(foreign, "not weights at all".getBytes());
    assertTrue(assertThrows(IOException.class, () -> Weights.load(foreign)).getMessage().contains("LJNN"));

    Path longer = dir.resolve("longer.ljnn");
    Files.write(longer, Arrays.copyOf(bytes, bytes.length + 1));
    assertTrue(assertThrows(IOException.class, () -> Weights.load(longer)).getMessage().contains("after the last"));

    Path wrongCount = dir.resolve("count.ljnn");
    byte[] changed = bytes.clone();
    ByteBuffer.wrap(changed).putInt(36, 7);   // P: 8 → 7
    Files.write(wrongCount, changed);
    assertTrue(assertThrows(IOException.class, () -> Weights.load(wrongCount)).getMessage().contains("7 parameters stored"));

    Path unknown = dir.resolve("unknown.ljnn");
    byte[] other = bytes.clone();
    ByteBuffer.wrap(other).putInt(20, 99);    // the dense layer's code → 99
    Files.write(unknown, other);
    String message = assertThrows(IOException.class, () -> Weights.load(unknown)).getMessage();
    assertTrue(message.contains("unknown layer code 99") && message.contains("layer 0"), message);

    Path future = dir.resolve("future.ljnn");
    byte[] v9 = bytes.clone();
    ByteBuffer.wrap(v9).putInt(4, 9);
    Files.write(future, v9);
    assertTrue(assertThrows(IOException.class, () -> Weights.load(future)).getMessage().contains("version 9"));
  }

  @Test
  void layersThatDoNotFitAreRefusedWithTheFileName() throws IOException {
    Sequential m = Sequential.of(shape(1, 4, 4), conv(2, 3), flatten(), dense(2)).initialize(1);
    Path f = dir.resolve("bad.ljnn");
    Weights.save(m, f);
    byte[] bytes = Files.readAllBytes(f);
    ByteBuffer.wrap(bytes).putInt(20, 2);   // input (1, 4, 2): a 3×3 kernel no longer fits
    Files.write(f, bytes);
    String message = assertThrows(IOException.class, () -> Weights.load(f)).getMessage();
    assertTrue(message.contains(f.toString()) && message.contains("layer 0 (conv 2 3×3)") && message.contains("(1, 4, 2)"), message);
  }
}
