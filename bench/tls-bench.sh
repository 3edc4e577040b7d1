#!/usr/bin/env bash
# HTTPS and HTTP/2 side by side: HAProxy and insika-router terminating TLS with the same
# certificate (ECDSA P-256, made here), doing the benchmark job of bench/proxy-bench.sh in front
# of three nginx backends, in one run. For each: requests/s and the proxy's CPU per request.
#
#   https   wrk over TLS with HTTP/1.1, bench/sessions.lua (1000 sessions), kept connections
#   h2      h2load over TLS (ALPN h2), one stream at a time per connection, one session's body
#   h2c     h2load on a plain port with prior knowledge (the router only: HAProxy's h2c
#           frontend would need a second listener), same body
#
# Usage: bench/tls-bench.sh [seconds] [connections]      (defaults 10 and 32)
# Needs wrk, h2load (nghttp2-client), nginx, haproxy and openssl (installed when missing), and a
# built distribution (./mvnw -B -q package -DskipTests). Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
DURATION=${1:-10}
CONNECTIONS=${2:-32}
this_build
need wrk nginx haproxy openssl
command -v h2load >/dev/null || { apt-get update -qq; apt-get install -y -qq nghttp2-client; }
start_backends

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$WORK/tls.key" -out "$WORK/tls.crt" 2>/dev/null
cat "$WORK/tls.crt" "$WORK/tls.key" > "$WORK/tls.pem"
start_haproxy 2 "ssl crt $WORK/tls.pem alpn h2,http/1.1"
INSIKA_ROUTER_TLS_CERTIFICATE="$WORK/tls.crt" INSIKA_ROUTER_TLS_PRIVATE_KEY="$WORK/tls.key" \
    start_router "$ROUTER_HOME" 18099 19099; TLS_PID=$ROUTER_PID
start_router "$ROUTER_HOME" 18097 19097; PLAIN_PID=$ROUTER_PID
for _ in $(seq 1 150); do curl -fsSk -o /dev/null https://127.0.0.1:18099/up 2>/dev/null && break; sleep 0.2; done
await_router 18097

printf '{"model":"insika-1","user":"session-7","input":"hello","pad":"%s"}' "$(printf 'x%.0s' $(seq 1 200))" \
    > "$WORK/body.json"

https() { # port
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s bench/sessions.lua "https://127.0.0.1:$1" | awk '/requests in/ {print $1}'
}
h2() { # scheme port
    h2load -t2 -c"$CONNECTIONS" -m1 -D"$DURATION" -d "$WORK/body.json" -H 'content-type: application/json' \
        "$1://127.0.0.1:$2/v1/responses" | awk '/^requests:/ {print $8}'
}
# name pid how args...: the load, then the process's CPU per request over it
measure_with() {
    local name=$1 pid=$2 before after requests
    shift 2
    "$@" > /dev/null # warm-up, also of the TLS session caches and the JIT
    before=$(ticks "$pid")
    requests=$("$@")
    after=$(ticks "$pid")
    echo "$before $after" | awk -v n="$name" -v r="$requests" -v hz="$(getconf CLK_TCK)" -v d="$DURATION" \
        '{ u = ($3 - $1) / hz * 1e6 / r; s = ($4 - $2) / hz * 1e6 / r
           printf "%-16s %9d req  %8.0f req/s  %6.1f us CPU/request  (user %5.1f, kernel %5.1f)\n", n, r, r / d, u + s, u, s }'
}

measure_with "haproxy https" "$HAPROXY_PID" https 18090
measure_with "router https" "$TLS_PID" https 18099
measure_with "haproxy h2" "$HAPROXY_PID" h2 https 18090
measure_with "router h2" "$TLS_PID" h2 https 18099
measure_with "router h2c" "$PLAIN_PID" h2 http 18097
