// Which lane arrays of a coarsened kernel the C emitter writes as OpenCL vectors (float16), and which lane loops as one vector statement.
package dev.loopjit.backend.c;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The coarsen pass gives a work-item private float arrays of W lanes and loops
 * {@code for (lane = 0; lane < W; lane++) one store} over them. Written as arrays and loops the
 * device compiler must rediscover the vectors, and PoCL's (LLVM 15) did so differently from one
 * kernel to the next: a dense layer's weight gradient stored at an offset ran at half the speed of the
 * same kernel stored at 0, as 64-wide vectors with lane-reversing shuffles and a gather
 * (docs/PERFORMANCE.md). Here an array every use of which is such a loop's {@code a[lane]} becomes a
 * {@code floatW} value, and each such loop one statement: {@code a = b + s * c;},
 * {@code a = vloadW(0, g + base);}, {@code vstoreW(a, 0, g + base);}. Only float {@code + - * /}
 * of lanes, of neighbouring global elements ({@code g[base + lane]}) and of values the same for every
 * lane: IEEE operations element by element, so each lane computes what the loop computed, bit for bit.
 *
 * @param arrays the private arrays written as vectors
 * @param loops  the lane loops written as one vector statement, each with its lane variable
 */
record LanesAsVectors(Set<Var> arrays, Map<Loop, Var> loops) {
  static final LanesAsVectors NONE = new LanesAsVectors(Set.of(), Map.of());

  /** OpenCL's vector widths the lanes may have. */
  private static final Set<Integer> WIDTHS = Set.of(2, 4, 8, 16);

  /** A lane loop: {@code for (; lane < width; lane = lane + 1) store}. */
  private record LaneLoop(Var lane, int width, Store store) {}

  static LanesAsVectors of(Block body) {
    Set<Var> arrays = new LinkedHashSet<>();
    Map<Loop, LaneLoop> laneLoops = new IdentityHashMap<>();
    IrWalk.walk(body, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Assign a && a.value() instanceof Alloc && a.var().type() instanceof ArrayType t && t.space() == ArrayType.Space.PRIVATE
            && t.element() == Prim.FLOAT && WIDTHS.contains(t.length())) arrays.add(a.var());
        if (s instanceof Loop l && laneLoop(l) instanceof LaneLoop ll) laneLoops.put(l, ll);
      }
    });
    // Until nothing changes: the loops that vectorise over the arrays still in, then the arrays used elsewhere out.
    Map<Loop, Var> ok = new IdentityHashMap<>();
    while (true) {
      ok.clear();
      for (Map.Entry<Loop, LaneLoop> e : laneLoops.entrySet()) if (vectorises(e.getValue(), arrays)) ok.put(e.getKey(), e.getValue().lane());
      Set<Var> usedElsewhere = new HashSet<>();
      IrWalk.walk(body, new IrWalk.Visitor() {
        @Override
        public boolean descend(Stmt s) {
          return !(s instanceof Loop l && ok.containsKey(l)) && !(s instanceof Assign a && a.value() instanceof Alloc);
        }

        @Override
        public void expr(Expr e, Stmt in) {
          if (e instanceof Read r && arrays.contains(r.var())) usedElsewhere.add(r.var());
        }
      });
      if (usedElsewhere.isEmpty()) break;
      arrays.removeAll(usedElsewhere);
    }
    // by identity: the emitter asks for every loop, and a loop record's equality would walk its whole body
    return arrays.isEmpty() && ok.isEmpty() ? NONE : new LanesAsVectors(Collections.unmodifiableSet(arrays), Collections.unmodifiableMap(ok));
  }

  /** The loop as a lane loop (its first statement {@code if (lane >= W) break;}, then one store; its update {@code lane = lane + 1}), or null. */
  private static LaneLoop laneLoop(Loop l) {
    var body = l.body().stmts();
    var update = l.update().stmts();
    if (body.size() != 2 || !(body.get(0) instanceof If i) || !(body.get(1) instanceof Store st) || update.size() != 1) return null;
    if (!i.otherwise().isEmpty() || i.then().stmts().size() != 1 || !(i.then().stmts().get(0) instanceof Break b) || !b.target().equals(l.label()))
      return null;
    if (!(i.cond() instanceof Compare c) || c.op() != Op.Compare.GE || !(c.a() instanceof Read v) || !(c.b() instanceof Const k)
        || !WIDTHS.contains((int) k.longValue())) return null;
    if (!(update.get(0) instanceof Assign a) || !a.var().equals(v.var()) || !(a.value() instanceof Binary inc) || inc.op() != Op.Binary.ADD
        || !(inc.a() instanceof Read self) || !self.var().equals(v.var()) || !(inc.b() instanceof Const one) || one.longValue() != 1) return null;
    return new LaneLoop(v.var(), (int) k.longValue(), st);
  }

  private static boolean vectorises(LaneLoop l, Set<Var> arrays) {
    Store st = l.store();
    boolean toLanes = st.array() instanceof Read r && arrays.contains(r.var()) && ((ArrayType) r.type()).length() == l.width()
        && st.index() instanceof Read i && i.var().equals(l.lane());
    // A store to memory reads no memory: all lanes' reads before all their writes is then the loop's order too.
    boolean toMemory = globalFloat(st.array()) && base(st.index(), l.lane()) != null && !readsMemory(st.value());
    return (toLanes || toMemory) && lanes(st.value(), l, arrays);
  }

  private static boolean readsMemory(Expr e) {
    boolean[] found = {false};
    IrWalk.walk(e, null, new IrWalk.Visitor() {
      @Override
      public void expr(Expr x, Stmt in) {
        if (x instanceof Load ld && !(ld.array().type() instanceof ArrayType t && t.space() == ArrayType.Space.PRIVATE)) found[0] = true;
      }
    });
    return found[0];
  }

  /** Whether {@code e} is a float expression the lanes compute element by element as a vector. */
  private static boolean lanes(Expr e, LaneLoop l, Set<Var> arrays) {
    return switch (e) {
      case Load ld when ld.array() instanceof Read r && arrays.contains(r.var()) ->
          ((ArrayType) r.type()).length() == l.width() && ld.index() instanceof Read i && i.var().equals(l.lane());
      case Load ld when globalFloat(ld.array()) && base(ld.index(), l.lane()) != null -> true;
      case Binary b when b.a().prim() == Prim.FLOAT && (b.op() == Op.Binary.ADD || b.op() == Op.Binary.SUB || b.op() == Op.Binary.MUL
          || b.op() == Op.Binary.DIV) -> lanes(b.a(), l, arrays) && lanes(b.b(), l, arrays);
      default -> e.prim() == Prim.FLOAT && uniform(e, l.lane(), arrays);
    };
  }

  /**
   * Whether {@code e} reads neither the lane nor a lane array, and is made of constants, variables,
   * loads and arithmetic only: the same value for every lane, computed once.
   */
  private static boolean uniform(Expr e, Var lane, Set<Var> arrays) {
    boolean[] varying = {false};
    IrWalk.walk(e, null, new IrWalk.Visitor() {
      @Override
      public void expr(Expr x, Stmt in) {
        if (x instanceof Read r && (r.var().equals(lane) || arrays.contains(r.var()))) varying[0] = true;
        if (!(x instanceof Const || x instanceof Read || x instanceof Load || x instanceof Binary || x instanceof Unary || x instanceof Convert
            || x instanceof Call c && c.op() == Intrinsic.ADD_NO_WRAP)) varying[0] = true;
      }
    });
    return !varying[0];
  }

  private static boolean globalFloat(Expr array) {
    return array.type() instanceof ArrayType t && t.space() == ArrayType.Space.GLOBAL && t.element() == Prim.FLOAT;
  }

  /** For a global index {@code base + lane} (as the coarsen pass writes it, {@code ADD_NO_WRAP(base, lane)}), the base; else null. */
  static Expr base(Expr index, Var lane) {
    if (index instanceof Call c && c.op() == Intrinsic.ADD_NO_WRAP && c.args().get(1) instanceof Read r && r.var().equals(lane)
        && !reads(c.args().get(0), lane)) return c.args().get(0);
    return null;
  }

  private static boolean reads(Expr e, Var v) {
    boolean[] found = {false};
    IrWalk.walk(e, null, new IrWalk.Visitor() {
      @Override
      public void expr(Expr x, Stmt in) {
        if (x instanceof Read r && r.var().equals(v)) found[0] = true;
      }
    });
    return found[0];
  }
}
