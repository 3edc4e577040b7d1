#!/usr/bin/env bash
# Start-up time and idle memory of a built distribution: the time from exec of bin/insika-router
# to its first proxied answer (a 200 from an nginx backend, not the router's own 503 while the
# pool is not ready), over several starts, then the resident size of one router left idle after
# 300 requests.
#
# Usage: bench/startup.sh [starts] [router-home]     (default 5 starts, this build's distribution)
#        INSIKA_ROUTER_JAVA_OPTS=... is passed through, e.g. "-XX:AOTMode=off" to start without
#        the distribution's AOT cache.
# Needs nginx (bench/proxy-bench.sh installs it) and python3. Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
STARTS=${1:-5}
if [ -n "${2:-}" ]; then ROUTER_HOME=$2; else this_build; fi
need nginx
start_backends
for _ in $(seq 1 50); do curl -fsS -o /dev/null http://127.0.0.1:18081/ 2>/dev/null && break; sleep 0.1; done

sed 's/admin-port: 9091/admin-port: 19097/' "$ROUTER_HOME/conf/insika-router.yaml" > "$WORK/router.yaml"
export INSIKA_ROUTER_CONFIG="$WORK/router.yaml" INSIKA_ROUTER_PORT=18097 INSIKA_ROUTER_HOST=127.0.0.1 \
    INSIKA_ROUTER_BACKENDS=$BACKENDS
python3 - "$ROUTER_HOME/bin/insika-router" "$STARTS" "$WORK/router.log" <<'PYTHON'
import os, subprocess, sys, time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, "bench")
from first_answer import answer, cpu_ms, proxied

launcher, starts, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))

times = []
cpus = []
for run in range(starts + 1):
    with open(log, "w") as out:
        began = time.monotonic()
        router = subprocess.Popen([launcher], stdout=out, stderr=subprocess.STDOUT)
        while True:
            if proxied(answer()):
                break
            if router.poll() is not None:
                sys.exit(f"the router exited with {router.returncode}: see {log}")
            time.sleep(0.002)
        took = time.monotonic() - began
        cpu = cpu_ms(router.pid)
        if run == starts:  # the last one stays up to measure idle memory
            for _ in range(300):
                answer()
            time.sleep(3)
            print(f"idle RSS after 300 requests: {rss_kib(router.pid) / 1024:.0f} MiB")
        else:
            times.append(took)
            cpus.append(cpu)
            print(f"start {run + 1}: {took * 1000:.0f} ms to the first proxied answer, {cpu:.0f} ms of CPU")
        router.terminate()
        router.wait()
times.sort()
cpus.sort()
print(f"median of {starts}: {times[len(times) // 2] * 1000:.0f} ms (min {times[0] * 1000:.0f}, max {times[-1] * 1000:.0f}),"
      f" CPU {cpus[len(cpus) // 2]:.0f} ms (min {cpus[0]:.0f}, max {cpus[-1]:.0f})")
PYTHON
