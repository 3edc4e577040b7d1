# A backend as Python's http.server answers by default: HTTP/1.0, no Content-Length, the body
# ended by closing the connection. Listens on an ephemeral loopback port and prints it as the
# first line of standard output; exits when its standard input closes.
#   GET /lines?count=N   N lines "line I\n", one write each, close-delimited
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class Handler(BaseHTTPRequestHandler):
    # protocol_version stays the default, HTTP/1.0: the connection closes after each answer

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path != "/lines":
            self.send_error(404)
            return
        count = int(parse_qs(url.query).get("count", ["1"])[0])
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        for i in range(count):
            self.wfile.write(b"line %d\n" % i)

    def log_message(self, format, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
