"""Route tokens of insika-router, version 1: the reference implementation in Python.

Spec (docs/route-tokens.md):
  hash: "h1" + base64url(SHA-256(utf8(key))[:16]), unpadded
  hmac: "k1" + base64url(HMAC-SHA-256(secret, utf8(key))[:16]), unpadded

Usage:
  python3 route_token.py KEY                     print the hash token
  python3 route_token.py --secret-file F KEY     print the hmac token (F less one trailing newline)
  python3 route_token.py --check VECTORS.json    verify docs/route-token-vectors.json; exit 1 on a mismatch
Standard library only.
"""
import base64
import hashlib
import hmac
import json
import sys

MIN_SECRET_BYTES = 16


def _encode(digest: bytes) -> str:
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode("ascii")


def hash_token(key: str) -> str:
    """The hash token of key; raises UnicodeEncodeError for a lone surrogate."""
    return "h1" + _encode(hashlib.sha256(key.encode("utf-8")).digest())


def hmac_token(secret: bytes, key: str) -> str:
    """The hmac token of key under secret (at least 16 bytes)."""
    if len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"secret: {len(secret)} bytes (expected: at least {MIN_SECRET_BYTES})")
    return "k1" + _encode(hmac.new(secret, key.encode("utf-8"), hashlib.sha256).digest())


def _read_secret(path: str) -> bytes:
    with open(path, "rb") as f:
        data = f.read()
    if data.endswith(b"\r\n"):
        return data[:-2]
    return data[:-1] if data.endswith(b"\n") else data


def _check(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        vectors = json.load(f)
    secret = vectors["secret"].encode("utf-8")
    failures = 0
    for vector in vectors["vectors"]:
        for form, actual in (("hash", hash_token(vector["key"])), ("hmac", hmac_token(secret, vector["key"]))):
            if actual != vector[form]:
                print(f"{form} of {vector['key']!r}: {actual} (expected: {vector[form]})")
                failures += 1
    print(f"{len(vectors['vectors'])} vectors, {failures} mismatches")
    return 1 if failures else 0


def main(args):
    if len(args) == 2 and args[0] == "--check":
        return _check(args[1])
    if len(args) == 3 and args[0] == "--secret-file":
        print(hmac_token(_read_secret(args[1]), args[2]))
        return 0
    if len(args) == 1:
        print(hash_token(args[0]))
        return 0
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
