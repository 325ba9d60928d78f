// The target of a Break or Continue: a Loop, a Switch or a Labeled block.
package dev.loopjit.ir;

/** A jump target; unique within a kernel. */
public record Label(String name) {
  @Override
  public String toString() {
    return name;
  }
}
