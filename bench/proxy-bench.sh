#!/usr/bin/env bash
# Side-by-side throughput of: nginx backends directly, HAProxy hashing req.body's $.user, and
# insika-router, all on this machine, in one run (compare the ratios, not the absolute numbers).
#
# Usage: bench/proxy-bench.sh [duration-seconds]      (default 10)
#        ORDER="router haproxy direct" bench/proxy-bench.sh   measures the targets in that order
#        (default "direct haproxy router"): later slots run on a warmer machine, so vary it
#        BASELINE_HOME=/path/to/an/unpacked/insika-router bench/proxy-bench.sh
#        also measures that build (say, the last commit's) beside this one, as "baseline": the way
#        to see what a change costs on a noisy machine. It runs last unless ORDER names it
#        ("baseline router haproxy direct"); each target gets 3 s of load right before it is
#        measured, but swap the two between runs all the same before reading router / baseline
#        as a cost.
#        TLS=1 bench/proxy-bench.sh   then also HTTPS and HTTP/2 beside HAProxy with the same
#        certificate (bench/tls-bench.sh: wrk over TLS, h2load over ALPN h2 and h2c), into the
#        same results directory
# Needs: wrk, nginx, haproxy (Debian packages; installed when missing) and a built distribution
# (./mvnw -B -q package -DskipTests). Traffic stays on 127.0.0.1. Results: bench/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
DURATION=${1:-10}
OUT=bench/results/$(date +%Y%m%d-%H%M%S)
mkdir -p "$OUT"
this_build
need wrk nginx haproxy
start_backends
start_haproxy 2
start_router "$ROUTER_HOME" 18099 19099; MAIN_PID=$ROUTER_PID
await_router 18099
if [ -n "${BASELINE_HOME:-}" ]; then
    start_router "$BASELINE_HOME" 18098 19098
    await_router 18098
fi

run() { # name port connections
    # 3 s of the same load first: without it the target measured first after the warm-ups read
    # ~10% low at c32, whichever it was (session 9), so the order alone moved the comparison
    wrk -t2 -c"$3" -d3s -s bench/sessions.lua "http://127.0.0.1:$2" > /dev/null
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
            baseline) [ -n "${BASELINE_HOME:-}" ] || { echo "ORDER names baseline: set BASELINE_HOME" >&2; exit 1; }
                      run baseline 18098 "$c" ;;
            *) echo "ORDER names direct, haproxy, router and baseline, not $target" >&2; exit 1 ;;
        esac
    done
    case " ${ORDER:-} " in
        *" baseline "*) ;;
        *) [ -z "${BASELINE_HOME:-}" ] || run baseline 18098 "$c" ;;
    esac
    if [ "$c" = 256 ]; then
        wrk -t2 -c256 -d"${DURATION}s" -s bench/sessions.lua http://127.0.0.1:18099 > /dev/null & LOAD_PID=$!
        sleep $((DURATION / 2))
        echo "router RSS under 256 connections: $(ps -o rss= -p "$MAIN_PID") KiB" | tee -a "$OUT/summary.txt"
        wait "$LOAD_PID"
    fi
done
cp "$WORK"/*.log "$OUT"/
if [ "${TLS:-}" = 1 ]; then
    # it starts its own backends and proxies on the same ports: stop this run's first
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    PIDS=()
    bench/tls-bench.sh "$DURATION" | tee "$OUT/tls.txt"
fi
echo "results in $OUT"
