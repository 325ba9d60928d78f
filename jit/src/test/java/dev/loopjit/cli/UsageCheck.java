// For the modules' command tests: `loopjit` with no arguments lists every option a command's own usage names.
package dev.loopjit.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks {@link Main#usage()} against a command's own usage text (train's, embed's). */
public final class UsageCheck {
  private UsageCheck() {}

  /** Every {@code --option} in {@code commandUsage} appears in loopjit's usage, and there are at least {@code least} of them. */
  public static void listsEveryOption(String command, String commandUsage, int least) {
    Matcher m = Pattern.compile("--[a-z][a-z-]*").matcher(commandUsage);
    String usage = Main.usage();
    int options = 0;
    while (m.find()) {
      String option = m.group();
      assertTrue(usage.contains("[" + option) || usage.contains(" " + option + " "), "loopjit's usage lacks " + command + "'s " + option + ":\n" + usage);
      options++;
    }
    assertTrue(options >= least, command + "'s options: " + options);
  }
}
