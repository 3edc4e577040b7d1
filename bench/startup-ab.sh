#!/usr/bin/env bash
# Start-up of two or more builds, one start of each in turn (ABAB..., the order reversed every
# other pair), so that the machine's slow and quiet minutes fall on all of them alike: the time
# from exec of bin/insika-router to its first proxied answer, and the CPU it used by then.
# Prints each build's median and mean, and in how many pairs it beat the first build.
#
# Usage: bench/startup-ab.sh pairs home-a[:java-opts] home-b[:java-opts] ...
#        e.g. bench/startup-ab.sh 20 /tmp/before "$(pwd)/distribution/target/insika-router-0.1.0-SNAPSHOT"
#        or one build twice: bench/startup-ab.sh 20 /tmp/x "/tmp/x:-XX:TieredStopAtLevel=1"
# Needs nginx (bench/proxy-bench.sh installs it) and python3. Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
[ $# -ge 3 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
need nginx
start_backends
for _ in $(seq 1 50); do curl -fsS -o /dev/null http://127.0.0.1:18081/ 2>/dev/null && break; sleep 0.1; done
first_home=${2%%:*}
sed 's/admin-port: 9091/admin-port: 19097/' "$first_home/conf/insika-router.yaml" > "$WORK/router.yaml"
export INSIKA_ROUTER_CONFIG="$WORK/router.yaml" INSIKA_ROUTER_PORT=18097 INSIKA_ROUTER_HOST=127.0.0.1 \
    INSIKA_ROUTER_BACKENDS=$BACKENDS
python3 - "$@" <<'PYTHON'
import os, statistics, subprocess, sys, time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, "bench")
from first_answer import answer, cpu_ms, proxied

pairs = int(sys.argv[1])
builds = [(home, opts) for home, _, opts in (arg.partition(":") for arg in sys.argv[2:])]

def start(home, opts):
    env = dict(os.environ, INSIKA_ROUTER_JAVA_OPTS=opts)
    began = time.monotonic()
    router = subprocess.Popen([home + "/bin/insika-router"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env=env)
    while True:
        if proxied(answer()):
            break
        if router.poll() is not None:
            sys.exit(f"{home} exited with {router.returncode}")
        time.sleep(0.002)  # a busy loop here would take a core from the router
    took, cpu = (time.monotonic() - began) * 1000, cpu_ms(router.pid)
    router.terminate()
    router.wait()
    time.sleep(0.2)
    return took, cpu

for build in builds:  # one start each first: the page cache, not the build, would decide it
    start(*build)
results = [[] for _ in builds]
for pair in range(pairs):
    order = range(len(builds)) if pair % 2 == 0 else reversed(range(len(builds)))
    for i in order:
        results[i].append(start(*builds[i]))
for i, (home, opts) in enumerate(builds):
    times = [t for t, _ in results[i]]
    cpus = [c for _, c in results[i]]
    beat = sum(1 for mine, first in zip(results[i], results[0]) if mine[0] < first[0])
    print(f"{i + 1}: {home}{' [' + opts + ']' if opts else ''}: median {statistics.median(times):.0f} ms,"
          f" mean {statistics.mean(times):.0f} (min {min(times):.0f}), CPU median {statistics.median(cpus):.0f} ms"
          + (f"; faster than 1 in {beat} of {pairs}" if i else ""))
PYTHON
