// Where a statement came from: class, method, Java line, and the call it was inlined through.
package dev.loopjit.ir;

/**
 * A source position for error messages. {@code caller} is the position of the call this code
 * was inlined through (null for the kernel's own code), so a message can show the whole chain.
 */
public record Src(String className, String method, int line, Src caller) {
  public static final Src NONE = new Src("?", "?", -1, null);

  /** {@code Kernels.saxpy (Kernels.java:12)} */
  public String describe() {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    String file = simple.contains("$") ? simple.substring(0, simple.indexOf('$')) : simple;
    return simple + "." + method + " (" + file + ".java" + (line >= 0 ? ":" + line : "") + ")";
  }

  /** This position as seen through one more level of inlining. */
  public Src inlinedAt(Src callSite) {
    return new Src(className, method, line, caller == null ? callSite : caller.inlinedAt(callSite));
  }

  /** The position in the kernel's own method (the outermost caller). */
  public Src root() {
    return caller == null ? this : caller.root();
  }
}
