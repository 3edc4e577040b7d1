#!/usr/bin/env bash
# The router's own CPU per request, this build against another, in alternating rounds: a
# steadier measure of what a change costs than throughput, which on a shared 2-core machine
# moves by 10% between runs with the scheduler.
#
# Usage: BASELINE_HOME=/path/to/an/unpacked/insika-router bench/cpu-ab.sh [rounds] [seconds] [connections]
#        (defaults 4 rounds of 10 s at 32 connections)
# Each round measures both builds, in swapped order every other round, with wrk and
# bench/sessions.lua against three nginx backends; the router's CPU is read from
# /proc/<pid>/stat around each measurement. Needs wrk and nginx (bench/proxy-bench.sh installs
# them) and a built distribution. Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/jdk.sh

ROUNDS=${1:-4}
DURATION=${2:-10}
CONNECTIONS=${3:-32}
[ -n "${BASELINE_HOME:-}" ] || { echo "name the build to compare with: BASELINE_HOME=..." >&2; exit 1; }
ROUTER_HOME=$(ls -d distribution/target/insika-router-*/ 2>/dev/null | grep -v '\.tar' | head -1)
[ -n "$ROUTER_HOME" ] || { echo "build the distribution first: ./mvnw -B -q package -DskipTests" >&2; exit 1; }
for tool in wrk nginx; do
    command -v "$tool" >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk nginx-light; break; }
done

WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

. bench/nginx-backends.sh

BACKENDS=http://127.0.0.1:18081,http://127.0.0.1:18082,http://127.0.0.1:18083
start() { # home port admin-port: prints the java process id
    sed "s/admin-port: 9091/admin-port: $3/" "$1/conf/insika-router.yaml" > "$WORK/$2.yaml"
    INSIKA_ROUTER_CONFIG="$WORK/$2.yaml" INSIKA_ROUTER_PORT=$2 INSIKA_ROUTER_HOST=127.0.0.1 \
        INSIKA_ROUTER_BACKENDS=$BACKENDS "$1/bin/insika-router" > "$WORK/$2.log" 2>&1 &
    echo $!
}
NEW_PID=$(start "$ROUTER_HOME" 18099 19099); PIDS+=("$NEW_PID")
OLD_PID=$(start "$BASELINE_HOME" 18098 19098); PIDS+=("$OLD_PID")
for port in 18099 18098; do
    for _ in $(seq 1 150); do curl -fsS -o /dev/null "http://127.0.0.1:$port/up" 2>/dev/null && break; sleep 0.2; done
    curl -fsS -o /dev/null "http://127.0.0.1:$port/up" || { echo "router on $port did not start:" >&2
        cat "$WORK/$port.log" >&2; exit 1; }
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

for port in 18099 18098; do # warm both: C2 is still compiling after a few seconds
    wrk -t2 -c"$CONNECTIONS" -d15s -s bench/sessions.lua "http://127.0.0.1:$port" > /dev/null
done
for round in $(seq 1 "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then
        measure new "$NEW_PID" 18099; measure previous "$OLD_PID" 18098
    else
        measure previous "$OLD_PID" 18098; measure new "$NEW_PID" 18099
    fi
done
