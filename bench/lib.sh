# Sourced by the bench scripts after `cd` to the repository: the parts they share. Traffic stays
# on 127.0.0.1; nginx backends on 18081-18083, HAProxy on 18090, routers on the ports given
# (bench/latency-matrix.sh keeps to 18110-18114 and a Node backend of its own).
. tools/jdk.sh

BACKENDS=http://127.0.0.1:18081,http://127.0.0.1:18082,http://127.0.0.1:18083

# Installs the Debian packages named when any of these tools is missing: need wrk nginx ...
need() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || {
            apt-get update -qq
            apt-get install -y -qq "${@/nginx/nginx-light}"
            return
        }
    done
}

# This build's unpacked distribution, or a hint to build it.
this_build() {
    ROUTER_HOME=$(ls -d distribution/target/insika-router-*/ 2>/dev/null | grep -v '\.tar' | head -1)
    [ -n "$ROUTER_HOME" ] || { echo "build the distribution first: ./mvnw -B -q package -DskipTests" >&2; exit 1; }
}

# A scratch directory and the PIDS array, both cleaned up on exit.
scratch() {
    WORK=$(mktemp -d)
    PIDS=()
    trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"' EXIT
}

# scratch, then the three backends on 18081-18083: nginx answering 10 bytes with a length, or
# with ANSWERS=chunked Node answering in two chunks without one, as Node's and Python's servers do.
start_backends() {
    scratch
    if [ "${ANSWERS:-}" = chunked ]; then
        need nodejs # Debian's package, which gives node too
        node bench/chunked-backend.js 18081 18082 18083 & PIDS+=($!)
        for port in 18081 18082 18083; do
            for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
        done
    else
        . bench/nginx-backends.sh
    fi
}

# HAProxy on 18090 hashing req.body's $.user, consistent hashing over the three backends; the
# second argument is added to its bind line (bench/tls-bench.sh: "ssl crt FILE alpn h2,http/1.1").
start_haproxy() { # threads [bind options]
    cat > "$WORK/haproxy.cfg" <<HAPROXY
global
    maxconn 4096
    nbthread $1
defaults
    mode http
    timeout connect 10s
    timeout client 30s
    timeout server 30s
    option http-keep-alive
frontend sticky
    bind 127.0.0.1:18090 ${2:-}
    option http-buffer-request
    default_backend engines
backend engines
    balance hash req.body,json_query('\$.user')
    hash-type consistent
    server b1 127.0.0.1:18081
    server b2 127.0.0.1:18082
    server b3 127.0.0.1:18083
HAPROXY
    haproxy -f "$WORK/haproxy.cfg" & HAPROXY_PID=$!
    PIDS+=("$HAPROXY_PID")
}

# A router from an unpacked distribution in front of the three backends; sets ROUTER_PID.
start_router() { # home port admin-port
    sed "s/admin-port: 9091/admin-port: $3/" "$1/conf/insika-router.yaml" > "$WORK/$2.yaml"
    INSIKA_ROUTER_CONFIG="$WORK/$2.yaml" INSIKA_ROUTER_PORT=$2 INSIKA_ROUTER_HOST=127.0.0.1 \
        INSIKA_ROUTER_BACKENDS=$BACKENDS "$1/bin/insika-router" > "$WORK/$2.log" 2>&1 & ROUTER_PID=$!
    PIDS+=("$ROUTER_PID")
}

# Waits until the router on this port answers /up, or says why it did not start.
await_router() { # port
    for _ in $(seq 1 150); do curl -fsS -o /dev/null "http://127.0.0.1:$1/up" 2>/dev/null && return; sleep 0.2; done
    echo "router on $1 did not start:" >&2
    cat "$WORK/$1.log" >&2
    exit 1
}

ticks() { awk '{print $14, $15}' "/proc/$1/stat"; } # utime and stime, in clock ticks

# One wrk run of bench/sessions.lua, and the process's CPU per request over it, user and kernel
# apart: the router's kernel time per request follows its user time (session 9), so the split
# tells more than the sum. Needs CONNECTIONS and DURATION.
measure() { # name pid port
    local before after requests heap_before heap_after
    before=$(ticks "$2")
    heap_before=$(young_gen "$2")
    requests=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s bench/sessions.lua "http://127.0.0.1:$3" \
        | awk '/requests in/ {print $1}')
    after=$(ticks "$2")
    heap_after=$(young_gen "$2")
    echo "$before $after $heap_before $heap_after" \
        | awk -v n="$1" -v r="$requests" -v hz="$(getconf CLK_TCK)" -v d="$DURATION" \
        '{ u = ($3 - $1) / hz * 1e6 / r; s = ($4 - $2) / hz * 1e6 / r
           # bytes allocated: a young collection empties a full eden, so each one since is a
           # whole eden, plus what the eden gained (Serial GC, as jvm.options ships)
           a = (($10 - $7) * $6 + $8 - $5) * 1024 / r
           printf "%-9s %9d req  %8.0f req/s  %6.1f us CPU/request  (user %5.1f, kernel %5.1f)  %6.0f B/request\n", n, r, r / d, u + s, u, s, a }'
}

# The process's young generation from jstat: eden used and capacity (KiB) and the young
# collections so far; zeros where jstat cannot attach, so the bytes column reads 0.
young_gen() { # pid
    "${JAVA_HOME:-/nonexistent}/bin/jstat" -gc "$1" 2>/dev/null \
        | awk 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i } NR == 2 { print $col["EU"], $col["EC"], $col["YGC"] }' \
        | grep . || echo "0 0 0"
}
