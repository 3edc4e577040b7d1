#!/usr/bin/env bash
# tools/ci-deps.sh: on Debian, installs the packages the test suite starts itself, those that are
# missing, and nothing else. Run by tools/test.sh (the README's test command, and .ci/run's);
# run it alone to install them once. As root it runs apt-get; otherwise it runs itself again
# through sudo. When it cannot install (not root and no sudo, no network, no such package), it
# says what is missing and how to install it, and exits 1: the tests that need a missing program
# then fail and name the same command.
#   dnsmasq: the DNS discovery tests run a real DNS server on a loopback port. dnsmasq-base
#            is the binary alone; the dnsmasq package would also start a system service.
#   nodejs, npm, python3: the route-token tests run the JavaScript and Python reference
#            implementations in clients/ against the Java one, and JsonKeyVectorsTest the
#            json-field vectors against Node's JSON.parse and Python's json; SocketIoClientTest
#            installs npm's socket.io and socket.io-client (clients/socketio-check) on first use,
#            McpSessionsTest npm's @modelcontextprotocol/sdk (clients/mcp-check), and
#            OpenAiSdkTest npm's openai (clients/openai-check).
#   python3-xxhash: the Python owner(key, ids) reference's rendezvous (PyPI is not reachable),
#            run with Debian's /usr/bin/python3.
#   chromium: StatusPageTest loads the admin status page in headless Chromium and checks what
#            it rendered.
#   umoci:   the build makes the container image's OCI layout with it
#            (distribution/src/image/build-image.sh; without it the image is skipped), and
#            ImageTest runs that image.
#   nginx, haproxy, apache2-utils (ab), curl: the interop tests (router-server's interop
#            package) put nginx and HAProxy in front of a router and send it ab's and
#            curl --http1.0's requests; each runs in the foreground with a generated
#            configuration on loopback ports. Installing nginx or haproxy would also start its
#            system service (on port 80, or failing without systemd, which fails the install):
#            a policy-rc.d that forbids it is put in place for the install unless one is there.
#   openssl: TlsListenerTest offers TLS 1.1 with openssl s_client (the JDK's client will not)
#            and checks the router refuses it.
#   wrk:     not the tests': bench/proxy-bench.sh and the other throughput benchmarks.
#   a JDK 21+, only when tools/jdk.sh finds none and Debian has one (bookworm has none: there,
#            install a Temurin or other JDK 21+ package and set JAVA_HOME).
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v dnsmasq >/dev/null 2>&1 || [ -x /usr/sbin/dnsmasq ] || missing+=(dnsmasq-base)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
[ -x /usr/bin/python3 ] || missing+=(python3)
/usr/bin/python3 -c 'import xxhash' >/dev/null 2>&1 || missing+=(python3-xxhash)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v umoci >/dev/null 2>&1 || missing+=(umoci)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
command -v ab >/dev/null 2>&1 || missing+=(apache2-utils)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
need_jdk=
(. tools/jdk.sh) >/dev/null 2>&1 || need_jdk=yes
[ ${#missing[@]} -gt 0 ] || [ -n "$need_jdk" ] || exit 0

cannot() {
    echo "tools/ci-deps.sh: cannot install ${missing[*]}${need_jdk:+ and a JDK 21+}: $*." >&2
    echo "tools/ci-deps.sh: as root: apt-get update && apt-get install ${missing[*]}" >&2
    echo "tools/ci-deps.sh: the tests that need them fail and name the package." >&2
    exit 1
}

if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || cannot "not root, and there is no sudo"
    echo "tools/ci-deps.sh: installing ${missing[*]}${need_jdk:+ and a JDK 21+} through sudo"
    # the caller's JAVA_HOME, which sudo would drop, so that its JDK counts
    exec sudo -- env ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} "$0"
fi
command -v apt-get >/dev/null 2>&1 || cannot "no apt-get (not Debian)"

apt-get update -qq || cannot "apt-get update failed (no network?)"
if [ -n "$need_jdk" ]; then
    for jdk in openjdk-25-jdk-headless openjdk-21-jdk-headless; do
        if [ -n "$(apt-cache policy "$jdk" 2>/dev/null | sed -n 's/^ *Candidate: \([^(].*\)$/\1/p')" ]; then
            missing+=("$jdk")
            need_jdk=
            break
        fi
    done
    [ -z "$need_jdk" ] || echo "tools/ci-deps.sh: Debian here has no JDK 21+; install one and set JAVA_HOME" >&2
fi
[ ${#missing[@]} -gt 0 ] || exit 1

ci_deps_policy=
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\n# tools/ci-deps.sh: no service starts while it installs packages\nexit 101\n' \
        > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && ci_deps_policy=ours
fi
status=0
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" || status=$?
[ "$ci_deps_policy" != ours ] || rm -f /usr/sbin/policy-rc.d
[ "$status" = 0 ] || cannot "apt-get install failed (status $status)"
[ -z "$need_jdk" ]
