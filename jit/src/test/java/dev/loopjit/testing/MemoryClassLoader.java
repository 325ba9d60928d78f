// A class loader for classes made at run time (generated or compiled in memory), whose class files the JIT can read back.
package dev.loopjit.testing;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Defines classes from bytes and serves those bytes as the {@code .class} resources the JIT reads
 * kernels from ({@code MethodRef.classBytes()}), so a kernel compiled at run time by
 * {@code javax.tools} or written with {@code java.lang.classfile} compiles like any other.
 */
public final class MemoryClassLoader extends ClassLoader {
  private final Map<String, byte[]> classes = new ConcurrentHashMap<>();

  /** A loader delegating to {@code parent} for everything it was not given. */
  public MemoryClassLoader(ClassLoader parent) {
    super(parent);
  }

  /** Adds the class file of {@code binaryName} ({@code a.b.C$D}). */
  public MemoryClassLoader add(String binaryName, byte[] classFile) {
    classes.put(binaryName, classFile.clone());
    return this;
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] b = classes.get(name);
    if (b == null) throw new ClassNotFoundException(name);
    return defineClass(name, b, 0, b.length);
  }

  @Override
  public InputStream getResourceAsStream(String name) {
    String n = name.startsWith("/") ? name.substring(1) : name;
    if (n.endsWith(".class")) {
      byte[] b = classes.get(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
      if (b != null) return new ByteArrayInputStream(b);
    }
    return super.getResourceAsStream(name);
  }
}
