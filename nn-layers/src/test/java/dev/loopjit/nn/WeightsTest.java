// Weight files: a saved model loads back identical; damaged or foreign files fail with a message naming the file.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeightsTest {
  @TempDir Path dir;

  @Test
  void aSavedModelLoadsBackWithTheSameLayersAndParameters() throws IOException {
    Sequential m = Sequential.of(7, Layer.dense(5), Layer.gelu(), Layer.dense(4), Layer.sigmoid(), Layer.tanh(), Layer.dense(3), Layer.relu())
        .initialize(8);
    Path f = dir.resolve("m.ljnn");
    Weights.save(m, f);
    Sequential back = Weights.load(f);
    assertEquals(m.toString(), back.toString());
    assertEquals(m.layers(), back.layers());
    assertArrayEquals(m.parameters().toArray(), back.parameters().toArray());
  }

  @Test
  void theFileIsTheDocumentedLayout() throws IOException {
    Sequential m = Sequential.of(3, Layer.dense(2), Layer.relu()).initialize(1);
    Path f = dir.resolve("small.ljnn");
    Weights.save(m, f);
    byte[] bytes = Files.readAllBytes(f);
    // magic, version, inputs, L, 2 × (kind, size), P, then P floats
    assertEquals(4 + 4 + 4 + 4 + 2 * 8 + 4 + 8 * 4, bytes.length);
    ByteBuffer b = ByteBuffer.wrap(bytes);     // big-endian, as documented
    assertEquals("LJNN", new String(bytes, 0, 4, java.nio.charset.StandardCharsets.US_ASCII));
    b.position(4);
    assertEquals(1, b.getInt());
    assertEquals(3, b.getInt());
    assertEquals(2, b.getInt());
    assertEquals(0, b.getInt());
    assertEquals(2, b.getInt());
    assertEquals(1, b.getInt());
    assertEquals(0, b.getInt());
    assertEquals(8, b.getInt());
    for (int i = 0; i < 8; i++) assertEquals(m.parameters().get(i), b.getFloat(), "parameter " + i);
  }

  @Test
  void damagedFilesFailWithAMessage() throws IOException {
    Sequential m = Sequential.of(3, Layer.dense(2)).initialize(1);
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
    byte[] more = Arrays.copyOf(bytes, bytes.length + 1);
    Files.write(longer, more);
    assertTrue(assertThrows(IOException.class, () -> Weights.load(longer)).getMessage().contains("after the last parameter"));

    Path wrongCount = dir.resolve("count.ljnn");
    byte[] changed = bytes.clone();
    ByteBuffer.wrap(changed).putInt(16 + 8, 7);   // P: 8 → 7
    Files.write(wrongCount, changed);
    assertTrue(assertThrows(IOException.class, () -> Weights.load(wrongCount)).getMessage().contains("7 parameters stored"));
    try (DataInputStream in = new DataInputStream(Files.newInputStream(good))) {
      assertEquals(0x4C4A4E4E, in.readInt());
    }
  }
}
