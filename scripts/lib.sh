# Shared set-up for scripts/*: find JDK 25, install the system packages LoopJIT uses, build.
# Sourced, not run. Each function says what it does and fails with a message saying what to install.

LOOPJIT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOOPJIT_PACKAGES="pocl-opencl-icd ocl-icd-libopencl1 clinfo spirv-tools llvm-spirv-15 dataset-fashion-mnist"

java_major() { # prints the feature version of the java at $1, or nothing
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -1
}

# Sets JAVA_HOME to a JDK >= 25: $JAVA_HOME if it is one, else /usr/lib/jvm/*25*, else `java` on PATH.
need_jdk() {
  local candidates=() v
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for d in /usr/lib/jvm/*25* /usr/lib/jvm/*-2[5-9]* /usr/lib/jvm/*-[3-9][0-9]*; do [ -d "$d" ] && candidates+=("$d"); done
  if command -v java >/dev/null 2>&1; then candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"); fi
  for d in "${candidates[@]}"; do
    [ -x "$d/bin/java" ] && [ -x "$d/bin/javac" ] || continue
    v=$(java_major "$d/bin/java")
    if [ -n "$v" ] && [ "$v" -ge 25 ] 2>/dev/null; then
      export JAVA_HOME="$d" PATH="$d/bin:$PATH"
      return 0
    fi
  done
  echo "LoopJIT needs a JDK 25 or newer (found none in \$JAVA_HOME, /usr/lib/jvm or on PATH)." >&2
  echo "Install one, e.g. 'apt-get install temurin-25-jdk' (Adoptium's apt repository) or from https://adoptium.net, and set JAVA_HOME." >&2
  exit 1
}

# Installs the Debian packages LoopJIT uses (PoCL, the OpenCL loader, clinfo, spirv-tools, llvm-spirv-15, Fashion-MNIST) when
# running as root with apt; otherwise says what is missing and carries on with what is there.
install_packages() {
  local missing=() p
  command -v dpkg >/dev/null 2>&1 || { echo "(not a Debian system: install PoCL and an OpenCL loader yourself for the opencl device)"; return 0; }
  for p in $LOOPJIT_PACKAGES; do   # "deinstall ... config-files" is not installed: ask for the status itself
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
  done
  command -v mvn >/dev/null 2>&1 || missing+=(maven)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "missing packages (install as root: apt-get install ${missing[*]}); running with what is here" >&2
    command -v mvn >/dev/null 2>&1 || { echo "Maven is required" >&2; exit 1; }
  fi
}

# JVM options every LoopJIT JVM needs: FFM native access; PoCL's LLVM replaces the JVM's signal
# handlers, so libjsig chains them (docs/ARCHITECTURE.md §6). The Vector API module lets jvm-mt run
# its float lanes as vectors (docs/guide/jvm-mt.md).
loopjit_jvm_env() {   # idempotent: scripts that call other scripts set each thing once
  case ":${LD_PRELOAD:-}:" in *":$JAVA_HOME/lib/libjsig.so:"*) ;; *) export LD_PRELOAD="$JAVA_HOME/lib/libjsig.so${LD_PRELOAD:+:$LD_PRELOAD}" ;; esac
  case " ${LOOPJIT_JAVA_OPTS:-} " in *" --enable-native-access=ALL-UNNAMED "*) ;; *) LOOPJIT_JAVA_OPTS="--enable-native-access=ALL-UNNAMED ${LOOPJIT_JAVA_OPTS:-}" ;; esac
  case " ${LOOPJIT_JAVA_OPTS:-} " in *" --add-modules=jdk.incubator.vector "*) ;; *) LOOPJIT_JAVA_OPTS="--add-modules=jdk.incubator.vector ${LOOPJIT_JAVA_OPTS:-}" ;; esac
  # Maven itself on JDK 25: silence the sun.misc.Unsafe notice from its bundled Guava.
  case " ${MAVEN_OPTS:-} " in *" --sun-misc-unsafe-memory-access=allow "*) ;; *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;; esac
}

# Whether an OpenCL platform is visible (then the test suite must use it, not skip it).
have_opencl() {
  command -v clinfo >/dev/null 2>&1 && [ "$(clinfo -l 2>/dev/null | grep -c 'Platform')" -gt 0 ]
}

# Builds the jars (no tests) if any is missing or older than the sources.
build_jars() {
  local stamp="$LOOPJIT_ROOT/jit/target/loopjit-jit-0.1.0-SNAPSHOT.jar"
  if [ ! -f "$stamp" ] || [ -n "$(find "$LOOPJIT_ROOT" -path "$LOOPJIT_ROOT/examples" -prune -o -name '*.java' -path '*/src/main/*' -newer "$stamp" -print -quit)" ] \
     || [ -n "$(find "$LOOPJIT_ROOT" -path "$LOOPJIT_ROOT/examples" -prune -o -name 'pom.xml' -newer "$stamp" -print -quit)" ]; then
    (cd "$LOOPJIT_ROOT" && mvn -B -q -DskipTests package) || { echo "build failed" >&2; exit 1; }
  fi
}

# The class path of the built modules (the engine has no dependencies of its own), and the embeddings module's
# dependencies (protobuf, gson, the model's jar) from the list its build writes, where that module was built.
loopjit_classpath() {
  local cp="" m deps="$LOOPJIT_ROOT/embeddings/target/runtime-classpath.txt"
  for m in jit tornado-tasks nn-layers embeddings; do
    cp="$cp${cp:+:}$LOOPJIT_ROOT/$m/target/loopjit-$m-0.1.0-SNAPSHOT.jar"
  done
  if [ -f "$deps" ]; then
    cp="$cp:$(tr ':' '\n' < "$deps" | grep -v '/dev/loopjit/' | paste -sd: -)"
  fi
  echo "$cp"
}

# loopjit_classpath plus the spark module and its dependencies, Spark's jars included (its build lists them; `mvn package` writes
# spark/target/runtime-classpath.txt).
loopjit_spark_classpath() {
  local deps="$LOOPJIT_ROOT/spark/target/runtime-classpath.txt"
  [ -f "$deps" ] || { echo "spark: $deps is missing; build the spark module (mvn -DskipTests package)" >&2; exit 1; }
  echo "$(loopjit_classpath):$LOOPJIT_ROOT/spark/target/loopjit-spark-0.1.0-SNAPSHOT.jar:$(tr ':' '\n' < "$deps" | grep -v '/dev/loopjit/' | paste -sd: -)"
}

# The JVM options Spark needs on JDK 17+ (what its launcher adds), read from spark/pom.xml's <spark.jvmArgs>, the one list;
# Spark logs warnings only (scripts/spark-log4j2.properties).
loopjit_spark_java_opts() {
  sed -n 's:.*<spark.jvmArgs>\(.*\)</spark.jvmArgs>.*:\1:p' "$LOOPJIT_ROOT/spark/pom.xml"
  echo "-Dlog4j2.configurationFile=$LOOPJIT_ROOT/scripts/spark-log4j2.properties"
}

# Parses `run [--class-path|-cp CP] MAIN [ARGS]` into RUN_CP and RUN_REST (MAIN and its arguments); exits 2 saying
# what is wrong when MAIN is missing or a class-path entry does not exist.
loopjit_run_args() {
  RUN_CP=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --class-path|-cp|--classpath)
        [ $# -ge 2 ] || { echo "loopjit run: $1 needs a class path" >&2; exit 2; }
        RUN_CP="${RUN_CP:+$RUN_CP:}$2"; shift 2 ;;
      --) shift; break ;;
      -*) echo "loopjit run: unknown option $1 (JVM options go in LOOPJIT_JAVA_OPTIONS)" >&2; exit 2 ;;
      *) break ;;
    esac
  done
  if [ $# -eq 0 ]; then
    echo "usage: loopjit run [--class-path CP] MAIN [ARGS...]   (runs MAIN with LoopJIT's jars, libjsig.so and native access)" >&2
    exit 2
  fi
  local entry entries=()
  IFS=: read -r -a entries <<< "$RUN_CP"
  for entry in ${entries[@]+"${entries[@]}"}; do
    case "$entry" in
      ""|*'*') ;;
      *) [ -e "$entry" ] || { echo "loopjit run: class-path entry $entry does not exist" >&2; exit 2; } ;;
    esac
  done
  RUN_REST=("$@")
}
