// A kernel whose control flow cannot be structured is refused with the line of the loop at fault, not the method's first.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.testing.MemoryClassLoader;
import java.lang.classfile.ClassFile;
import java.lang.classfile.Label;
import java.lang.classfile.attribute.SourceFileAttribute;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import org.junit.jupiter.api.Test;

class StructuringErrorTest {

  /**
   * javac never emits irreducible control flow, so the test writes it with java.lang.classfile: a
   * loop over lines 20 and 30 entered at both lines from line 10.
   */
  @Test
  void anIrreducibleLoopIsRefusedAtItsOwnLine() throws Exception {
    ClassDesc owner = ClassDesc.of("gen.Irreducible");
    byte[] bytes = ClassFile.of().build(owner, clb -> {
      clb.with(SourceFileAttribute.of("Irreducible.java"));
      clb.withMethodBody("kernel", MethodTypeDesc.ofDescriptor("([I)V"), ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, cb -> {
        Label a = cb.newLabel(), b = cb.newLabel();
        cb.lineNumber(10).iconst_0().istore(1).aload(0).iconst_0().iaload().ifne(b);
        cb.labelBinding(a);
        cb.lineNumber(20).iinc(1, 1);
        cb.labelBinding(b);
        cb.lineNumber(30).iload(1).bipush(10).if_icmplt(a);
        cb.lineNumber(40).aload(0).iconst_0().iload(1).iastore().return_();
      });
    });
    Class<?> c = new MemoryClassLoader(getClass().getClassLoader()).add("gen.Irreducible", bytes).loadClass("gen.Irreducible");
    KernelCompilationException e = assertThrows(KernelCompilationException.class,
        () -> Compiler.compile(MethodRef.of(c, "kernel", "([I)V"), Target.offline("opencl", "")));
    assertTrue(e.getMessage().startsWith("Irreducible.kernel (Irreducible.java:30): control flow the JIT cannot structure"), e.getMessage());
    assertEquals(30, e.line());
  }
}
