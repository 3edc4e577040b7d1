#!/usr/bin/env bash
# CPU per request of four proxies doing bench/sessions.lua's job in one run, in rotating order:
# HAProxy (hashing req.body's $.user), this build of insika-router, and bench/lean-floor twice,
# the least a Java proxy on virtual threads and blocking sockets can do for the same job (not the
# product: no validation, no limits): over a plain ServerSocket ("floor") and inside Helidon's
# listener, reading and writing through Helidon's connection layer ("hfloor"). Router / hfloor
# is what the router's code and Helidon's HTTP/1 above its sockets cost; hfloor / floor is
# Helidon's connection layer; floor / HAProxy is the JVM and its socket model against C and epoll.
#
# Usage: bench/cpu-floor.sh [rounds] [seconds] [connections]   (defaults 4 rounds of 10 s, 32)
# Needs wrk, nginx, haproxy (bench/proxy-bench.sh installs them) and a built distribution.
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

for port in 18090 18096 18095; do
    for _ in $(seq 1 150); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
done

for port in 18099 18096 18095; do # warm the JITs: C2 is still compiling after a few seconds
    wrk -t2 -c"$CONNECTIONS" -d15s -s bench/sessions.lua "http://127.0.0.1:$port" > /dev/null
done
for round in $(seq 1 "$ROUNDS"); do
    case $((round % 4)) in
        1) measure haproxy "$HAPROXY_PID" 18090; measure router "$ROUTER_PID" 18099; measure floor "$FLOOR_PID" 18096
           measure hfloor "$HFLOOR_PID" 18095 ;;
        2) measure router "$ROUTER_PID" 18099; measure floor "$FLOOR_PID" 18096; measure hfloor "$HFLOOR_PID" 18095
           measure haproxy "$HAPROXY_PID" 18090 ;;
        3) measure floor "$FLOOR_PID" 18096; measure hfloor "$HFLOOR_PID" 18095; measure haproxy "$HAPROXY_PID" 18090
           measure router "$ROUTER_PID" 18099 ;;
        0) measure hfloor "$HFLOOR_PID" 18095; measure haproxy "$HAPROXY_PID" 18090; measure router "$ROUTER_PID" 18099
           measure floor "$FLOOR_PID" 18096 ;;
    esac
done
