#!/usr/bin/env bash
# Syscalls per proxied request, the router beside HAProxy on the same job: where the router's
# extra CPU per request goes (issue 12). strace slows both a lot, so only the counts per
# request mean anything, not the rates.
#
# Usage: bench/syscall-census.sh [seconds] [connections]     (defaults 5 s at 32 connections)
# Needs strace, wrk, nginx, haproxy (installed when missing) and a built distribution.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${1:-5}
CONNECTIONS=${2:-32}
ROUTER_HOME=$(ls -d distribution/target/insika-router-*/ 2>/dev/null | grep -v '\.tar' | head -1)
[ -n "$ROUTER_HOME" ] || { echo "build the distribution first: ./mvnw -B -q package -DskipTests" >&2; exit 1; }
for tool in strace wrk nginx haproxy; do
    command -v "$tool" >/dev/null || { apt-get update -qq && apt-get install -y -qq strace wrk nginx-light haproxy; break; }
done

WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
. bench/nginx-backends.sh

cat > "$WORK/haproxy.cfg" <<HAPROXY
global
    maxconn 4096
    nbthread 1
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
haproxy -f "$WORK/haproxy.cfg" & HAPROXY_PID=$!; PIDS+=("$HAPROXY_PID")

sed 's/admin-port: 9091/admin-port: 19099/' "$ROUTER_HOME/conf/insika-router.yaml" > "$WORK/router.yaml"
INSIKA_ROUTER_CONFIG="$WORK/router.yaml" INSIKA_ROUTER_PORT=18099 INSIKA_ROUTER_HOST=127.0.0.1 \
INSIKA_ROUTER_BACKENDS=http://127.0.0.1:18081,http://127.0.0.1:18082,http://127.0.0.1:18083 \
    "$ROUTER_HOME/bin/insika-router" > "$WORK/router.log" 2>&1 & ROUTER_PID=$!; PIDS+=("$ROUTER_PID")
for _ in $(seq 1 150); do curl -fsS -o /dev/null http://127.0.0.1:18099/up 2>/dev/null && break; sleep 0.2; done

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
