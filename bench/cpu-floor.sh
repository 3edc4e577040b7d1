#!/usr/bin/env bash
# CPU per request of five proxies doing bench/sessions.lua's job in one run, in rotating order:
# HAProxy (hashing req.body's $.user), this build of insika-router, and three measuring sticks
# from bench/lean-floor (not the product: no validation, no limits): the least a Java proxy on
# virtual threads and blocking sockets can do for the same job, over a plain ServerSocket
# ("floor") and inside Helidon's listener, reading and writing through Helidon's connection layer
# ("hfloor"); and the same job on two event loops over non-blocking channels that stay
# registered with epoll ("efloor", HAProxy's model in plain JDK code), and those loops behind
# Helidon's listener ("hefloor": Helidon accepts, the loops own each channel after its first
# bytes; what issue 28's next step would give). Router / hfloor is what the
# router's code and Helidon's HTTP/1 above its sockets cost; hfloor / floor is Helidon's
# connection layer; floor / efloor is what blocking sockets on virtual threads cost (an empty
# read and an epoll_ctl per wait); efloor / HAProxy is the JVM against C; hefloor / efloor is
# what keeping Helidon's listener in front of the loops costs.
#
# Usage: bench/cpu-floor.sh [rounds] [seconds] [connections]   (defaults 4 rounds of 10 s, 32); prints each
# measurement, then the means over the rounds against HAProxy and the router against hfloor.
# Needs wrk, nginx, haproxy (bench/proxy-bench.sh installs them), a built distribution and Java 22+
# (the floors are source files launched together, bench/lean-floor/FloorJob.java with each).
# Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${1:-4}
DURATION=${2:-10}
CONNECTIONS=${3:-32}
this_build
need wrk nginx haproxy
start_backends
start_haproxy 2
start_router "$ROUTER_HOME" 18099 19099

await_router 18099
# The floor runs with the router's own JVM options, so the JVMs differ only in the code they run:
# those bin/insika-router chose from conf/jvm.options for this Java, read from the router's
# command line (it execs java), less its system properties and its AOT cache (the router's).
FLOOR_OPTS=$(tr '\0' '\n' < "/proc/$ROUTER_PID/cmdline" | sed -n '2,/^-cp$/p' \
    | grep -v -e '^-cp$' -e '^-D' -e '^-XX:AOTCache=' | tr '\n' ' ')
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $FLOOR_OPTS -cp "$ROUTER_HOME/lib/*" bench/lean-floor/LeanFloor.java 18096 18081 18082 18083 \
    > "$WORK/floor.log" 2>&1 & FLOOR_PID=$!; PIDS+=($FLOOR_PID)
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $FLOOR_OPTS -cp "$ROUTER_HOME/lib/*" bench/lean-floor/LeanFloor.java --helidon 18095 \
    18081 18082 18083 > "$WORK/hfloor.log" 2>&1 & HFLOOR_PID=$!; PIDS+=($HFLOOR_PID)

# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $FLOOR_OPTS bench/lean-floor/EventFloor.java 2 18094 18081 18082 18083 \
    > "$WORK/efloor.log" 2>&1 & EFLOOR_PID=$!; PIDS+=($EFLOOR_PID)

# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $FLOOR_OPTS -cp "$ROUTER_HOME/lib/*" bench/lean-floor/HelidonEventFloor.java 2 18093 \
    18081 18082 18083 > "$WORK/hefloor.log" 2>&1 & HEFLOOR_PID=$!; PIDS+=($HEFLOOR_PID)

for port in 18090 18096 18095 18094 18093; do
    for _ in $(seq 1 150); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
done

for port in 18099 18096 18095 18094 18093; do # warm the JITs: C2 is still compiling after a few seconds
    wrk -t2 -c"$CONNECTIONS" -d15s -s bench/sessions.lua "http://127.0.0.1:$port" > /dev/null
done
# each round starts one target later, so every target is measured in every slot
TARGETS=("haproxy $HAPROXY_PID 18090" "router $ROUTER_PID 18099" "floor $FLOOR_PID 18096" "hfloor $HFLOOR_PID 18095"
         "efloor $EFLOOR_PID 18094" "hefloor $HEFLOOR_PID 18093")
for round in $(seq 1 "$ROUNDS"); do
    for slot in $(seq 0 $((${#TARGETS[@]} - 1))); do
        # shellcheck disable=SC2086
        measure ${TARGETS[$(((round - 1 + slot) % ${#TARGETS[@]}))]}
    done
done | tee "$WORK/rounds.txt"
# means over the rounds, each target against HAProxy, and the router against its own listener (hfloor)
awk '{ cpu[$1] += $6; rps[$1] += $4; n[$1]++ }
     END { printf "\nmeans over %d rounds of %d s at %d connections:\n", n["router"], '"$DURATION"', '"$CONNECTIONS"'
           split("haproxy router floor hfloor efloor hefloor", order, " ")
           for (i = 1; i <= 6; i++) {
               t = order[i]; c = cpu[t] / n[t]; r = rps[t] / n[t]
               printf "%-8s %6.1f us CPU/request (%.2fx HAProxy)  %8.0f req/s (%.2fx HAProxy)\n", t, c,
                      c / (cpu["haproxy"] / n["haproxy"]), r, r / (rps["haproxy"] / n["haproxy"])
           }
           printf "router / hfloor: %.2fx CPU per request\n", cpu["router"] / cpu["hfloor"] }' "$WORK/rounds.txt"
