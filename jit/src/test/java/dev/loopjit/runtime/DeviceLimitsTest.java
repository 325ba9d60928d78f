// A device's limits are measured once, kept whole on disk, read back, re-measured when the file is damaged, never measured with probe=off.
package dev.loopjit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.Profile;
import dev.loopjit.spi.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceLimitsTest {
  @TempDir Path cache;

  @Test
  void measuredOnceKeptOnDiskAndReadBack() throws Exception {
    Device jvm = Devices.jvm();
    Options options = Options.DEFAULTS.with("cacheDir", cache.toString());
    Profile.Limits measured = DeviceLimits.measure(jvm, options);
    assertTrue(measured.copyGigabytesPerSecond() > 0 && measured.gigaflopsPerSecond() > 0, measured.toString());
    Path file = DeviceLimits.file(options, DeviceLimits.key(jvm));
    assertTrue(Files.isRegularFile(file), file.toString());
    try (var files = Files.list(file.getParent())) {
      assertEquals(1, files.count(), "no temporary file is left behind");
    }

    DeviceLimits.forgetInMemory();
    Profile.Limits read = DeviceLimits.of(jvm, options.with("probe", "off"));
    assertEquals(measured, read, "read back from disk, not measured (probing is off)");

    DeviceLimits.forgetInMemory();
    Files.writeString(file, "copyGigabytesPerSecond=oops\n");
    assertNull(DeviceLimits.of(jvm, options.with("probe", "off")), "a damaged file is not believed; probe=off measures nothing");
    Profile.Limits again = DeviceLimits.of(jvm, options);
    assertNotNull(again);
    assertTrue(Files.readString(file).contains("gigaflopsPerSecond="), "measured again and rewritten");
  }

  @Test
  void withTheCacheOffLimitsStayInMemory() {
    Options off = Options.DEFAULTS.with("cacheDir", "off");
    assertNull(DeviceLimits.file(off, "k"));
    assertEquals("jvm", DeviceLimits.key(Devices.jvm()).substring(0, 3));
  }
}
