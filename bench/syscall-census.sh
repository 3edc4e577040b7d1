#!/usr/bin/env bash
# Syscalls and context switches per proxied request, the router beside HAProxy, hfloor (the
# least a proxy can do inside Helidon's listener) and efloor (the same job on one event loop,
# HAProxy's model in plain JDK code) and hefloor (those loops behind Helidon's listener), all from
# bench/lean-floor: where the router's extra kernel
# time per request goes (issue 12). Counted with perf's tracepoints in the
# kernel, so the proxies run at full speed while counted: an empty read (EAGAIN) happens only
# when an answer is not there yet, so how many there are depends on that speed (strace, which
# this script used before, slowed both ~3x and hid most of them). The process's CPU per
# request is read over the same window.
#
# Usage: bench/syscall-census.sh [seconds] [connections]     (defaults 10 s at 32 connections)
# Needs perf (Debian's linux-perf), wrk, nginx, haproxy (installed when missing), root (for the
# tracepoints), a built distribution and Java 22+ (for bench/lean-floor). Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

DURATION=${1:-10}
CONNECTIONS=${2:-32}
this_build
need wrk nginx haproxy
command -v perf > /dev/null || { apt-get update -qq; apt-get install -y -qq linux-perf; }
start_backends
start_haproxy 1
start_router "$ROUTER_HOME" 18099 19099
await_router 18099
FLOOR_OPTS=$(tr '\0' '\n' < "/proc/$ROUTER_PID/cmdline" | sed -n '2,/^-cp$/p' \
    | grep -v -e '^-cp$' -e '^-D' -e '^-XX:AOTCache=' | tr '\n' ' ')
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $FLOOR_OPTS -cp "$ROUTER_HOME/lib/*" bench/lean-floor/LeanFloor.java --helidon 18095 \
    18081 18082 18083 > "$WORK/hfloor.log" 2>&1 & HFLOOR_PID=$!; PIDS+=($HFLOOR_PID)
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $FLOOR_OPTS bench/lean-floor/EventFloor.java 1 18094 18081 18082 18083 \
    > "$WORK/efloor.log" 2>&1 & EFLOOR_PID=$!; PIDS+=($EFLOOR_PID)
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $FLOOR_OPTS -cp "$ROUTER_HOME/lib/*" bench/lean-floor/HelidonEventFloor.java 1 18093 \
    18081 18082 18083 > "$WORK/hefloor.log" 2>&1 & HEFLOOR_PID=$!; PIDS+=($HEFLOOR_PID)
for port in 18095 18094 18093; do
    for _ in $(seq 1 150); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
done

SYSCALLS="read write recvfrom sendto epoll_ctl epoll_wait futex"
census() { # name pid port
    wrk -t2 -c"$CONNECTIONS" -d10s -s bench/sessions.lua "http://127.0.0.1:$3" > /dev/null # warm
    local events=(-e raw_syscalls:sys_enter -e raw_syscalls:sys_exit --filter 'ret == -11'
                  -e context-switches -e cpu-migrations) name line
    for name in $SYSCALLS; do events+=(-e "syscalls:sys_enter_$name"); done
    perf stat -x, -o "$WORK/$1.perf" "${events[@]}" -p "$2" -- sleep "$DURATION" & local counter=$!
    line=$(measure "$@") # the wrk run counted, and the CPU per request over it (bench/lib.sh)
    wait "$counter"
    echo "== $line; per request:"
    # perf -x, lines: count,unit,event,...; sys_exit is counted only where it returned EAGAIN (-11)
    awk -F, -v r="$(awk '{print $2}' <<< "$line")" '$3 != "" && $1 ~ /^[0-9]+$/ {
            name = $3; sub(/^(raw_)?syscalls:sys_enter_?/, "", name)
            if ($3 == "raw_syscalls:sys_enter") name = "all syscalls"
            if ($3 == "raw_syscalls:sys_exit") name = "  of them EAGAIN"
            if ($1 / r >= 0.005) printf "  %-18s %6.2f\n", name, $1 / r }' "$WORK/$1.perf"
}
census router "$ROUTER_PID" 18099
census hfloor "$HFLOOR_PID" 18095
census efloor "$EFLOOR_PID" 18094
census hefloor "$HEFLOOR_PID" 18093
census haproxy "$HAPROXY_PID" 18090
