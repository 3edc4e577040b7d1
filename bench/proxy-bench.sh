#!/usr/bin/env bash
# Side-by-side throughput of: nginx backends directly, HAProxy hashing req.body's $.user, and
# insika-router, all on this machine, in one run (compare the ratios, not the absolute numbers).
#
# Usage: bench/proxy-bench.sh [duration-seconds]      (default 10)
#        ORDER="router haproxy direct" bench/proxy-bench.sh   measures the targets in that order
#        (default "direct haproxy router"): later slots run on a warmer machine, so vary it
#        BASELINE_HOME=/path/to/an/unpacked/insika-router bench/proxy-bench.sh
#        also measures that build (say, the last commit's) beside this one, as "baseline": the way
#        to see what a change costs on a noisy machine.
# Needs: wrk, nginx, haproxy (Debian packages; installed when missing) and a built distribution
# (./mvnw -B -q package -DskipTests). Traffic stays on 127.0.0.1. Results: bench/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/jdk.sh
DURATION=${1:-10}
OUT=bench/results/$(date +%Y%m%d-%H%M%S)
WORK=$(mktemp -d)
mkdir -p "$OUT"
for tool in wrk nginx haproxy; do
    command -v "$tool" >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk nginx-light haproxy; break; }
done
ROUTER_HOME=$(ls -d distribution/target/insika-router-*/ 2>/dev/null | grep -v '\.tar' | head -1)
[ -n "$ROUTER_HOME" ] || { echo "build the distribution first: ./mvnw -B -q package -DskipTests" >&2; exit 1; }

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
haproxy -f "$WORK/haproxy.cfg" & PIDS+=($!)

INSIKA_ROUTER_PORT=18099 INSIKA_ROUTER_HOST=127.0.0.1 \
INSIKA_ROUTER_BACKENDS=http://127.0.0.1:18081,http://127.0.0.1:18082,http://127.0.0.1:18083 \
    "$ROUTER_HOME/bin/insika-router" > "$OUT/router.log" 2>&1 & ROUTER_PID=$!; PIDS+=($ROUTER_PID)

PORTS="18081 18090 18099"
if [ -n "${BASELINE_HOME:-}" ]; then
    sed 's/admin-port: 9091/admin-port: 19091/' "$BASELINE_HOME/conf/insika-router.yaml" > "$WORK/baseline.yaml"
    INSIKA_ROUTER_CONFIG="$WORK/baseline.yaml" INSIKA_ROUTER_PORT=18098 INSIKA_ROUTER_HOST=127.0.0.1 \
    INSIKA_ROUTER_BACKENDS=http://127.0.0.1:18081,http://127.0.0.1:18082,http://127.0.0.1:18083 \
        "$BASELINE_HOME/bin/insika-router" > "$OUT/baseline.log" 2>&1 & PIDS+=($!)
    PORTS="$PORTS 18098"
fi

for port in $PORTS; do
    for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:$port/up" 2>/dev/null && break
        curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
done

run() { # name port connections
    wrk -t2 -c"$3" -d"${DURATION}s" --latency -s bench/sessions.lua "http://127.0.0.1:$2" > "$OUT/$1-c$3.txt"
    local rps p50 p99
    rps=$(awk '/Requests\/sec/ {print $2}' "$OUT/$1-c$3.txt")
    p50=$(awk '$1=="50%" {print $2}' "$OUT/$1-c$3.txt")
    p99=$(awk '$1=="99%" {print $2}' "$OUT/$1-c$3.txt")
    printf '%-8s c=%-4s %10s req/s   p50 %-9s p99 %s\n' "$1" "$3" "$rps" "$p50" "$p99" | tee -a "$OUT/summary.txt"
}

for c in 32 256; do
    # warm the JIT and the connection pools before measuring: C2 is still compiling after 3 s
    wrk -t2 -c"$c" -d10s -s bench/sessions.lua http://127.0.0.1:18099 > /dev/null
    [ -z "${BASELINE_HOME:-}" ] || wrk -t2 -c"$c" -d10s -s bench/sessions.lua http://127.0.0.1:18098 > /dev/null
    for target in ${ORDER:-direct haproxy router}; do
        case $target in
            direct) run direct 18081 "$c" ;;
            haproxy) run haproxy 18090 "$c" ;;
            router) run router 18099 "$c" ;;
            *) echo "ORDER names direct, haproxy and router, not $target" >&2; exit 1 ;;
        esac
    done
    [ -z "${BASELINE_HOME:-}" ] || run baseline 18098 "$c"
    if [ "$c" = 256 ]; then
        wrk -t2 -c256 -d"${DURATION}s" -s bench/sessions.lua http://127.0.0.1:18099 > /dev/null & LOAD_PID=$!
        sleep $((DURATION / 2))
        echo "router RSS under 256 connections: $(ps -o rss= -p $ROUTER_PID) KiB" | tee -a "$OUT/summary.txt"
        wait "$LOAD_PID"
    fi
done
echo "results in $OUT"
