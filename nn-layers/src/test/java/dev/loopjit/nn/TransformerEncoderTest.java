// A small random encoder's whole forward pass on every device against a double-precision reference written here from BERT's definition.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransformerEncoderTest {
  private static final EncoderShape SHAPE = new EncoderShape(50, 20, 2, 12, 3, 20, 2, 1e-5f);
  private static final List<int[]> SEQUENCES = List.of(new int[] {1, 5, 9, 2}, new int[] {1, 49, 2}, new int[] {1, 3, 3, 3, 7, 8, 11, 12, 13, 2},
      new int[] {1, 2}, new int[] {1, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 2});

  private static FloatArray weights() {
    return EncoderReference.weights(SHAPE, 40);
  }

  @Test
  void everyDeviceComputesBertsForwardPass() {
    FloatArray params = weights();
    List<double[]> expected = new ArrayList<>();
    EncoderReference reference = new EncoderReference(SHAPE, params::get);
    for (int[] s : SEQUENCES) expected.add(reference.embedding(s));
    for (Device d : Devices.all())
      try (TransformerEncoder encoder = new TransformerEncoder(SHAPE, params, d, 2)) {
        float[][] actual = encoder.encode(SEQUENCES);
        for (int s = 0; s < SEQUENCES.size(); s++)
          for (int i = 0; i < SHAPE.hidden(); i++)
            assertEquals(expected.get(s)[i], actual[s][i], 2e-5, d.id() + ", sequence " + s + ", feature " + i);
        assertEquals(List.of(32), encoder.graphsBuilt(), d.id() + ": one graph: 29, 7 and 2 tokens all run as 32 rows");
      }
  }

  @Test
  void aShapeThatCannotBeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new EncoderShape(50, 20, 2, 12, 5, 20, 2, 1e-5f));
    assertThrows(IllegalArgumentException.class, () -> new EncoderShape(0, 20, 2, 12, 3, 20, 2, 1e-5f));
    assertThrows(IllegalArgumentException.class, () -> new EncoderShape(50, 20, 2, 12, 3, 20, 2, 0f));
    assertThrows(IllegalArgumentException.class, () -> new EncoderShape(Integer.MAX_VALUE / 2, 20, 2, 12, 3, 20, 2, 1e-5f));
    var tooLong = assertThrows(IllegalArgumentException.class,
        () -> new TransformerEncoder(SHAPE, weights(), Devices.get("jvm"), 1).encode(List.of(new int[21])));
    assertEquals("sequence 0 has 21 tokens; the encoder takes 1 to 20", tooLong.getMessage());
  }
}
