#!/usr/bin/env bash
# The latency each proxy adds over going direct to the backend, per answer shape and client
# pattern, for insika-router and HAProxy in one run, in front of the same backend: Node's http
# module (router-server/src/test/resources/interop/node-backend.js), which answers every shape
# as streaming frameworks do:
#   Content-Length (11 B)            GET /length
#   chunked (11 B in two writes)     GET /chunked
#   an event stream (two events)     GET /events?quiet=0
#   a 1 MiB body (16 KiB writes)     GET /big
#   an HTTP/1.0 client               GET /length as HTTP/1.0 (keep-alive asked for when kept)
# each asked one request at a time on one kept connection, and on a new connection per request.
# bench/latency_client.py times each answer whole (first byte sent, or the connect, to its last
# byte) and prints the markdown table: the direct median and p99, and what each proxy adds to
# them. Requests go one at a time: this is what a proxy adds to one answer, not under load.
#
# Usage: bench/latency-matrix.sh [requests-per-cell] [rounds]   (defaults 300 and 5)
#        BASELINE_HOME=/path/to/an/unpacked/insika-router bench/latency-matrix.sh
#        also measures that build (say, an older commit's) as "baseline", in the same rounds.
# Needs node, haproxy, wrk (installed when missing: apt-get) and a built distribution
# (./mvnw -B -q package -DskipTests). Traffic stays on 127.0.0.1: the router on 18110 (admin
# 18111), the baseline on 18113 (admin 18114), HAProxy on 18112, the backend on a port of its
# choosing. Each cell takes at most 30 s per target. Results: bench/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
REQUESTS=${1:-300}
ROUNDS=${2:-5}
OUT=bench/results/latency-$(date +%Y%m%d-%H%M%S)
mkdir -p "$OUT"
this_build
need wrk haproxy
command -v node >/dev/null || { echo "node is missing: apt-get install nodejs" >&2; exit 1; }
scratch

# the backend prints its port first, and ends when its standard input does
mkfifo "$WORK/node-in"
node router-server/src/test/resources/interop/node-backend.js node < "$WORK/node-in" > "$WORK/node.port" &
PIDS+=($!)
exec 3> "$WORK/node-in"
for _ in $(seq 1 50); do [ -s "$WORK/node.port" ] && break; sleep 0.1; done
NODE_PORT=$(head -1 "$WORK/node.port")
[ -n "$NODE_PORT" ] || { echo "the node backend did not start" >&2; exit 1; }
BACKENDS=http://127.0.0.1:$NODE_PORT

cat > "$WORK/haproxy.cfg" <<HAPROXY
global
    maxconn 1024
    nbthread 1
defaults
    mode http
    timeout connect 10s
    timeout client 30s
    timeout server 30s
    option http-keep-alive
frontend front
    bind 127.0.0.1:18112
    default_backend node
backend node
    server node 127.0.0.1:$NODE_PORT
HAPROXY
haproxy -f "$WORK/haproxy.cfg" > "$WORK/haproxy.log" 2>&1 & PIDS+=($!)

start_router "$ROUTER_HOME" 18110 18111
TARGETS=(direct=$NODE_PORT router=18110 haproxy=18112)
if [ -n "${BASELINE_HOME:-}" ]; then
    start_router "$BASELINE_HOME" 18113 18114
    TARGETS+=(baseline=18113)
fi
await_router 18110
[ -z "${BASELINE_HOME:-}" ] || await_router 18113

# warm the routers' JIT on each shape (C2 is still compiling after a few seconds); one
# connection, as the timed part sends one request at a time
for port in 18110 ${BASELINE_HOME:+18113}; do
    for path in /length /chunked "/events?quiet=0" /big; do
        wrk -t1 -c1 -d2s "http://127.0.0.1:$port$path" > /dev/null
    done
done

{
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);" \
        "$REQUESTS requests per cell and target in $ROUNDS rounds; $(node --version)," \
        "$(haproxy -v | head -1 | cut -d' ' -f1-3), router $(basename "$ROUTER_HOME")${BASELINE_HOME:+, baseline $BASELINE_HOME}"
    echo
    python3 bench/latency_client.py "$REQUESTS" "$ROUNDS" "${TARGETS[@]}"
} | tee "$OUT/table.md"
cp "$WORK"/*.log "$OUT"/
echo "results in $OUT"
