// The in-memory kernel cache keeps no class alive: a kernel class loaded by a loader that is dropped can be collected.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

class CompileCacheTest {
  @Test
  void theSameMethodAndTargetCompileOnce() {
    Target t = Target.offline("opencl", "");
    MethodRef m = MethodRef.of(CacheTestKernel.class, "scale", "([FF)V");
    assertSame(Compiler.compile(m, t), Compiler.compile(m, t));
  }

  @Test
  void aDroppedClassLoaderIsCollectedWithItsKernels() throws Exception {
    WeakReference<ClassLoader> loader = compileInOwnLoader();
    for (int i = 0; i < 50 && loader.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertNull(loader.get(), "the kernel cache keeps the class (and its loader) alive");
  }

  private static WeakReference<ClassLoader> compileInOwnLoader() throws Exception {
    URL classes = CompileCacheTest.class.getProtectionDomain().getCodeSource().getLocation();
    URLClassLoader own = new URLClassLoader(new URL[] {classes}, CompileCacheTest.class.getClassLoader().getParent()) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.equals(CacheTestKernel.class.getName())) {
          synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            return c != null ? c : findClass(name);
          }
        }
        return CompileCacheTest.class.getClassLoader().loadClass(name);
      }
    };
    Class<?> c = own.loadClass(CacheTestKernel.class.getName());
    Compiler.compile(MethodRef.of(c, "scale", "([FF)V"), Target.offline("opencl", ""));
    own.close();
    return new WeakReference<>(own);
  }
}
