"""owner(key, backends) of insika-router's ketama and rendezvous strategies: the reference in Python.

Spec: docs/strategies.md. backends is a list of (id, weight) pairs; the id is what the router
hashes (host:port, or the placement id given to it). Ketama is its default mode (compat: none).

Usage:
  python3 placement.py --check VECTORS.json     verify docs/placement-vectors.json; exit 1 on a mismatch
Ketama needs the standard library only; rendezvous needs the xxhash package (Debian:
python3-xxhash; PyPI: xxhash).
"""
import bisect
import hashlib
import json
import math
import sys

MASK = (1 << 64) - 1


def ketama_owner(key, backends):
    """The owner of key on libketama's continuum, 40 x weight digests of 4 points per backend."""
    if not backends:
        return None
    if len(backends) == 1:
        return backends[0][0]
    points = []
    for backend_id, weight in sorted(backends):
        for k in range(40 * weight):
            digest = hashlib.md5(f"{backend_id}-{k}".encode("utf-8")).digest()
            for h in range(4):
                points.append((int.from_bytes(digest[4 * h:4 * h + 4], "little"), backend_id))
    points.sort()  # by point, then by the smaller id on equal points
    key_hash = int.from_bytes(hashlib.md5(key.encode("utf-8")).digest()[:4], "little")
    i = bisect.bisect_left(points, (key_hash, ""))
    return points[i % len(points)][1]


def _fmix64(k):
    k ^= k >> 33
    k = (k * 0xff51afd7ed558ccd) & MASK
    k ^= k >> 33
    k = (k * 0xc4ceb9fe1a85ec53) & MASK
    return k ^ (k >> 33)


def rendezvous_owner(key, backends):
    """The backend with the highest -weight / ln(h) score for key."""
    import xxhash  # only rendezvous needs it
    if not backends:
        return None
    key_hash = xxhash.xxh64_intdigest(key.encode("utf-8"))
    best = None
    for backend_id, weight in sorted(backends):
        x = _fmix64(key_hash ^ xxhash.xxh64_intdigest(backend_id.encode("utf-8")))
        rank = x >> 11
        score = -weight / math.log((rank + 0.5) * 2.0 ** -53)
        # highest score, then the larger rank, then the smaller id (sorted: the first wins a full tie)
        if best is None or (score, rank) > best[0]:
            best = ((score, rank), backend_id)
    return best[1]


def _check(path):
    with open(path, encoding="utf-8") as f:
        vectors = json.load(f)
    count = failures = 0
    for vector_set in vectors["sets"]:
        backends = [(b["id"], b["weight"]) for b in vector_set["backends"]]
        for owner in vector_set["owners"]:
            for strategy, function in (("ketama", ketama_owner), ("rendezvous", rendezvous_owner)):
                count += 1
                actual = function(owner["key"], backends)
                if actual != owner[strategy]:
                    failures += 1
                    print(f"{vector_set['name']} {strategy} {owner['key']!r}: {actual} (expected: {owner[strategy]})")
    print(f"{count} owners, {failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(_check(sys.argv[2]))
    print(__doc__.strip(), file=sys.stderr)
    sys.exit(2)
