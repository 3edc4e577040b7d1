#!/usr/bin/env bash
# Syscalls per proxied request, the router beside HAProxy on the same job: where the router's
# extra CPU per request goes (issue 12). strace slows both a lot, so only the counts per
# request mean anything, not the rates.
#
# Usage: bench/syscall-census.sh [seconds] [connections]     (defaults 5 s at 32 connections)
# Needs strace, wrk, nginx, haproxy (installed when missing) and a built distribution.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

DURATION=${1:-5}
CONNECTIONS=${2:-32}
this_build
need strace wrk nginx haproxy
start_backends
start_haproxy 1
start_router "$ROUTER_HOME" 18099 19099
await_router 18099

census() { # name pid port
    wrk -t1 -c"$CONNECTIONS" -d10s -s bench/sessions.lua "http://127.0.0.1:$3" > /dev/null # warm
    strace -c -f -q -p "$2" -o "$WORK/$1.strace" & local tracer=$!
    sleep 1
    local requests
    requests=$(wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" -s bench/sessions.lua "http://127.0.0.1:$3" \
        | awk '/requests in/ {print $1}')
    kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
    echo "== $1: $requests requests; syscalls per request (calls, errors)"
    awk -v n="$requests" '$NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ && $NF != "total" {
            errors = (NF == 6) ? $5 : 0; printf "  %-16s %6.2f %6.2f\n", $NF, $4 / n, errors / n }' \
        "$WORK/$1.strace" | sort -k2 -rn | head -12
}
census router "$ROUTER_PID" 18099
census haproxy "$HAPROXY_PID" 18090
