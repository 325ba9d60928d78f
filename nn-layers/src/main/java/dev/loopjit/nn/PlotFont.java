// A 5×7 pixel font for TrainingPlot on machines with no fonts installed (a GPU host's minimal image): letters, digits and a few signs.
package dev.loopjit.nn;

import java.awt.Graphics2D;
import java.util.Locale;
import java.util.Map;

/**
 * Text drawn as 5×7 pixel glyphs, each pixel a {@code scale}×{@code scale} square, with no font
 * from the system: Java2D's fonts need fontconfig and at least one installed font, which minimal
 * server images lack ({@code RuntimeException: Fontconfig head is null}). Letters are drawn as
 * capitals; a character it has no glyph for is drawn as {@code ?}.
 */
final class PlotFont {
  private PlotFont() {}

  /** Each glyph: seven rows of five columns, {@code #} where a pixel is set. */
  private static final Map<Character, String> GLYPHS = Map.ofEntries(
      Map.entry('0', " ### #   ##  ### # ###  ##   # ### "), Map.entry('1', "  #   ##    #    #    #    #   ### "),
      Map.entry('2', " ### #   #    #   #   #   #   #####"), Map.entry('3', "#####   #   #     #     ##   # ### "),
      Map.entry('4', "   #   ##  # # #  # #####   #    # "), Map.entry('5', "######    ####     #    ##   # ### "),
      Map.entry('6', "  ##  #   #    #### #   ##   # ### "), Map.entry('7', "#####    #   #   #   #    #    #   "),
      Map.entry('8', " ### #   ##   # ### #   ##   # ### "), Map.entry('9', " ### #   ##   # ####    #   #  ##  "),
      Map.entry('A', " ### #   ##   #######   ##   ##   #"), Map.entry('B', "#### #   ##   ##### #   ##   ##### "),
      Map.entry('C', " ### #   ##    #    #    #   # ### "), Map.entry('D', "#### #   ##   ##   ##   ##   ##### "),
      Map.entry('E', "######    #    #### #    #    #####"), Map.entry('F', "######    #    #### #    #    #    "),
      Map.entry('G', " ### #   ##    # ####   ##   # ####"), Map.entry('H', "#   ##   ##   #######   ##   ##   #"),
      Map.entry('I', " ###   #    #    #    #    #   ### "), Map.entry('J', "  ###   #    #    #    # #  #  ##  "),
      Map.entry('K', "#   ##  # # #  ##   # #  #  # #   #"), Map.entry('L', "#    #    #    #    #    #    #####"),
      Map.entry('M', "#   ### ### # ## # ##   ##   ##   #"), Map.entry('N', "#   ##   ###  ## # ##  ###   ##   #"),
      Map.entry('O', " ### #   ##   ##   ##   ##   # ### "), Map.entry('P', "#### #   ##   ##### #    #    #    "),
      Map.entry('Q', " ### #   ##   ##   ## # ##  #  ## #"), Map.entry('R', "#### #   ##   ##### # #  #  # #   #"),
      Map.entry('S', " #####    #     ###     #    ##### "), Map.entry('T', "#####  #    #    #    #    #    #  "),
      Map.entry('U', "#   ##   ##   ##   ##   ##   # ### "), Map.entry('V', "#   ##   ##   ##   ##   # # #   #  "),
      Map.entry('W', "#   ##   ##   ## # ## # ## # # # # "), Map.entry('X', "#   ##   # # #   #   # # #   ##   #"),
      Map.entry('Y', "#   ##   # # #   #    #    #    #  "), Map.entry('Z', "#####    #   #   #   #   #    #####"),
      Map.entry(' ', "                                   "), Map.entry('.', "                          ##   ##  "),
      Map.entry(',', "                     ##    #   #   "), Map.entry(':', "      ##   ##        ##   ##       "),
      Map.entry('%', "##   ##  #   #   #   #   #  ##   ##"), Map.entry('-', "               #####               "),
      Map.entry('+', "       #    #  #####  #    #       "), Map.entry('=', "          #####     #####          "),
      Map.entry('/', "         #   #   #   #   #         "), Map.entry('(', "   #   #   #    #    #     #     # "),
      Map.entry(')', " #     #     #    #    #   #   #   "), Map.entry('_', "                              #####"),
      Map.entry('?', " ### #   #    #   #   #         #  "));

  /** The width of {@code s} in pixels: six columns per character (five and a space). */
  static int width(String s, int scale) {
    return s.length() * 6 * scale;
  }

  /** Draws {@code s} in {@code g}'s colour with its baseline (the glyphs' bottom row) at {@code y}. */
  static void draw(Graphics2D g, String s, int x, int y, int scale) {
    String upper = s.toUpperCase(Locale.ROOT);
    for (int i = 0; i < upper.length(); i++) {
      String glyph = GLYPHS.getOrDefault(upper.charAt(i), GLYPHS.get('?'));
      for (int row = 0; row < 7; row++)
        for (int col = 0; col < 5; col++)
          if (glyph.charAt(row * 5 + col) == '#') g.fillRect(x + (i * 6 + col) * scale, y - (7 - row) * scale, scale, scale);
    }
  }
}
