// The exported packages stand alone: every public signature in them names only exported or JDK types.
package dev.loopjit.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A program or a backend outside the repository sees only what {@code module-info} exports
 * ({@code api}, {@code types}, {@code spi} and the IR it speaks, {@code ir}): a public or protected method, constructor, field,
 * supertype or record component of an exported class that names a type of an unexported package
 * ({@code compiler}, {@code runtime}, a backend) could not be used from outside the
 * module. This test fails on every such signature.
 */
class ExportedSignaturesTest {
  static final Set<String> EXPORTED = Set.of("dev.loopjit.api", "dev.loopjit.types", "dev.loopjit.spi", "dev.loopjit.ir");

  @Test
  void theModuleExportsExactlyThesePackages() {
    assertEquals(EXPORTED, Set.copyOf(ModuleLayer.boot().findModule("dev.loopjit").map(m -> m.getDescriptor().exports().stream()
        .map(java.lang.module.ModuleDescriptor.Exports::source).toList()).orElseGet(ExportedSignaturesTest::declaredExports)));
  }

  /** The exports module-info.java declares (the tests run on the class path, where the module's descriptor is not loaded). */
  private static List<String> declaredExports() {
    try {
      return java.util.regex.Pattern.compile("(?m)^\\s*exports\\s+([\\w.]+)\\s*;").matcher(Files.readString(Path.of("src", "main", "java", "module-info.java")))
          .results().map(r -> r.group(1)).toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void exportedSignaturesNameOnlyExportedTypes() throws IOException, ClassNotFoundException {
    Set<String> wrong = new TreeSet<>();
    for (String p : EXPORTED) {
      Path dir = Path.of("target", "classes", p.replace('.', '/'));
      List<String> names;
      try (Stream<Path> files = Files.list(dir)) {
        names = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".class")).map(n -> p + "." + n.substring(0, n.length() - 6)).toList();
      }
      for (String n : names) {
        Class<?> c = Class.forName(n, false, getClass().getClassLoader());
        if (!visible(c)) continue;
        List<Type> types = new ArrayList<>();
        if (c.getGenericSuperclass() != null) types.add(c.getGenericSuperclass());
        types.addAll(List.of(c.getGenericInterfaces()));
        for (Type t : types) check(t, c.getName() + " extends ", wrong);
        for (Method m : c.getDeclaredMethods()) if (visible(m) && !m.isSynthetic()) executable(m, c, wrong);
        for (Constructor<?> k : c.getDeclaredConstructors()) if (visible(k) && !k.isSynthetic()) executable(k, c, wrong);
        for (Field f : c.getDeclaredFields()) if (visible(f) && !f.isSynthetic()) check(f.getGenericType(), c.getName() + "." + f.getName() + ": ", wrong);
      }
    }
    assertEquals(List.of(), List.copyOf(wrong));
  }

  private static void executable(Executable e, Class<?> c, Set<String> wrong) {
    String where = c.getName() + "." + (e instanceof Constructor ? "<init>" : e.getName()) + "(): ";
    for (Type t : e.getGenericParameterTypes()) check(t, where, wrong);
    for (Type t : e.getGenericExceptionTypes()) check(t, where, wrong);
    if (e instanceof Method m) check(m.getGenericReturnType(), where, wrong);
  }

  private static boolean visible(Class<?> c) {
    for (Class<?> k = c; k != null; k = k.getDeclaringClass()) if (!Modifier.isPublic(k.getModifiers())) return false;
    return true;
  }

  private static boolean visible(Member m) {
    if (Modifier.isPublic(m.getModifiers())) return true;
    return Modifier.isProtected(m.getModifiers()) && !Modifier.isFinal(m.getDeclaringClass().getModifiers());
  }

  private static void check(Type t, String where, Set<String> wrong) {
    switch (t) {
      case Class<?> k when k.isArray() -> check(k.getComponentType(), where, wrong);
      case Class<?> k -> {
        if (k.isPrimitive() || k.getPackageName().startsWith("java.")) return;
        if (!EXPORTED.contains(k.getPackageName())) wrong.add(where + k.getName());
      }
      case ParameterizedType p -> {
        check(p.getRawType(), where, wrong);
        for (Type a : p.getActualTypeArguments()) check(a, where, wrong);
      }
      case GenericArrayType a -> check(a.getGenericComponentType(), where, wrong);
      case WildcardType w -> {
        for (Type b : w.getUpperBounds()) check(b, where, wrong);
        for (Type b : w.getLowerBounds()) check(b, where, wrong);
      }
      case TypeVariable<?> v -> {}
      default -> {}
    }
  }
}
