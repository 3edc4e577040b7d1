# Sourced by bash, as root, on a Debian machine (.ci/run, or `sudo bash -c '. tools/ci-deps.sh'`):
# installs the Debian packages the test suite starts itself, when they are missing.
#   dnsmasq: the DNS discovery tests run a real DNS server on a loopback port. dnsmasq-base
#            is the binary alone; the dnsmasq package would also start a system service.
#   nodejs, npm, python3: the route-token tests run the JavaScript and Python reference
#            implementations in clients/ against the Java one, and JsonKeyVectorsTest the
#            json-field vectors against Node's JSON.parse and Python's json; SocketIoClientTest
#            installs npm's socket.io and socket.io-client (clients/socketio-check) on first use,
#            and McpSessionsTest npm's @modelcontextprotocol/sdk (clients/mcp-check).
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
#   wrk:     not the tests': bench/proxy-bench.sh and the other throughput benchmarks.
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
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    ci_deps_policy=
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\n# tools/ci-deps.sh: no service starts while it installs packages\nexit 101\n' \
            > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && ci_deps_policy=ours
    fi
    ci_deps_status=0
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" || ci_deps_status=$?
    [ "$ci_deps_policy" != ours ] || rm -f /usr/sbin/policy-rc.d
    # apt-get's status is the sourcing shell's: a failed install still stops .ci/run
    [ "$ci_deps_status" = 0 ]
fi
