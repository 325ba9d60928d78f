// Reads the CUDA toolkit's cuda.h without a C compiler: its prototypes by ABI symbol, typedefs, enum values and numeric #defines.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the C preprocessor of 64-bit Linux leaves of {@code cuda.h} with some macros defined, read by a small preprocessor
 * written here: comments, {@code #if}/{@code #ifdef}/{@code #elif}/{@code #else}, {@code #define}/{@code #undef}, and the
 * expansion of the macros that rename functions ({@code #define cuMemAlloc cuMemAlloc_v2},
 * {@code #define cuMemcpyHtoD __CUDA_API_PTDS(cuMemcpyHtoD_v2)}), so each prototype is filed under the symbol it declares.
 */
final class CudaHeader {
  /** One declaration {@code CUresult CUDAAPI name(...);}, under the symbol the header's macros turn its name into. */
  record Prototype(String returnType, String symbol, List<String> parameterTypes, String text) {}

  /** The C types cuda.h builds on, from the language, {@code <stdlib.h>} and {@code <stdint.h>}, as passed on 64-bit Linux. */
  private static final Map<String, MemoryLayout> C_TYPES = Map.of("int", JAVA_INT, "unsigned int", JAVA_INT,
      "long", JAVA_LONG, "unsigned long", JAVA_LONG, "long long", JAVA_LONG, "unsigned long long", JAVA_LONG,
      "size_t", JAVA_LONG, "uint32_t", JAVA_INT, "uint64_t", JAVA_LONG, "float", JAVA_FLOAT);

  private static final Pattern COMMENT_OR_STRING = Pattern.compile("\"(?:\\\\.|[^\"\\\\\n])*\"|/\\*.*?\\*/|//[^\n]*", Pattern.DOTALL);
  private static final Pattern DIRECTIVE = Pattern.compile("\\s*#\\s*(\\w+)(.*)");
  private static final Pattern FUNCTION_MACRO = Pattern.compile("(\\w+)\\(([^)]*)\\)(.*)");
  private static final Pattern MACRO_CALL = Pattern.compile("(\\w+)\\s*\\(\\s*(\\w+)\\s*\\)");
  private static final Pattern CALLED_NAME = Pattern.compile("\\b[A-Za-z_]\\w*(?=\\s*\\()");
  private static final Pattern PROTOTYPE = Pattern.compile("(\\w+\\s*\\**)\\s*\\bCUDAAPI\\s+(\\w+)\\s*\\(([^()]*)\\)\\s*;");
  private static final Pattern ENUM = Pattern.compile("typedef\\s+enum\\s*\\w*\\s*\\{([^}]*)}\\s*(\\w+)\\s*;");
  private static final Pattern TYPEDEF = Pattern.compile("typedef\\s+((?:\\w+\\s+)*?\\w+)\\s*(\\**)\\s*\\b(\\w+)\\s*;");
  private static final Pattern NAMED_PARAMETER = Pattern.compile("(.*[\\s*])\\w+\\s*(\\[[^]]*])?");
  private static final Pattern NUMBER = Pattern.compile("\\(?\\s*(-?(?:0[xX][0-9a-fA-F]+|\\d+))[uUlL]*\\s*\\)?");
  private static final Pattern CONDITION_TOKEN = Pattern.compile("\\|\\||&&|[<>=!]=|[()!<>]|\\w+");

  final Map<String, Prototype> prototypes = new HashMap<>();       // ABI symbol -> its declaration
  final Map<String, Map<String, Long>> enums = new HashMap<>();    // enum typedef name -> member -> value
  private final Map<String, String> typedefs = new HashMap<>();    // typedef name -> the C type it names, or "enum"
  private final Map<String, String> macros = new HashMap<>();      // object-like macro -> its body
  private final Map<String, String[]> functionMacros = new HashMap<>();   // function-like macro -> {parameters, body}

  /** cuda.h in $CUDA_HOME/include, /usr/local/cuda/include, or the include folder beside the ptxas {@link Ptxas} finds; null if none. */
  static Path find() {
    List<Path> places = new ArrayList<>();
    String home = System.getenv("CUDA_HOME");
    if (home != null && !home.isBlank()) places.add(Path.of(home, "include", "cuda.h"));
    places.add(Path.of("/usr/local/cuda/include/cuda.h"));
    if (Ptxas.present()) places.add(Ptxas.path().toAbsolutePath().getParent().resolveSibling("include").resolve("cuda.h"));
    return places.stream().filter(Files::isRegularFile).findFirst().orElse(null);
  }

  /** cuda.h's text {@code source} as compiled with {@code defined} (and 64-bit Linux's __LP64__) defined. */
  CudaHeader(String source, Set<String> defined) {
    macros.put("__LP64__", "1");
    defined.forEach(name -> macros.put(name, "1"));
    String code = preprocess(source);
    for (Matcher m = PROTOTYPE.matcher(code); m.find(); ) {
      String text = m.group().replaceAll("\\s+", " ").replace(" CUDAAPI", "").replace(";", "");
      prototypes.putIfAbsent(m.group(2), new Prototype(m.group(1).replace(" ", ""), m.group(2), parameterTypes(m.group(3)), text));
    }
    for (Matcher m = ENUM.matcher(code); m.find(); ) {
      typedefs.put(m.group(2), "enum");
      enums.put(m.group(2), members(m.group(1)));
    }
    for (Matcher m = TYPEDEF.matcher(code); m.find(); ) typedefs.put(m.group(3), m.group(1) + m.group(2));
  }

  /** The value of a #define that is a number (CUDA_VERSION, CU_MEMHOSTREGISTER_PORTABLE), or null. */
  Long number(String macro) {
    String body = macros.get(macro);
    return body == null ? null : literal(body);
  }

  /** The symbol a function name in C code stands for here: cuMemAlloc gives cuMemAlloc_v2. */
  String symbolOf(String name) {
    return expand(name);
  }

  /** How a C type is passed through FFM, or null when the header does not say. */
  MemoryLayout layout(String cType) {
    String type = cType.replaceAll("\\b(const|volatile)\\b", " ").replaceAll("\\s+", " ").trim();
    if (type.contains("*")) return ADDRESS;   // every pointer, and handles such as CUcontext (struct CUctx_st *)
    if (type.startsWith("enum ")) return JAVA_INT;
    if (C_TYPES.containsKey(type)) return C_TYPES.get(type);
    String meaning = typedefs.get(type);
    if (meaning == null) return null;
    return meaning.equals("enum") ? JAVA_INT : layout(meaning);
  }

  /** The lines the compiler sees, with each name that is called or declared (a name before "(") macro-expanded. */
  private String preprocess(String source) {
    String code = COMMENT_OR_STRING.matcher(source).replaceAll(m -> m.group().startsWith("\"") ? Matcher.quoteReplacement(m.group()) : " ");
    code = code.replace("\\\r\n", " ").replace("\\\n", " ");
    StringBuilder seen = new StringBuilder();
    Deque<boolean[]> conditions = new ArrayDeque<>();   // each open #if: {the text around it is seen, a branch was taken}
    boolean active = true;
    for (String line : code.split("\r?\n")) {
      Matcher directive = DIRECTIVE.matcher(line);
      if (!directive.matches()) {
        if (active) seen.append(CALLED_NAME.matcher(line).replaceAll(m -> expand(m.group()))).append('\n');
        continue;
      }
      String rest = directive.group(2).trim();
      switch (directive.group(1)) {
        case "if", "ifdef", "ifndef" -> {
          boolean holds = active && switch (directive.group(1)) {
            case "ifdef" -> isDefined(rest);
            case "ifndef" -> !isDefined(rest);
            default -> new Condition(rest).or() != 0;
          };
          conditions.push(new boolean[] {active, holds});
          active = holds;
        }
        case "elif" -> {
          boolean[] open = conditions.peek();
          active = open[0] && !open[1] && new Condition(rest).or() != 0;
          open[1] |= active;
        }
        case "else" -> {
          boolean[] open = conditions.peek();
          active = open[0] && !open[1];
          open[1] = true;
        }
        case "endif" -> active = conditions.pop()[0];
        case "define" -> { if (active) define(rest); }
        case "undef" -> { if (active) { macros.remove(rest); functionMacros.remove(rest); } }
        default -> { }   // #include, #pragma, #error: nothing read here depends on them
      }
    }
    return seen.toString();
  }

  private void define(String definition) {
    Matcher function = FUNCTION_MACRO.matcher(definition);
    String[] nameAndBody = definition.split("\\s+", 2);
    if (function.matches()) functionMacros.put(function.group(1), new String[] {function.group(2).trim(), function.group(3).trim()});
    else macros.put(nameAndBody[0], nameAndBody.length > 1 ? nameAndBody[1].trim() : "");
  }

  private boolean isDefined(String name) {
    return macros.containsKey(name) || functionMacros.containsKey(name);
  }

  /** The name a name becomes, while macros turn it into a name: cuMemcpyHtoD -> __CUDA_API_PTDS(cuMemcpyHtoD_v2) -> cuMemcpyHtoD_v2. */
  private String expand(String name) {
    Set<String> expanded = new HashSet<>();   // as in C, a macro is not expanded again inside its own expansion
    while (expanded.add(name) && macros.containsKey(name)) {
      String body = macros.get(name);
      Matcher call = MACRO_CALL.matcher(body);
      if (call.matches() && functionMacros.containsKey(call.group(1))) {
        String[] macro = functionMacros.get(call.group(1));
        body = macro[1].replaceAll("\\b" + Pattern.quote(macro[0]) + "\\b", call.group(2)).replaceAll("\\s*##\\s*", "");
      }
      if (!body.matches("\\w+")) break;
      name = body;
    }
    return name;
  }

  /** An #if expression: defined(X), ||, &&, !, one comparison, parentheses, numbers; a name that is no number is 0, as in C. */
  private final class Condition {
    private final List<String> tokens = new ArrayList<>();
    private int at;

    Condition(String expression) {
      for (Matcher m = CONDITION_TOKEN.matcher(expression); m.find(); ) tokens.add(m.group());
    }

    long or() {
      long value = and();
      while (take("||")) value = (and() != 0 | value != 0) ? 1 : 0;
      return value;
    }

    private long and() {
      long value = comparison();
      while (take("&&")) value = (comparison() != 0 & value != 0) ? 1 : 0;
      return value;
    }

    private long comparison() {
      long left = operand();
      if (at == tokens.size() || !tokens.get(at).matches("[<>=!]=|[<>]")) return left;
      String op = tokens.get(at++);
      long right = operand();
      boolean holds = switch (op) {
        case ">=" -> left >= right; case "<=" -> left <= right; case "==" -> left == right;
        case "!=" -> left != right; case ">" -> left > right; default -> left < right;
      };
      return holds ? 1 : 0;
    }

    private long operand() {
      if (take("!")) return operand() == 0 ? 1 : 0;
      if (take("(")) {
        long value = or();
        take(")");
        return value;
      }
      String token = tokens.get(at++);
      if (token.equals("defined")) {
        boolean parenthesised = take("(");
        String name = tokens.get(at++);
        if (parenthesised) take(")");
        return isDefined(name) ? 1 : 0;
      }
      Long value = Character.isDigit(token.charAt(0)) ? literal(token) : number(token);
      return value == null ? 0 : value;
    }

    private boolean take(String token) {
      boolean next = at < tokens.size() && tokens.get(at).equals(token);
      if (next) at++;
      return next;
    }
  }

  /** A C integer literal such as 0x01, 201112L or (-1), or null. */
  private static Long literal(String text) {
    Matcher m = NUMBER.matcher(text.trim());
    return m.matches() ? Long.decode(m.group(1)) : null;
  }

  /** An enum's members and values: "A = 1, B, C = 0x10, D = A" gives A=1, B=2, C=16, D=1; a value it cannot read is left out. */
  private static Map<String, Long> members(String body) {
    Map<String, Long> values = new LinkedHashMap<>();
    Long next = 0L;
    for (String member : body.split(",")) {
      String[] parts = member.split("=", 2);
      if (parts[0].isBlank()) continue;
      Long value = parts.length == 1 ? next : Optional.ofNullable(literal(parts[1])).orElse(values.get(parts[1].trim()));
      if (value != null) values.put(parts[0].trim(), value);
      next = value == null ? null : value + 1;
    }
    return values;
  }

  /** The C types of a parameter list, names dropped: "CUdeviceptr *dptr, size_t bytesize" gives "CUdeviceptr *", "size_t". */
  private static List<String> parameterTypes(String list) {
    String flat = list.replaceAll("\\s+", " ").trim();
    if (flat.isEmpty() || flat.equals("void")) return List.of();
    return Stream.of(flat.split(",")).map(String::trim).map(parameter -> {
      Matcher named = NAMED_PARAMETER.matcher(parameter);
      return named.matches() ? named.group(1) + (named.group(2) != null ? "*" : "") : parameter;
    }).toList();
  }
}
