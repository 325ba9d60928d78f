// Tests of the kernel-check harness itself: comparison, tolerances, the requireDevices rule, runs on the jvm.
package dev.loopjit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KernelCheckTest {

  static void addOne(float[] a, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = a[i] + 1f;
  }

  static void outOfBounds(int[] a) {
    for (@Parallel int i = 0; i <= a.length; i++) a[i] = i;
  }

  static void ids(KernelContext ctx, IntArray out) {
    if (ctx.globalIdx < out.getSize()) out.set(ctx.globalIdx, ctx.groupIdx * 1000 + ctx.localIdx);
  }

  // --- comparison -------------------------------------------------------------------------------

  @Test
  void aMismatchNamesDeviceParameterIndexValuesBitsAndCount() {
    float[] jvm = {1f, 2f, 3f, 4f, 5f, 6f};
    float[] dev = {1f, 2f, 3f, Math.nextUp(4f), 5f, -6f};
    String why = ArrayDiff.compare("opencl:0", "parameter 1 (out: float[6])", jvm, dev, Tolerance.EXACT);
    assertTrue(why != null, "a difference must be reported");
    assertTrue(why.contains("opencl:0"), why);
    assertTrue(why.contains("parameter 1 (out: float[6])"), why);
    assertTrue(why.contains("2 of 6"), why);
    assertTrue(why.contains("index 3"), why);
    assertTrue(why.contains("jvm 4.0 (0x40800000)"), why);
    assertTrue(why.contains("4.0000005 (0x40800001)"), why);
    assertTrue(why.contains("[5]"), "later differences are listed too: " + why);
  }

  @Test
  void aFailureShowsTheInputsAtTheFirstDifferingIndex() throws Exception {
    java.lang.reflect.Method m = KernelCheckTest.class.getDeclaredMethod("scale", float.class, float[].class, FloatArray.class);
    Object[] in = {2.5f, new float[] {1f, 1.5f}, FloatArray.fromElements(3f, 4f, 5f)};
    String s = KernelCheck.inputsAt(m, in, 2);
    assertTrue(s.contains("a = 2.5"), s);
    assertTrue(s.contains("y[2] = 5.0 (0x40a00000)"), s);
    assertFalse(s.contains("x["), "x has no index 2: " + s);
    assertEquals("", KernelCheck.inputsAt(m, in, -1));
  }

  static void scale(float a, float[] x, FloatArray y) {
    for (@Parallel int i = 0; i < x.length; i++) y.set(i, a * x[i]);
  }

  @Test
  void kernelArraysAreDescribedAsInMessages() {
    assertEquals("float[3]", ArrayDiff.describe(new float[3]));
    assertEquals("FloatArray[2]", ArrayDiff.describe(new FloatArray(2)));
    assertEquals("boolean[1]", ArrayDiff.describe(new boolean[1]));
    assertFalse(ArrayDiff.isKernelArray(new Object[1]));
    assertFalse(ArrayDiff.isKernelArray(3f));
  }

  @Test
  void equalArraysOfEveryKindAgree() {
    assertNull(ArrayDiff.compare("d", "p", new int[] {1, -2}, new int[] {1, -2}, Tolerance.EXACT));
    assertNull(ArrayDiff.compare("d", "p", new boolean[] {true, false}, new boolean[] {true, false}, Tolerance.EXACT));
    assertNull(ArrayDiff.compare("d", "p", new char[] {'x', 0xFFFF}, new char[] {'x', 0xFFFF}, Tolerance.EXACT));
    assertNull(ArrayDiff.compare("d", "p", FloatArray.fromElements(1f, Float.NaN), FloatArray.fromElements(1f, Float.NaN),
        Tolerance.EXACT));
  }

  @Test
  void exactTreatsNaNsAlikeButSignedZerosApart() {
    float otherNaN = Float.intBitsToFloat(0x7fc12345);
    assertNull(ArrayDiff.compare("d", "p", new float[] {Float.NaN}, new float[] {otherNaN}, Tolerance.EXACT));
    assertNull(ArrayDiff.compare("d", "p", new double[] {Double.NaN}, new double[] {Double.longBitsToDouble(0xfff8000000000001L)},
        Tolerance.EXACT));
    String why = ArrayDiff.compare("d", "p", new float[] {0f}, new float[] {-0f}, Tolerance.EXACT);
    assertTrue(why != null && why.contains("0x80000000"), String.valueOf(why));
    assertTrue(ArrayDiff.compare("d", "p", new double[] {0d}, new double[] {-0d}, Tolerance.EXACT) != null);
    assertTrue(ArrayDiff.compare("d", "p", new float[] {Float.NaN}, new float[] {1f}, Tolerance.ulps(1000)) != null);
  }

  @Test
  void integersAreExactWhateverTheTolerance() {
    String why = ArrayDiff.compare("d", "p", new int[] {5, 6}, new int[] {5, 7}, Tolerance.relative(0.5));
    assertTrue(why != null && why.contains("tolerance exact") && why.contains("jvm 6 (0x00000006)"), String.valueOf(why));
    assertTrue(ArrayDiff.compare("d", "p", new long[] {-1}, new long[] {0}, Tolerance.ulps(5)) != null);
    assertTrue(ArrayDiff.compare("d", "p", new boolean[] {true}, new boolean[] {false}, Tolerance.EXACT) != null);
  }

  @Test
  void differentLengthsOrTypesAreReported() {
    assertTrue(ArrayDiff.compare("d", "p", new int[3], new int[4], Tolerance.EXACT).contains("4 elements"));
    assertTrue(ArrayDiff.compare("d", "p", new float[3], FloatArray.fromArray(new float[3]), Tolerance.EXACT).contains("type"));
  }

  @Test
  void halvesCompareInHalfPrecisionSteps() {
    HalfFloatArray a = HalfFloatArray.fromElements(1f), b = HalfFloatArray.fromElements(1.0009765625f); // next half after 1
    assertTrue(ArrayDiff.compare("d", "p", a, b, Tolerance.EXACT).contains("0x3c01"));
    assertNull(ArrayDiff.compare("d", "p", a, b, Tolerance.ulps(1)));
    assertEquals(1, Tolerance.ulpDistanceHalf((short) 0x3c00, (short) 0x3c01));
    assertEquals(2, Tolerance.ulpDistanceHalf((short) 0x0001, (short) 0x8001));
  }

  // --- tolerances -------------------------------------------------------------------------------

  @Test
  void ulpDistanceCountsAcrossZero() {
    assertEquals(0, Tolerance.ulpDistance(0f, -0f));
    assertEquals(0, Tolerance.ulpDistance(0d, -0d));
    assertEquals(1, Tolerance.ulpDistance(1f, Math.nextUp(1f)));
    assertEquals(1, Tolerance.ulpDistance(-1f, Math.nextDown(-1f)));
    assertEquals(2, Tolerance.ulpDistance(Float.MIN_VALUE, -Float.MIN_VALUE));
    assertEquals(2, Tolerance.ulpDistance(Double.MIN_VALUE, -Double.MIN_VALUE));
    assertEquals(1, Tolerance.ulpDistance(Float.MAX_VALUE, Float.POSITIVE_INFINITY));
    assertEquals(1L << 23, Tolerance.ulpDistance(1f, 2f));
    assertEquals(Long.MAX_VALUE, Tolerance.ulpDistance(Double.MAX_VALUE, -Double.MAX_VALUE), "saturates, no overflow");
  }

  @Test
  void ulpDistanceOfNaN() {
    assertEquals(0, Tolerance.ulpDistance(Float.NaN, Float.intBitsToFloat(0xffc00001)));
    assertEquals(Long.MAX_VALUE, Tolerance.ulpDistance(Float.NaN, 0f));
    assertEquals(Long.MAX_VALUE, Tolerance.ulpDistance(1d, Double.NaN));
  }

  @Test
  void toleranceRules() {
    Tolerance two = Tolerance.ulps(2);
    assertTrue(two.accepts(1f, Math.nextUp(Math.nextUp(1f))));
    assertFalse(two.accepts(1f, Math.nextUp(Math.nextUp(Math.nextUp(1f)))));
    assertTrue(two.accepts(0f, -0f), "ULP tolerances do not tell the zeros apart");
    assertFalse(Tolerance.EXACT.accepts(0f, -0f));
    assertTrue(two.accepts(-Float.MIN_VALUE, Float.MIN_VALUE));
    assertFalse(two.accepts(Float.MAX_VALUE, Float.POSITIVE_INFINITY), "an infinity only matches itself");
    assertFalse(Tolerance.relative(1).accepts(Double.NEGATIVE_INFINITY, -Double.MAX_VALUE));
    assertTrue(Tolerance.EXACT.accepts(Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY));
    assertTrue(Tolerance.relative(1e-3).accepts(1000.0, 1000.9));
    assertFalse(Tolerance.relative(1e-3).accepts(1000.0, 1001.1));
    assertFalse(Tolerance.relative(1e-3).accepts(0.0, 1e-9), "relative error alone is strict at zero");
    assertTrue(Tolerance.relative(1e-3, 1e-6).accepts(0.0, 1e-9));
    assertTrue(Tolerance.EXACT.isExact());
    assertEquals("2 ulp", two.toString());
    assertThrows(IllegalArgumentException.class, () -> Tolerance.ulps(-1));
    assertThrows(IllegalArgumentException.class, () -> Tolerance.relative(Double.NaN));
  }

  // --- the requireDevices rule --------------------------------------------------------------------

  record FakeDevice(String id, String backend) implements Device {
    @Override public String name() { return "fake"; }
    @Override public Kind kind() { return Kind.CPU; }
    @Override public int computeUnits() { return 1; }
    @Override public long memoryBytes() { return 0; }
    @Override public long localMemoryBytes() { return 0; }
    @Override public int maxWorkGroupSize() { return 1; }
    @Override public boolean supportsFp64() { return true; }
    @Override public boolean supportsFp16() { return false; }
    @Override public String driverVersion() { return "0"; }
  }

  @Test
  void mixedVersionsOfTheArtifactsAreRefusedNamingBoth() {
    assertNull(KernelCheck.versionProblem(null, "0.1.0"), "classes from a build directory have no version");
    assertNull(KernelCheck.versionProblem("0.1.0", "0.1.0"));
    String why = KernelCheck.versionProblem("0.1.0", "0.2.0");
    assertTrue(why.contains("loopjit-testing 0.1.0") && why.contains("loopjit-jit 0.2.0") && why.contains("same version"), why);
  }

  @Test
  void requiredBackendsMustHaveADevice() {
    List<Device> jvmOnly = List.of(new FakeDevice("jvm", "jvm"));
    List<Device> withOpenCl = List.of(new FakeDevice("jvm", "jvm"), new FakeDevice("opencl:0", "opencl"));
    assertEquals(List.of(), KernelCheck.missingBackends(null, jvmOnly));
    assertEquals(List.of(), KernelCheck.missingBackends(" ", jvmOnly));
    assertEquals(List.of("opencl"), KernelCheck.missingBackends("opencl", jvmOnly));
    assertEquals(List.of(), KernelCheck.missingBackends("opencl", withOpenCl));
    assertEquals(List.of("cuda"), KernelCheck.missingBackends("opencl, cuda", withOpenCl));
  }

  @Test
  void aCheckFailsWhenARequiredBackendIsMissing() {
    String old = System.getProperty("loopjit.requireDevices");
    System.setProperty("loopjit.requireDevices", "no-such-backend");
    try {
      AssertionError e = assertThrows(AssertionError.class, () -> KernelCheck.of("addOne", KernelCheckTest::addOne)
          .args(() -> new Object[] {new float[3], new float[3]}).run());
      assertTrue(e.getMessage().contains("no-such-backend"), e.getMessage());
    } finally {
      if (old == null) System.clearProperty("loopjit.requireDevices");
      else System.setProperty("loopjit.requireDevices", old);
    }
  }

  // --- whole checks on the jvm --------------------------------------------------------------------

  @Test
  void aCorrectKernelPassesAndRecordsTheDevicesItRanOn() {
    int before = KernelCheck.runsByDevice().getOrDefault("jvm", 0);
    KernelCheck.Result r = KernelCheck.of("addOne", KernelCheckTest::addOne)
        .args(() -> new Object[] {new Inputs(1).anyFloats(97), new float[97]}).run();
    assertEquals("jvm", r.devices().getFirst());
    assertTrue(r.ranOn("jvm"));
    assertEquals(Devices.all().size(), r.devices().size(), "every device ran: " + r.devices());
    assertTrue(KernelCheck.runsByDevice().get("jvm") > before);
  }

  @Test
  void runOnGivesTheArraysAsTheDeviceLeftThem() {
    Object[] after = KernelCheck.of("addOne", KernelCheckTest::addOne)
        .args(() -> new Object[] {new float[] {1f, 2f}, new float[2]}).runOn(Devices.jvm());
    assertEquals(3f, ((float[]) after[1])[1]);
  }

  @Test
  void anUnseededSupplierIsCaught() {
    AtomicInteger calls = new AtomicInteger();
    AssertionError e = assertThrows(AssertionError.class, () -> KernelCheck.of("addOne", KernelCheckTest::addOne)
        .args(() -> new Object[] {new Inputs(calls.incrementAndGet()).anyFloats(31), new float[31]}).run());
    assertTrue(e.getMessage().contains("seed"), e.getMessage());
  }

  @Test
  void aKernelThatFailsOnTheJvmFailsTheCheckNamingTheDevice() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> KernelCheck.of("outOfBounds", KernelCheckTest::outOfBounds).args(() -> new Object[] {new int[5]}).run());
    assertTrue(e.getMessage().contains("outOfBounds failed on jvm"), e.getMessage());
    assertTrue(e.getCause() instanceof ArrayIndexOutOfBoundsException, String.valueOf(e.getCause()));
  }

  @Test
  void wrongArgumentCountIsReported() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> KernelCheck.of("addOne", KernelCheckTest::addOne).args(() -> new Object[] {new float[2]}).run());
    assertTrue(e.getMessage().contains("takes 2 argument(s)"), e.getMessage());
  }

  @Test
  void offlineEmittersSeeEveryKernelAndTheirFailuresFail() {
    List<String> seen = new java.util.ArrayList<>();
    KernelCheck.of("addOne", KernelCheckTest::addOne).args(() -> new Object[] {new float[4], new float[4]})
        .offlineEmitters(List.of(new KernelCheck.OfflineEmitter("recorder", t -> {
          seen.add(t.method().getName());
          return null;
        }))).run();
    assertEquals(List.of("addOne"), seen);
    AssertionError e = assertThrows(AssertionError.class, () -> KernelCheck.of("addOne", KernelCheckTest::addOne)
        .args(() -> new Object[] {new float[4], new float[4]})
        .offlineEmitters(List.of(new KernelCheck.OfflineEmitter("picky", t -> "line 3: bad register"))).run());
    assertTrue(e.getMessage().contains("picky") && e.getMessage().contains("bad register"), e.getMessage());
  }

  @Test
  void extensionsOnTheClassPathSeeEveryCheckedKernel() {
    assertTrue(KernelCheck.OFFLINE_EMITTERS.stream().anyMatch(e -> e.name().equals("recording")), KernelCheck.OFFLINE_EMITTERS.toString());
    KernelCheck.of("addOneSeen", KernelCheckTest::addOne).args(() -> new Object[] {new float[2], new float[2]}).run();
    assertTrue(RecordingExtension.SEEN.contains("addOneSeen:addOne/2"), RecordingExtension.SEEN.toString());
  }

  @Test
  void explicitKernelsRunOnTheirGrid() {
    KernelCheck.Result r = KernelCheck.of("ids", KernelCheckTest::ids).args(() -> new Object[] {new KernelContext(), new IntArray(100)})
        .grid(new WorkerGrid1D(100).setLocalWork(32, 1, 1)).run();
    assertTrue(r.ranOn("jvm"));
    Object[] after = KernelCheck.of("ids", KernelCheckTest::ids).args(() -> new Object[] {new KernelContext(), new IntArray(100)})
        .grid(new WorkerGrid1D(100).setLocalWork(32, 1, 1)).runOn(Devices.jvm());
    assertEquals(3 * 1000 + 3, ((IntArray) after[1]).get(99));
  }
}
