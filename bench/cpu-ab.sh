#!/usr/bin/env bash
# The router's own CPU per request, this build against another, in alternating rounds: a
# steadier measure of what a change costs than throughput, which on a shared 2-core machine
# moves by 10% between runs with the scheduler.
#
# Usage: BASELINE_HOME=/path/to/an/unpacked/insika-router bench/cpu-ab.sh [rounds] [seconds] [connections]
#        (defaults 4 rounds of 10 s at 32 connections); ANSWERS=chunked puts Node backends
#        answering in chunks, without a length, in place of nginx's (bench/lib.sh)
# Each round measures both builds, in swapped order every other round, with wrk and
# bench/sessions.lua against three nginx backends; the router's CPU is read from
# /proc/<pid>/stat around each measurement, and the bytes it allocated per request from jstat
# (young collections times the eden, plus what the eden gained). Needs wrk and nginx (bench/proxy-bench.sh installs
# them) and a built distribution. Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

ROUNDS=${1:-4}
DURATION=${2:-10}
CONNECTIONS=${3:-32}
[ -n "${BASELINE_HOME:-}" ] || { echo "name the build to compare with: BASELINE_HOME=..." >&2; exit 1; }
this_build
need wrk nginx
start_backends
start_router "$ROUTER_HOME" 18099 19099; NEW_PID=$ROUTER_PID
start_router "$BASELINE_HOME" 18098 19098; OLD_PID=$ROUTER_PID
await_router 18099
await_router 18098

for port in 18099 18098; do # warm both: C2 is still compiling after a few seconds
    wrk -t2 -c"$CONNECTIONS" -d15s -s bench/sessions.lua "http://127.0.0.1:$port" > /dev/null
done
for round in $(seq 1 "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then
        measure new "$NEW_PID" 18099; measure previous "$OLD_PID" 18098
    else
        measure previous "$OLD_PID" 18098; measure new "$NEW_PID" 18099
    fi
done | tee "$WORK/rounds.txt"
# means over the rounds, and in how many rounds the new build used less CPU per request
awk '{ cpu[$1] += $6; rps[$1] += $4; bytes[$1] += $(NF - 1); n[$1]++; round[$1] = $6 }
     NR % 2 == 0 { better += round["new"] < round["previous"] }
     END { printf "mean: new %.1f us, previous %.1f us per request (%.3fx), requests/s %.3fx; new better in %d rounds of %d\n",
                  cpu["new"] / n["new"], cpu["previous"] / n["previous"], cpu["new"] / cpu["previous"],
                  rps["new"] / rps["previous"], better, n["new"]
           if (bytes["previous"] > 0)
               printf "allocated: new %.0f B, previous %.0f B per request (%.3fx)\n", bytes["new"] / n["new"],
                      bytes["previous"] / n["previous"], bytes["new"] / bytes["previous"] }' "$WORK/rounds.txt"
