#!/usr/bin/env bash
# tools/test.sh [MAVEN ARGUMENTS]: the whole test suite on a fresh Debian machine, as root or as
# a user with sudo; the README's test command, and all that .ci/run does. Installs what the
# tests start and is missing (tools/ci-deps.sh, through sudo when not root), selects a JDK 21+
# (tools/jdk.sh), then runs ./mvnw -B verify as the caller. When something cannot be installed
# (no root, no network) it says so and runs the suite all the same: the tests that need it fail,
# each naming what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/ci-deps.sh || echo "tools/test.sh: going on without what could not be installed (see above)" >&2
. tools/jdk.sh
echo "JAVA_HOME=$JAVA_HOME"
"$JAVA_HOME/bin/java" -version

exec ./mvnw -B verify "$@"
