// How an EncoderClassifier learns: its classes, how many of the encoder's last blocks train, the optimizers, the batch, the tokens, the seed.
package dev.loopjit.nn;

/**
 * The settings of an {@link EncoderClassifier}. The head (a linear layer from the sentence
 * embedding to the classes) is new and learns fast; the encoder's blocks are pretrained and learn
 * slowly, so each has its own optimizer, as in the usual BERT fine-tuning recipe.
 *
 * <pre>{@code
 * FineTuning.classes(4)                                   // the last block and a head, Adam 1e-2 / 5e-5
 * FineTuning.classes(2).withLayers(0)                     // the head alone: a linear probe
 * FineTuning.classes(3).withBlockOptimizer(Optimizer.adam(2e-5f)).withBatch(32).withMaxTokens(128)
 * }</pre>
 *
 * @param classes outputs of the head, at least 2
 * @param layers the encoder's last blocks that train (0: only the head); the rest stay as they are
 * @param head the head's optimizer
 * @param blocks the trained blocks' optimizer
 * @param batch sequences per training step
 * @param maxTokens the longest sequence taken, special tokens included: every sequence is padded to it
 * @param seed the head's initial weights
 */
public record FineTuning(int classes, int layers, Optimizer head, Optimizer blocks, int batch, int maxTokens, long seed) {
  public FineTuning {
    if (classes < 2) throw new IllegalArgumentException("a classifier needs at least 2 classes, not " + classes);
    if (layers < 0) throw new IllegalArgumentException("the blocks to train cannot be " + layers);
    if (head == null || blocks == null) throw new IllegalArgumentException("fine-tuning needs an optimizer for the head and one for the blocks");
    if (batch <= 0) throw new IllegalArgumentException("a training step needs at least one sequence, not " + batch);
    if (maxTokens <= 0) throw new IllegalArgumentException("sequences need at least one token, not " + maxTokens);
  }

  /** The last block and a head of {@code classes} outputs; Adam at 1e-2 for the head and 5e-5 for the block; 16 sequences of up to 64 tokens a step. */
  public static FineTuning classes(int classes) {
    return new FineTuning(classes, 1, Optimizer.adam(1e-2f), Optimizer.adam(5e-5f), 16, 64, 1);
  }

  public FineTuning withLayers(int n) {
    return new FineTuning(classes, n, head, blocks, batch, maxTokens, seed);
  }

  public FineTuning withHeadOptimizer(Optimizer o) {
    return new FineTuning(classes, layers, o, blocks, batch, maxTokens, seed);
  }

  public FineTuning withBlockOptimizer(Optimizer o) {
    return new FineTuning(classes, layers, head, o, batch, maxTokens, seed);
  }

  public FineTuning withBatch(int n) {
    return new FineTuning(classes, layers, head, blocks, n, maxTokens, seed);
  }

  public FineTuning withMaxTokens(int n) {
    return new FineTuning(classes, layers, head, blocks, batch, n, seed);
  }

  public FineTuning withSeed(long s) {
    return new FineTuning(classes, layers, head, blocks, batch, maxTokens, s);
  }
}
