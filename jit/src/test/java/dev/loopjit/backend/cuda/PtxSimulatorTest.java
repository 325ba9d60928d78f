// The simulator's own checks, which the CUDA tests rely on where no GPU is: races, undeclared names, unrounded float math.
package dev.loopjit.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PtxSimulatorTest {
  /** out[t] = tile[t ^ 1] after every thread stored tile[t] = t; BARRIER is replaced by a barrier or by nothing. */
  private static final String SWAP = """
      .version 7.8
      .target sm_80
      .address_size 64
      .visible .entry swap(
          .param .u64 p_out)
      {
          .reg .b32 %r<6>;
          .reg .b64 %rd<5>;
          .shared .align 4 .b32 tile[8];
          mov.u32 %r1, %tid.x;
          mov.u32 %r2, tile;
          shl.b32 %r3, %r1, 2;
          add.s32 %r3, %r2, %r3;
          st.shared.u32 [%r3], %r1;
          BARRIER
          xor.b32 %r4, %r1, 1;
          shl.b32 %r4, %r4, 2;
          add.s32 %r4, %r2, %r4;
          ld.shared.u32 %r5, [%r4];
          ld.param.u64 %rd1, [p_out];
          cvta.to.global.u64 %rd2, %rd1;
          mul.wide.u32 %rd3, %r1, 4;
          add.s64 %rd4, %rd2, %rd3;
          st.global.u32 [%rd4], %r5;
          ret;
      }
      """;

  @Test
  void withTheBarrierEachThreadReadsItsNeighbour() {
    int[] out = new int[8];
    new PtxSimulator(SWAP.replace("BARRIER", "bar.sync 0;")).run(new int[] {1, 1, 1}, new int[] {8, 1, 1}, (Object) out);
    assertArrayEquals(new int[] {1, 0, 3, 2, 5, 4, 7, 6}, out);
  }

  @Test
  void withoutItTheReadIsARace() {
    // Thread 0 runs first: it writes slot 0 and reads slot 1 before thread 1 has written it, which
    // on a GPU depends on timing; the check stops at thread 1's write.
    PtxSimulator k = new PtxSimulator(SWAP.replace("BARRIER", ""));
    AssertionError e = assertThrows(AssertionError.class, () -> k.run(new int[] {1, 1, 1}, new int[] {8, 1, 1}, (Object) new int[8]));
    assertTrue(e.getMessage().contains("shared-memory race") && e.getMessage().contains("thread 1 writes what thread 0 read"), e.getMessage());
  }

  @Test
  void twoThreadsWritingOneSlotIsARace() {
    String ptx = SWAP.replace("BARRIER", "").replace("st.shared.u32 [%r3], %r1;", "st.shared.u32 [%r2], %r1;");
    AssertionError e = assertThrows(AssertionError.class,
        () -> new PtxSimulator(ptx).run(new int[] {1, 1, 1}, new int[] {8, 1, 1}, (Object) new int[8]));
    assertTrue(e.getMessage().contains("threads 0 and 1 both write it"), e.getMessage());
  }

  @Test
  void readingWhatAnotherThreadWroteBeforeTheBarrierIsARace() {
    // Each thread writes slot t, then reads slot t - 1: thread 1 reads what thread 0 wrote.
    String ptx = SWAP.replace("BARRIER", "").replace("xor.b32 %r4, %r1, 1;", "add.s32 %r4, %r1, 7;\n    and.b32 %r4, %r4, 7;");
    AssertionError e = assertThrows(AssertionError.class,
        () -> new PtxSimulator(ptx).run(new int[] {1, 1, 1}, new int[] {8, 1, 1}, (Object) new int[8]));
    assertTrue(e.getMessage().contains("thread 1 reads what thread 0 wrote"), e.getMessage());
  }

  /**
   * The shape of the reduction bug of issue #31: thread 1 skips the load that gives the
   * compare-and-set loop its "old value" (as the bounds check skipped it), then loops until the old
   * value equals memory. On a GPU the register holds whatever was there, and the loop may never end;
   * the simulator used to fill registers as it fills device memory, so the loop ended.
   */
  private static final String UNASSIGNED_OLD_VALUE = """
      .version 7.8
      .target sm_80
      .address_size 64
      .visible .entry casLoop(
          .param .u64 p_word)
      {
          .reg .pred %p<3>;
          .reg .b32 %r<5>;
          .reg .b64 %rd<3>;
          ld.param.u64 %rd1, [p_word];
          cvta.to.global.u64 %rd2, %rd1;
          mov.u32 %r1, %tid.x;
          setp.ne.s32 %p1, %r1, 0;
          @%p1 bra SKIP;
          ld.global.u32 %r2, [%rd2];
      SKIP:
      LOOP:
          mov.u32 %r3, %r2;
          atom.global.cas.b32 %r2, [%rd2], %r3, %r3;
          setp.ne.s32 %p2, %r2, %r3;
          @%p2 bra LOOP;
          ret;
      }
      """;

  @Test
  void aRegisterReadBeforeAnyWriteFailsTheLaunch() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> new PtxSimulator(UNASSIGNED_OLD_VALUE).run(new int[] {1, 1, 1}, new int[] {2, 1, 1}, (Object) new int[1]));
    assertTrue(e.getMessage().contains("register %r2 read before any instruction of thread 1"), e.getMessage());
  }

  @Test
  void withTheOldValueAssignedOnEveryPathTheLoopRuns() {
    int[] word = {7};
    String assigned = UNASSIGNED_OLD_VALUE.replace("SKIP:\nLOOP:", "    bra.uni LOOP;\nSKIP:\n    mov.u32 %r2, 0;\nLOOP:");
    assertTrue(assigned.contains("mov.u32 %r2, 0;"), assigned);
    new PtxSimulator(assigned).run(new int[] {1, 1, 1}, new int[] {2, 1, 1}, (Object) word);
    assertArrayEquals(new int[] {7}, word);
  }

  /** a[g] = g; BARRIER; out[g] = a[g ^ 1]. */
  private static final String EXCHANGE = """
      .version 7.8
      .target sm_80
      .address_size 64
      .visible .entry exchange(
          .param .u64 p_a,
          .param .u64 p_out)
      {
          .reg .b32 %r<7>;
          .reg .b64 %rd<9>;
          mov.u32 %r1, %ctaid.x;
          mov.u32 %r2, %ntid.x;
          mov.u32 %r3, %tid.x;
          mad.lo.s32 %r4, %r1, %r2, %r3;
          ld.param.u64 %rd1, [p_a];
          cvta.to.global.u64 %rd1, %rd1;
          mul.wide.u32 %rd2, %r4, 4;
          add.s64 %rd3, %rd1, %rd2;
          st.global.u32 [%rd3], %r4;
          bar.sync 0;
          xor.b32 %r5, %r4, 1;
          mul.wide.u32 %rd4, %r5, 4;
          add.s64 %rd5, %rd1, %rd4;
          ld.global.u32 %r6, [%rd5];
          ld.param.u64 %rd6, [p_out];
          cvta.to.global.u64 %rd6, %rd6;
          add.s64 %rd7, %rd6, %rd2;
          st.global.u32 [%rd7], %r6;
          ret;
      }
      """;

  @Test
  void inOneBlockTheBarrierOrdersGlobalMemory() {
    int[] a = new int[2], out = new int[2];
    new PtxSimulator(EXCHANGE).run(new int[] {1, 1, 1}, new int[] {2, 1, 1}, a, out);
    assertArrayEquals(new int[] {1, 0}, out);
  }

  @Test
  void acrossBlocksNothingDoes() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> new PtxSimulator(EXCHANGE).run(new int[] {2, 1, 1}, new int[] {1, 1, 1}, new int[2], new int[2]));
    assertTrue(e.getMessage().contains("global-memory race") && e.getMessage().contains("thread 1 reads what thread 0 of block 0 wrote"),
        e.getMessage());
  }

  @Test
  void anUndeclaredRegisterIsRefusedAsTheJitWould() {
    PtxSimulator.Invalid e = assertThrows(PtxSimulator.Invalid.class,
        () -> new PtxSimulator(SWAP.replace("BARRIER", "mov.u32 %q1, 0;")));
    assertTrue(e.getMessage().contains("undeclared register %q1"), e.getMessage());
  }

  @Test
  void floatMathWithoutRoundingIsRefusedInStrictMode() {
    String ptx = SWAP.replace(".reg .b32 %r<6>;", ".reg .b32 %r<6>;\n    .reg .f32 %f<3>;").replace("BARRIER", "mul.f32 %f1, %f2, %f2;");
    new PtxSimulator(ptx, false);
    PtxSimulator.Invalid e = assertThrows(PtxSimulator.Invalid.class, () -> new PtxSimulator(ptx, true));
    assertTrue(e.getMessage().contains("mul.f32") && e.getMessage().contains("fma"), e.getMessage());
    new PtxSimulator(ptx.replace("mul.f32", "mul.rn.f32"), true);
  }

  /** out[t] = the 64-bit value (t << 32 | t) of lane 31 - t of t's warp, moved as two 32-bit halves; GUARD may skip the shuffle. */
  private static final String REVERSE = """
      .version 7.8
      .target sm_80
      .address_size 64
      .visible .entry reverse(
          .param .u64 p_out)
      {
          .reg .pred %p<2>;
          .reg .b32 %r<8>;
          .reg .b64 %rd<7>;
          mov.u32 %r1, %tid.x;
          GUARD
          cvt.u64.u32 %rd1, %r1;
          shl.b64 %rd2, %rd1, 32;
          or.b64 %rd2, %rd2, %rd1;
          mov.b64 {%r2, %r3}, %rd2;
          and.b32 %r4, %r1, 31;
          sub.s32 %r4, 31, %r4;
          shfl.sync.idx.b32 %r5, %r2, %r4, 31, -1;
          shfl.sync.idx.b32 %r6, %r3, %r4, 31, -1;
          mov.b64 %rd3, {%r5, %r6};
          ld.param.u64 %rd4, [p_out];
          cvta.to.global.u64 %rd5, %rd4;
          mul.wide.u32 %rd6, %r1, 8;
          add.s64 %rd5, %rd5, %rd6;
          st.global.u64 [%rd5], %rd3;
      DONE:
          ret;
      }
      """;

  @Test
  void shflSyncReadsTheSourceLaneOfTheSameWarp() {
    long[] out = new long[64];
    new PtxSimulator(REVERSE.replace("GUARD", "")).run(new int[] {1, 1, 1}, new int[] {64, 1, 1}, (Object) out);
    for (int t = 0; t < 64; t++) {
      long source = t / 32 * 32 + 31 - t % 32;
      assertTrue(out[t] == (source << 32 | source), t + ": " + out[t]);
    }
  }

  @Test
  void aLaneThatSkipsTheShuffleIsRefused() {
    // Lane 31 exits before the shuffle that lane 0 reads it in: on a GPU, undefined.
    String ptx = REVERSE.replace("GUARD", "setp.eq.u32 %p1, %r1, 31;\n    @%p1 bra DONE;");
    AssertionError e = assertThrows(AssertionError.class, () -> new PtxSimulator(ptx).run(new int[] {1, 1, 1}, new int[] {32, 1, 1}, (Object) new long[32]));
    assertTrue(e.getMessage().contains("did not reach the shfl.sync"), e.getMessage());
  }
}
