// A variable of a kernel: a parameter, a local, or a value the compiler introduced.
package dev.loopjit.ir;

/** A named, typed variable; names are unique within a kernel. */
public record Var(String name, Type type) {
  @Override
  public String toString() {
    return name;
  }
}
