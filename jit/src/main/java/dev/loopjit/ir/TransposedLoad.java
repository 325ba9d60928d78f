// A LOAD_TRANSPOSED call's parts, and its meaning as plain loads and stores.
package dev.loopjit.ir;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Stmt.*;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Intrinsic#LOAD_TRANSPOSED}{@code (tile, array, index_0, …, index_{W-1})}: {@code W} rows of
 * {@code array} ({@link #rows()}), {@link #run()} elements each from {@code index_q}, stored by
 * columns in {@code tile}.
 */
public record TransposedLoad(Expr tile, Expr array, List<Expr> starts) {
  public TransposedLoad {
    starts = List.copyOf(starts);
  }

  /** The parts of {@code c}, a LOAD_TRANSPOSED call. */
  public static TransposedLoad of(Call c) {
    if (c.op() != Intrinsic.LOAD_TRANSPOSED) throw new IllegalArgumentException(c.toString());
    return new TransposedLoad(c.args().get(0), c.args().get(1), c.args().subList(2, c.args().size()));
  }

  /** The call. */
  public Call call() {
    List<Expr> args = new ArrayList<>(List.of(tile, array));
    args.addAll(starts);
    return new Call(Intrinsic.LOAD_TRANSPOSED, null, args);
  }

  /** W: the rows read, one per lane. */
  public int rows() {
    return starts.size();
  }

  /** B: the elements read from each row. */
  public int run() {
    return ((ArrayType) tile.type()).length() / rows();
  }

  /** The same as loads and stores: {@code tile[t·W + q] = array[index_q + t]}, t outermost. */
  public List<Stmt> asStores(Src at) {
    List<Stmt> out = new ArrayList<>();
    for (int t = 0; t < run(); t++)
      for (int q = 0; q < rows(); q++) {
        Expr index = t == 0 ? starts.get(q) : new Binary(Op.Binary.ADD, starts.get(q), Const.of(t));
        out.add(new Store(tile, Const.of(t * rows() + q), new Load(array, index), at));
      }
    return out;
  }
}
