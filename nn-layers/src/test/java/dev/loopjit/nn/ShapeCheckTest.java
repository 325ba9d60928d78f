// Models whose layers do not fit are refused when built, with the layer and both shapes in the message; so are bad layer settings.
package dev.loopjit.nn;

import static dev.loopjit.nn.Layer.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ShapeCheckTest {
  private static String refused(Shape input, Layer... layers) {
    return assertThrows(IllegalArgumentException.class, () -> Sequential.of(input, layers)).getMessage();
  }

  private static void assertMentions(String message, String... parts) {
    for (String p : parts) assertTrue(message.contains(p), "\"" + p + "\" missing from: " + message);
  }

  @Test
  void theIssuesNetworkHasTheExpectedShapes() {
    Sequential m = FashionMnist.cnn();
    assertEquals(Shape.of(1, 28, 28), m.shape(0));
    assertEquals(Shape.of(32, 26, 26), m.shape(1));
    assertEquals(Shape.of(32, 26, 26), m.shape(2));
    assertEquals(Shape.of(32, 13, 13), m.shape(4));
    assertEquals(Shape.of(64, 11, 11), m.shape(5));
    assertEquals(Shape.of(64, 5, 5), m.shape(8));
    assertEquals(Shape.of(1600), m.shape(10));
    assertEquals(10, m.outputs());
    assertEquals(32 * 9 + 32 + 2 * 32 + 64 * 32 * 9 + 64 + 2 * 64 + 1600 * 128 + 128 + 128 * 10 + 10, m.parameterCount());
    assertEquals("1×28×28 → conv 32 3×3 → batch norm → relu → max pool 2×2 → conv 64 3×3 → batch norm → relu → max pool 2×2 → dropout 0.25"
        + " → flatten → dense 128 → relu → dropout 0.25 → dense 10 (225,226 parameters)", m.toString());
  }

  @Test
  void aKernelLargerThanThePaddedInput() {
    assertMentions(refused(shape(1, 6, 6), conv(4, 3), conv(4, 5)), "layer 1 (conv 4 5×5)", "(4, 4, 4)", "5×5 kernel", "after layer 0 (conv 4 3×3)");
    // padding makes it fit
    assertEquals(Shape.of(4, 2, 2), Sequential.of(shape(1, 6, 6), conv(4, 3), conv(4, 5, 1, 1)).shape(2));
    assertMentions(refused(shape(3, 2, 9), maxPool(3)), "layer 0 (max pool 3×3)", "window", "(3, 2, 9)", "after the input");
  }

  @Test
  void aDenseLayerAfterAConvolution() {
    assertMentions(refused(shape(1, 8, 8), conv(2, 3), dense(10)), "layer 1 (dense 10)", "(2, 6, 6)", "flatten()", "(72)");
    assertMentions(refused(shape(1, 8, 8), conv(2, 3), flatten(), dense(10).withInputs(64)), "layer 2 (dense 10)", "takes (64)", "gets (72)",
        "after layer 1 (flatten)");
    assertMentions(refused(Shape.of(784), conv(8, 3)), "layer 0 (conv 8 3×3)", "(784)", "shape(1, 28, 28)");
  }

  @Test
  void channelsThatDoNotMatch() {
    assertMentions(refused(shape(3, 8, 8), conv(4, 3).withInputChannels(3), conv(4, 3).withInputChannels(3)), "layer 1 (conv 4 3×3)",
        "takes 3 channels", "(4, 6, 6)");
  }

  @Test
  void badSettings() {
    assertThrows(IllegalArgumentException.class, () -> conv(0, 3));
    assertThrows(IllegalArgumentException.class, () -> conv(4, 3, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> conv(4, 3, 1, -1));
    assertThrows(IllegalArgumentException.class, () -> maxPool(0));
    assertThrows(IllegalArgumentException.class, () -> dropout(1f));
    assertThrows(IllegalArgumentException.class, () -> dropout(Float.NaN));
    assertThrows(IllegalArgumentException.class, () -> new BatchNorm(0.1f, 0f));
    assertThrows(IllegalArgumentException.class, () -> shape(1, 0, 4));
    assertThrows(IllegalArgumentException.class, () -> shape(1, 2, 3, 4));
  }
}
