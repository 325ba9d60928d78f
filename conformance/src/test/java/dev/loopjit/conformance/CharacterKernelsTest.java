// Runs the CharacterKernels on the jvm and on every device: Java's answers for ASCII and Latin-1, a named report beyond them.
package dev.loopjit.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.KernelUnsupportedValueException;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class CharacterKernelsTest {
  @Test
  void everyMethodGivesJavasAnswerForEveryLatin1CharAndForValuesThatAreNoCodePoint() {
    List<Integer> values = new ArrayList<>();
    for (int c = 0; c < 256; c++) values.add(c);
    for (int v : new int[] {-1, -2, -256, Integer.MIN_VALUE, Character.MAX_CODE_POINT + 1, Integer.MAX_VALUE, -65536}) values.add(v);
    int[] v = values.stream().mapToInt(Integer::intValue).toArray();
    KernelCheck.of("CharacterKernels.everyMethod", CharacterKernels::everyMethod)
        .args(() -> new Object[] {v.clone(), new int[v.length * CharacterKernels.ANSWERS]}).run();
  }

  @Test
  void theFewRangePredicatesAreJavasForCodePointsAcrossUnicode() {
    KernelCheck.of("CharacterKernels.everyCodePoint", CharacterKernels::everyCodePoint).args(() -> {
      int[] v = acrossUnicode();
      return new Object[] {v, new int[v.length]};
    }).run();
  }

  @Test
  void onJvmMtAndOpenClTheFewRangePredicatesAreJavasForEveryCodePoint() {
    int[] all = new int[Character.MAX_CODE_POINT + 1];
    for (int c = 0; c < all.length; c++) all[c] = c;
    int[] expected = new int[all.length];
    CharacterKernels.everyCodePoint(all, expected);
    for (Device d : Devices.all()) {
      if (!d.id().equals("jvm-mt") && !d.id().startsWith("opencl:")) continue;   // the simulated CUDA device is too slow for 1.1M
      int[] out = new int[all.length];
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, all)
          .task("t", CharacterKernels::everyCodePoint, all, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
        plan.withDevice(d).execute();
      }
      assertArrayEquals(expected, out, d.id());
    }
  }

  @Test
  void aTextOfLatin1IsClassifiedAsJavaDoes() {
    KernelCheck.of("CharacterKernels.classify", CharacterKernels::classify).args(() -> {
      String s = "Größe 42 × 7: Ünïcödé Åß, ÿ and µ\tend\n";
      Inputs in = new Inputs(2626);
      int[] r = in.ints(2000, 0, 256);
      char[] text = new char[2000 + s.length()];
      for (int i = 0; i < 2000; i++) text[i] = (char) r[i];
      s.getChars(0, s.length(), text, 2000);
      return new Object[] {text, new int[text.length]};
    }).run();
  }

  @Test
  void aCodePointBeyondLatin1IsReportedByEveryCompiledDeviceNamingTheLine() throws IOException {
    String where = "CharacterKernels.classify (CharacterKernels.java:" + KernelSource.lineOf(CharacterKernels.class, "the letter's line") + ")";
    for (Device d : Devices.all()) {
      char[] text = "abc\u4E00d".toCharArray();
      int[] kinds = new int[text.length];
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, text)
          .task("t", CharacterKernels::classify, text, kinds).transferToHost(DataTransferMode.EVERY_EXECUTION, kinds);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
        plan.withDevice(d);
        if (d.id().equals("jvm")) {   // the JDK answers
          plan.execute();
          assertArrayEquals(new int[] {2, 2, 2, 2, 2}, kinds);
          continue;
        }
        KernelUnsupportedValueException e = assertThrows(KernelUnsupportedValueException.class, plan::execute, d.id());
        assertEquals("Character.isLetter", e.method(), e.getMessage());
        assertEquals(0x4E00, e.value(), e.getMessage());
        assertEquals(d.id(), e.device());
        assertTrue(e.getMessage().contains("U+4E00") && e.getMessage().contains(where), d.id() + ": " + e.getMessage());
        assertArrayEquals(new int[text.length], kinds, d.id() + ": nothing copied back");
        text[3] = 'Z';   // the plan stays usable
        plan.execute();
        assertArrayEquals(new int[] {2, 2, 2, 1, 2}, kinds, d.id());
      }
    }
  }

  /** Every range boundary of the few-range predicates (and its neighbours), and a stride through all of Unicode. */
  private static int[] acrossUnicode() {
    List<Integer> v = new ArrayList<>();
    IntPredicate[] tests = {Character::isDigit, Character::isWhitespace, Character::isSpaceChar, Character::isTitleCase,
        Character::isIdeographic, Character::isISOControl};
    for (IntPredicate t : tests) {
      for (int c = 1; c <= Character.MAX_CODE_POINT; c++) {
        if (t.test(c) != t.test(c - 1)) for (int d = -1; d <= 1; d++) v.add(c + d);
      }
    }
    for (int c = 0; c <= Character.MAX_CODE_POINT; c += 997) v.add(c);
    v.add(-1);
    v.add(Character.MAX_CODE_POINT + 1);
    return v.stream().mapToInt(Integer::intValue).toArray();
  }
}
