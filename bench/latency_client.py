"""Used by bench/latency-matrix.sh: times whole answers of every shape bench/latency-matrix.sh
names, from targets that all reach the same backend, and prints the markdown table of what each
proxy adds over going direct.

    python3 bench/latency_client.py REQUESTS ROUNDS direct=PORT name=PORT [name=PORT ...]

Per cell (answer shape x client pattern) each target answers REQUESTS requests, in ROUNDS rounds
that rotate the targets' order, so a load that comes and goes on the machine falls on all of
them. A request is timed from its first byte sent (from the connect, for a new connection per
request) to the last byte of its answer, read as RFC 9112 frames it. Loopback only.
"""
import socket
import sys
import time

# (row label, path, HTTP version): what bench/latency-matrix.sh's header lists
SHAPES = [
    ("Content-Length, 11 B", "/length", "1.1"),
    ("chunked, 11 B in 2 writes", "/chunked", "1.1"),
    ("event stream, 2 events", "/events?quiet=0", "1.1"),
    ("chunked 1 MiB, 16 KiB writes", "/big", "1.1"),
    ("HTTP/1.0 client, Content-Length", "/length", "1.0"),
]
PATTERNS = [("keep-alive", True), ("new connection", False)]
TIMEOUT = 5.0
WARM = 5  # answers per kept connection before the timing starts
CELL_LIMIT = 30.0  # seconds one target may take for one cell; past it the cell has fewer answers


class Answer(Exception):
    """The target gave no whole answer."""


class Connection:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.buf = bytearray()
        self.open = True

    def close(self):
        self.sock.close()
        self.open = False

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError
        self.buf += data

    def line(self):
        while True:
            end = self.buf.find(b"\r\n")
            if end >= 0:
                line = bytes(self.buf[:end])
                del self.buf[:end + 2]
                return line
            self._fill()

    def exactly(self, n):
        while len(self.buf) < n:
            self._fill()
        del self.buf[:n]

    def to_end(self):
        try:
            while True:
                self._fill()
                self.buf.clear()
        except EOFError:
            pass

    def answer(self, version):
        """Reads one whole answer; whether the connection may carry another."""
        status = self.line()
        if not status.startswith(b"HTTP/1.") or status[9:12] != b"200":
            raise Answer(status.decode("latin-1"))
        fields = {}
        while (line := self.line()):
            name, _, value = line.partition(b":")
            fields[name.strip().lower()] = value.strip().lower()
        keep = fields.get(b"connection") != b"close" and (version == "1.1" or fields.get(b"connection") == b"keep-alive")
        if fields.get(b"transfer-encoding") == b"chunked":
            while (size := int(self.line().split(b";")[0], 16)) > 0:
                self.exactly(size + 2)
            while self.line():
                pass
        elif b"content-length" in fields:
            self.exactly(int(fields[b"content-length"]))
        else:
            self.to_end()
            keep = False
        return keep


def request(path, version, port, keep_alive):
    head = f"GET {path} HTTP/{version}\r\nHost: 127.0.0.1:{port}\r\n"
    if version == "1.0" and keep_alive:
        head += "Connection: keep-alive\r\n"
    return (head + "\r\n").encode("ascii")


class Timer:
    """One target's requests for one cell, on one kept connection or a new one each."""

    def __init__(self, port, path, version, keep_alive):
        self.port, self.version, self.keep_alive = port, version, keep_alive
        self.bytes = request(path, version, port, keep_alive)
        self.conn = None
        self.times, self.failures, self.spent = [], 0, 0.0

    def one(self):
        started = time.perf_counter()
        try:
            if not self.keep_alive or self.conn is None or not self.conn.open:
                if self.conn is not None:
                    self.conn.close()
                self.conn = Connection(self.port)
            self.conn.sock.sendall(self.bytes)
            keep = self.conn.answer(self.version)
            elapsed = time.perf_counter() - started
            if not keep or not self.keep_alive:
                self.conn.close()
            return elapsed
        except (OSError, EOFError, ValueError, Answer) as e:
            self.failures += 1
            self.last_error = repr(e)
            if self.conn is not None:
                self.conn.close()
            return None
        finally:
            self.spent += time.perf_counter() - started

    def warm(self):
        for _ in range(WARM):
            self.one()
        self.failures = 0

    def run(self, count):
        for _ in range(count):
            if self.spent > CELL_LIMIT or self.failures >= 3 and not self.times:
                return
            elapsed = self.one()
            if elapsed is not None:
                self.times.append(elapsed)

    def close(self):
        if self.conn is not None and self.conn.open:
            self.conn.close()


def percentile(times, p):
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def ms(seconds):
    return f"{seconds * 1000:.2f}"


def added(timer, direct):
    if not timer.times:
        return f"no answer ({timer.failures} failed: {getattr(timer, 'last_error', '')[:40]})"
    text = (f"+{ms(percentile(timer.times, 50) - percentile(direct.times, 50))} / "
            f"+{ms(percentile(timer.times, 99) - percentile(direct.times, 99))}").replace("+-", "-")
    if timer.failures:
        text += f" ({timer.failures} failed)"
    return text


def main():
    requests, rounds = int(sys.argv[1]), int(sys.argv[2])
    targets = [(name, int(port)) for name, port in (arg.split("=") for arg in sys.argv[3:])]
    names = [name for name, _ in targets]
    print("| answer shape | client | direct p50 / p99 (ms) | "
          + " | ".join(f"{name} adds p50 / p99 (ms)" for name in names[1:]) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in names[1:]) + " |")
    for label, path, version in SHAPES:
        for pattern, keep_alive in PATTERNS:
            timers = [Timer(port, path, version, keep_alive) for _, port in targets]
            for timer in timers:
                timer.warm()
            for r in range(rounds):
                for i in range(len(timers)):
                    timers[(r + i) % len(timers)].run(requests // rounds)
            for timer in timers:
                timer.close()
            direct = timers[0]
            if not direct.times:
                raise SystemExit(f"the backend itself did not answer {path}: {getattr(direct, 'last_error', '')}")
            print(f"| {label} | {pattern} | {ms(percentile(direct.times, 50))} / {ms(percentile(direct.times, 99))} | "
                  + " | ".join(added(timer, direct) for timer in timers[1:]) + " |", flush=True)


if __name__ == "__main__":
    main()
