"""Shared by bench/startup.sh and bench/startup-ab.sh: how a start is timed."""
import os
import socket

PORT = 18097
REQUEST = b"GET /startup HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def answer():
    """The whole answer to one request, or None while nothing listens."""
    try:
        with socket.create_connection(("127.0.0.1", PORT), timeout=2) as s:
            s.sendall(REQUEST)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
            return data
    except OSError:
        return None


def proxied(got):
    """A 200 from an nginx backend, not the router's own 503 while its pool is not ready."""
    return bool(got) and got.startswith(b"HTTP/1.1 200") and b"backend-" in got


def cpu_ms(pid):
    """User plus kernel CPU time the process has used so far (the launcher execs java: same pid)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
