// `loopjit spark-train`'s options: listed by `loopjit`, defaults, and bad values refused with a message before Spark starts.
package dev.loopjit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SparkTrainCommandTest {
  @Test
  void loopjitListsEveryOption() {
    dev.loopjit.cli.UsageCheck.listsEveryOption("spark-train", SparkTrainCommand.USAGE, 20);
  }

  @Test
  void defaultsAndValues() {
    SparkTrainCommand.Options o = SparkTrainCommand.Options.parse(new String[] {"--dataset", "fashion-mnist"});
    assertEquals("local[2]", o.master());
    assertEquals("gradient", o.mode());
    assertEquals(8, o.every());
    assertNull(o.partitions());
    o = SparkTrainCommand.Options.parse(new String[] {"--dataset", "fashion-mnist", "--master", "local[1]", "--partitions", "2", "--mode", "params",
        "--every", "4", "--model", "cnn", "--rounds"});
    assertEquals("params", o.mode());
    assertEquals(4, o.every());
    assertEquals(2, o.partitions());
    assertEquals(true, o.rounds());
    assertEquals(2, SparkTrainCommand.localThreads("local[2]"));
    assertEquals(3, SparkTrainCommand.localThreads("local[3,4]"));
    assertEquals(1, SparkTrainCommand.localThreads("local"));
    assertEquals(0, SparkTrainCommand.localThreads("spark://host:7077"));
  }

  @Test
  void badOptionsAreRefused() {
    assertEquals("spark-train needs --dataset fashion-mnist", refused());
    assertEquals("unknown mode \"sync\" (gradient, params)", refused("--dataset", "fashion-mnist", "--mode", "sync"));
    assertEquals("--every needs a positive number, not 0", refused("--dataset", "fashion-mnist", "--every", "0"));
    assertEquals("--partitions needs a positive number, not -1", refused("--dataset", "fashion-mnist", "--partitions", "-1"));
    assertEquals("--lr-decay must be in (0, 1], not 1.5", refused("--dataset", "fashion-mnist", "--lr-decay", "1.5"));
    assertEquals("unknown optimizer \"lamb\" (sgd, momentum, adam)", refused("--dataset", "fashion-mnist", "--optimizer", "lamb"));
    assertEquals("--save needs a value", refused("--dataset", "fashion-mnist", "--save"));
  }

  private static String refused(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> SparkTrainCommand.Options.parse(args)).getMessage();
  }
}
