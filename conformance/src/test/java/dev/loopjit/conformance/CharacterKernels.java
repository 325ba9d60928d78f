// Conformance kernels with Character.isDigit, isLetter, toUpperCase and friends: Java's answers on every device.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;

/** Checked by {@link CharacterKernelsTest}: equal to the jvm for ASCII and Latin-1 (and the few-range predicates for every code point). */
public final class CharacterKernels {
  private CharacterKernels() {}

  /** How many answers {@link #everyMethod} writes per value. */
  public static final int ANSWERS = 40;

  /** Every compiled Character method, the char and the int overload, each answer in its own slot. */
  public static void everyMethod(int[] values, int[] out) {
    for (@Parallel int i = 0; i < values.length; i++) {
      int cp = values[i];
      char ch = (char) (cp & 0xFF);   // the char overloads see Latin-1 only
      int o = i * ANSWERS;
      out[o] = Character.isDigit(ch) ? 1 : 0;
      out[o + 1] = Character.isDigit(cp) ? 1 : 0;
      out[o + 2] = Character.isLetter(ch) ? 1 : 0;
      out[o + 3] = Character.isLetter(cp) ? 1 : 0;
      out[o + 4] = Character.isLetterOrDigit(ch) ? 1 : 0;
      out[o + 5] = Character.isLetterOrDigit(cp) ? 1 : 0;
      out[o + 6] = Character.isAlphabetic(cp) ? 1 : 0;
      out[o + 7] = Character.isUpperCase(ch) ? 1 : 0;
      out[o + 8] = Character.isUpperCase(cp) ? 1 : 0;
      out[o + 9] = Character.isLowerCase(ch) ? 1 : 0;
      out[o + 10] = Character.isLowerCase(cp) ? 1 : 0;
      out[o + 11] = Character.isTitleCase(ch) ? 1 : 0;
      out[o + 12] = Character.isTitleCase(cp) ? 1 : 0;
      out[o + 13] = Character.isWhitespace(ch) ? 1 : 0;
      out[o + 14] = Character.isWhitespace(cp) ? 1 : 0;
      out[o + 15] = Character.isSpaceChar(ch) ? 1 : 0;
      out[o + 16] = Character.isSpaceChar(cp) ? 1 : 0;
      out[o + 17] = Character.isDefined(ch) ? 1 : 0;
      out[o + 18] = Character.isDefined(cp) ? 1 : 0;
      out[o + 19] = Character.isIdeographic(cp) ? 1 : 0;
      out[o + 20] = Character.isJavaIdentifierStart(ch) ? 1 : 0;
      out[o + 21] = Character.isJavaIdentifierStart(cp) ? 1 : 0;
      out[o + 22] = Character.isJavaIdentifierPart(ch) ? 1 : 0;
      out[o + 23] = Character.isJavaIdentifierPart(cp) ? 1 : 0;
      out[o + 24] = Character.isUnicodeIdentifierStart(ch) ? 1 : 0;
      out[o + 25] = Character.isUnicodeIdentifierStart(cp) ? 1 : 0;
      out[o + 26] = Character.isUnicodeIdentifierPart(ch) ? 1 : 0;
      out[o + 27] = Character.isUnicodeIdentifierPart(cp) ? 1 : 0;
      out[o + 28] = Character.isISOControl(ch) ? 1 : 0;
      out[o + 29] = Character.isISOControl(cp) ? 1 : 0;
      out[o + 30] = Character.toUpperCase(ch);
      out[o + 31] = Character.toUpperCase(cp);
      out[o + 32] = Character.toLowerCase(ch);
      out[o + 33] = Character.toLowerCase(cp);
      out[o + 34] = Character.toTitleCase(ch);
      out[o + 35] = Character.toTitleCase(cp);
      out[o + 36] = Character.digit(ch, 10);
      out[o + 37] = Character.digit(cp, 16);
      out[o + 38] = Character.digit(cp, (i % 40) - 1);   // radices -1 .. 38, the invalid ones included
      out[o + 39] = Character.digit(ch, 36);
    }
  }

  /** The predicates exact for every code point (their true code points form few ranges). */
  public static void everyCodePoint(int[] values, int[] out) {
    for (@Parallel int i = 0; i < values.length; i++) {
      int cp = values[i];
      out[i] = (Character.isDigit(cp) ? 1 : 0) | (Character.isWhitespace(cp) ? 2 : 0) | (Character.isSpaceChar(cp) ? 4 : 0)
          | (Character.isTitleCase(cp) ? 8 : 0) | (Character.isIdeographic(cp) ? 16 : 0) | (Character.isISOControl(cp) ? 32 : 0);
    }
  }

  /** Words counted as a parser would: letters, digits and the rest, over a text of chars. */
  public static void classify(char[] text, int[] kinds) {
    for (@Parallel int i = 0; i < text.length; i++) {
      char c = text[i];
      kinds[i] = Character.isLetter(c) ? (Character.isUpperCase(c) ? 1 : 2) // the letter's line
          : Character.isDigit(c) ? 3 + Character.digit(c, 10) : Character.isWhitespace(c) ? 20 : 0;
    }
  }
}
