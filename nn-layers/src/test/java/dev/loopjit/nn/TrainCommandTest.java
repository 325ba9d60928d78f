// loopjit train's options: each dataset's defaults, overrides, and errors for what it does not know.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Devices;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainCommandTest {
  @Test
  void loopjitWithNoArgumentsListsEveryOptionOfTrain() {
    dev.loopjit.cli.UsageCheck.listsEveryOption("train", TrainCommand.USAGE, 18);
  }

  @TempDir Path dir;

  @Test
  void theProfileSaysWhereAStepsTimeWent() throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    java.io.PrintStream saved = System.out;
    System.setOut(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      TrainCommand.run(TrainCommand.Options.parse(new String[] {"--dataset", "toy", "--epochs", "1", "--device", "jvm", "--no-progress", "--profile"}));
    } finally {
      System.setOut(saved);
    }
    String out = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(out.contains("per step: ") && out.contains(" ms wall; kernels ") && out.contains("the rest (launches, sync, host work"), out);
    assertTrue(out.contains("train.gather_x") && out.contains("train.sgd"), "every task of the step, by name:\n" + out);
  }

  @Test
  void defaultsFollowTheDataset() {
    TrainCommand.Options toy = TrainCommand.Options.parse(new String[] {"--dataset", "toy"});
    assertEquals("sgd", toy.optimizer());
    assertEquals(0.01f, toy.lr());
    assertEquals(32, toy.batch());
    assertEquals(50, toy.hidden());
    TrainCommand.Options fashion = TrainCommand.Options.parse(new String[] {"--dataset", "fashion-mnist"});
    assertEquals("adam", fashion.optimizer());
    assertEquals(1e-3f, fashion.lr());
    assertEquals(128, fashion.batch());
    assertEquals(256, fashion.hidden());
    assertEquals(FashionMnist.DEFAULT_DIR, fashion.data());
  }

  @Test
  void optionsOverrideTheDefaults() {
    TrainCommand.Options o = TrainCommand.Options.parse(new String[] {"--dataset", "fashion-mnist", "--optimizer", "sgd", "--epochs", "3",
        "--batch", "64", "--device", "jvm", "--seed", "7", "--data", "/tmp/fm", "--no-progress"});
    assertEquals(0.05f, o.lr());
    assertEquals(3, o.epochs());
    assertEquals(64, o.batch());
    assertEquals("jvm", o.device());
    assertEquals(7, o.seed());
    assertEquals(Path.of("/tmp/fm"), o.data());
    assertEquals(false, o.progress());
  }

  @Test
  void theConvolutionalModelIsForImages() {
    TrainCommand.Options cnn = TrainCommand.Options.parse(new String[] {"--dataset", "fashion-mnist", "--model", "cnn", "--show", "4"});
    assertEquals("cnn", cnn.model());
    assertEquals(12, cnn.epochs());
    assertEquals(0.8f, cnn.lrDecay());
    assertEquals(1f, TrainCommand.Options.parse(new String[] {"--dataset", "fashion-mnist"}).lrDecay());
    assertEquals(0.5f, TrainCommand.Options.parse(new String[] {"--dataset", "toy", "--lr-decay", "0.5"}).lrDecay());
    assertThrows(IllegalArgumentException.class, () -> TrainCommand.Options.parse(new String[] {"--lr-decay", "1.5"}));
    assertEquals(4, cnn.show());
    assertEquals("mlp", TrainCommand.Options.parse(new String[] {"--dataset", "fashion-mnist"}).model());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainCommand.Options.parse(new String[] {"--dataset", "toy", "--model", "cnn"}))
        .getMessage().contains("fashion-mnist"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainCommand.Options.parse(new String[] {"--model", "rnn"}))
        .getMessage().contains("mlp, cnn"));
  }

  @Test
  void unknownDatasetsOptionsAndMissingValuesAreErrors() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainCommand.Options.parse(new String[] {"--dataset", "cifar"}))
        .getMessage().contains("toy, fashion-mnist"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainCommand.Options.parse(new String[] {"--fast", "1"}))
        .getMessage().contains("--fast"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainCommand.Options.parse(new String[] {"--epochs"}))
        .getMessage().contains("needs a value"));
  }

  @Test
  void missingFashionMnistSaysHowToGetIt() {
    TrainCommand.Options o = TrainCommand.Options.parse(new String[] {"--dataset", "fashion-mnist", "--data", dir.resolve("none").toString()});
    assertTrue(assertThrows(IOException.class, () -> TrainCommand.run(o)).getMessage().contains("apt-get install dataset-fashion-mnist"));
  }

  @Test
  void trainsTheToyProblemAndSavesWeightsThatLoadBack() throws IOException {
    Path saved = dir.resolve("toy.ljnn");
    List<Trainer.Epoch> log = TrainCommand.run(TrainCommand.Options.parse(new String[] {"--dataset", "toy", "--epochs", "3", "--device",
        Devices.best().id(), "--save", saved.toString(), "--no-progress"}));
    assertEquals(3, log.size());
    Sequential back = Weights.load(saved);
    assertEquals("20 → dense 50 → relu → dense 1 (1,101 parameters)", back.toString());
    // continuing from the saved weights starts where the first run ended
    List<Trainer.Epoch> more = TrainCommand.run(TrainCommand.Options.parse(new String[] {"--dataset", "toy", "--epochs", "1", "--device",
        Devices.best().id(), "--load", saved.toString(), "--no-progress"}));
    assertTrue(more.getFirst().trainLoss() < log.getFirst().trainLoss());
  }

  @Test
  void plotsTheRunToAPngAndRefusesAPathItCannotWriteBeforeTraining() throws IOException {
    Path png = dir.resolve("run.png");
    List<Trainer.Epoch> log = TrainCommand.run(TrainCommand.Options.parse(new String[] {"--dataset", "toy", "--epochs", "4", "--device",
        Devices.best().id(), "--plot", png.toString(), "--no-progress"}));
    assertEquals(4, log.size());
    java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
    assertEquals(900, img.getWidth());
    assertEquals(520, img.getHeight());
    int colored = 0;   // the three lines are drawn: pixels of the training loss's blue, the test loss's orange, the accuracy's green
    for (int rgb : new int[] {0x1f77b4, 0xff7f0e, 0x2ca02c}) {
      boolean found = false;
      for (int y = 0; y < img.getHeight() && !found; y++)
        for (int x = 0; x < img.getWidth() && !found; x++) found = (img.getRGB(x, y) & 0xffffff) == rgb;
      if (found) colored++;
    }
    assertEquals(3, colored);
    try (var files = java.nio.file.Files.list(dir)) {
      assertTrue(files.noneMatch(f -> f.toString().endsWith(".tmp")), "no temporary file left");
    }
    for (String bad : new String[] {dir.resolve("missing/run.png").toString(), dir.resolve("run.jpg").toString()})
      assertThrows(IllegalArgumentException.class, () -> TrainCommand.Options.parse(new String[] {"--dataset", "toy", "--plot", bad}), bad);
  }

  /** Where Java2D has no font (a GPU host's minimal image: "Fontconfig head is null"), the plot's text is drawn in PlotFont's pixels. */
  @Test
  void withoutSystemFontsTheTextIsDrawnInPixelGlyphs() throws IOException {
    List<Trainer.Epoch> log = TrainCommand.run(TrainCommand.Options.parse(new String[] {"--dataset", "toy", "--epochs", "3", "--device", "jvm",
        "--no-progress"}));
    Path png = dir.resolve("pixels.png");
    TrainingPlot.write(log, "TOY 0.5", png, false);
    java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
    int black = 0;   // the title "TOY 0.5" at (80, 24), glyphs twice their size: 6 pixels of 5×7 cells
    for (int y = 24 - 14; y < 24; y++)
      for (int x = 80; x < 80 + PlotFont.width("TOY 0.5", 2); x++) if ((img.getRGB(x, y) & 0xffffff) == 0) black++;
    // T 11, O 16, Y 10, space 0, 0 19, . 4, 5 17 pixels set in their glyphs, each drawn 2×2
    assertEquals(4 * (11 + 16 + 10 + 19 + 4 + 17), black);
    int axisText = 0;   // the tick labels left of the frame are drawn too
    for (int y = 50; y < 520 - 60; y++) for (int x = 0; x < 80 - 4; x++) if ((img.getRGB(x, y) & 0xffffff) == 0x404040) axisText++;
    assertTrue(axisText > 0, "tick labels drawn");
  }
}
