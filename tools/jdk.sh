# Sourced, not run: selects a JDK 21+ for this shell by setting JAVA_HOME.
# Keeps a JAVA_HOME that is already 21+; otherwise takes the newest 21+ JDK it finds under
# /usr/lib/jvm (Debian, Temurin packages) or the java on PATH. Fails loudly if there is none.

_insika_java_major() {
    "$1/bin/java" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p'
}

_insika_pick_jdk() {
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] \
        && [ "$(_insika_java_major "$JAVA_HOME")" -ge 21 ] 2>/dev/null; then
        return 0
    fi
    _best=""; _best_major=0
    for _candidate in /usr/lib/jvm/* "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")"; do
        [ -x "$_candidate/bin/javac" ] || continue
        _major=$(_insika_java_major "$_candidate")
        if [ -n "$_major" ] && [ "$_major" -ge 21 ] && [ "$_major" -gt "$_best_major" ]; then
            _best=$_candidate; _best_major=$_major
        fi
    done
    if [ -z "$_best" ]; then
        echo "insika-router needs a JDK 21 or newer; none found (set JAVA_HOME to one)" >&2
        return 1
    fi
    JAVA_HOME=$_best
    export JAVA_HOME
}

_insika_pick_jdk
