#!/usr/bin/env bash
# CPU per request of three proxies doing bench/sessions.lua's job in one run, in rotating order:
# HAProxy (hashing req.body's $.user), this build of insika-router, and bench/lean-floor, the
# least a Java proxy on virtual threads and blocking sockets can do for the same job (not the
# product: no validation, no limits). Router / floor is what the router's own code costs above
# the JVM's; floor / HAProxy is what the JVM and its socket model cost above C and epoll.
#
# Usage: bench/cpu-floor.sh [rounds] [seconds] [connections]   (defaults 3 rounds of 10 s, 32)
# Needs wrk, nginx, haproxy (bench/proxy-bench.sh installs them) and a built distribution.
# Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/jdk.sh
ROUNDS=${1:-3}
DURATION=${2:-10}
CONNECTIONS=${3:-32}
ROUTER_HOME=$(ls -d distribution/target/insika-router-*/ 2>/dev/null | grep -v '\.tar' | head -1)
[ -n "$ROUTER_HOME" ] || { echo "build the distribution first: ./mvnw -B -q package -DskipTests" >&2; exit 1; }
for tool in wrk nginx haproxy; do
    command -v "$tool" >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk nginx-light haproxy; break; }
done

WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
. bench/nginx-backends.sh

cat > "$WORK/haproxy.cfg" <<HAPROXY
global
    maxconn 4096
    nbthread 2
defaults
    mode http
    timeout connect 10s
    timeout client 30s
    timeout server 30s
    option http-keep-alive
frontend sticky
    bind 127.0.0.1:18090
    option http-buffer-request
    default_backend engines
backend engines
    balance hash req.body,json_query('\$.user')
    hash-type consistent
    server b1 127.0.0.1:18081
    server b2 127.0.0.1:18082
    server b3 127.0.0.1:18083
HAPROXY
haproxy -f "$WORK/haproxy.cfg" & HAPROXY_PID=$!; PIDS+=($HAPROXY_PID)

sed 's/admin-port: 9091/admin-port: 19099/' "$ROUTER_HOME/conf/insika-router.yaml" > "$WORK/router.yaml"
INSIKA_ROUTER_CONFIG="$WORK/router.yaml" INSIKA_ROUTER_PORT=18099 INSIKA_ROUTER_HOST=127.0.0.1 \
INSIKA_ROUTER_BACKENDS=http://127.0.0.1:18081,http://127.0.0.1:18082,http://127.0.0.1:18083 \
    "$ROUTER_HOME/bin/insika-router" > "$WORK/router.log" 2>&1 & ROUTER_PID=$!; PIDS+=($ROUTER_PID)

# the floor runs with the router's own JVM options, so the JVMs differ only in the code they run
FLOOR_OPTS=$(grep -v '^#' "$ROUTER_HOME/conf/jvm.options" | grep -v '^$' | tr '\n' ' ')
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $FLOOR_OPTS bench/lean-floor/LeanFloor.java 18096 18081 18082 18083 \
    > "$WORK/floor.log" 2>&1 & FLOOR_PID=$!; PIDS+=($FLOOR_PID)

for port in 18090 18099 18096; do
    for _ in $(seq 1 150); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
done

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime + stime, in clock ticks
HZ=$(getconf CLK_TCK)
measure() { # name pid port
    local before after requests
    before=$(ticks "$2")
    requests=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s bench/sessions.lua "http://127.0.0.1:$3" \
        | awk '/requests in/ {print $1}')
    after=$(ticks "$2")
    awk -v n="$1" -v r="$requests" -v t=$((after - before)) -v hz="$HZ" -v d="$DURATION" \
        'BEGIN { printf "%-9s %9d req  %8.0f req/s  %6.1f us CPU/request\n", n, r, r / d, t / hz * 1e6 / r }'
}

for port in 18099 18096; do # warm the JITs: C2 is still compiling after a few seconds
    wrk -t2 -c"$CONNECTIONS" -d15s -s bench/sessions.lua "http://127.0.0.1:$port" > /dev/null
done
for round in $(seq 1 "$ROUNDS"); do
    case $((round % 3)) in
        1) measure haproxy "$HAPROXY_PID" 18090; measure router "$ROUTER_PID" 18099; measure floor "$FLOOR_PID" 18096 ;;
        2) measure router "$ROUTER_PID" 18099; measure floor "$FLOOR_PID" 18096; measure haproxy "$HAPROXY_PID" 18090 ;;
        0) measure floor "$FLOOR_PID" 18096; measure haproxy "$HAPROXY_PID" 18090; measure router "$ROUTER_PID" 18099 ;;
    esac
done
