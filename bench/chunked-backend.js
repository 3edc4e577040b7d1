// A backend that answers as Node's http server does by default: no length, the body in two
// writes, so two chunks (Python's servers answer streaming bodies alike). One per port given.
// Used by bench/lib.sh's start_backends when ANSWERS=chunked.
const http = require('http');
for (const port of process.argv.slice(2)) {
  http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json');
      res.write('{"backend":"');
      res.end('backend-' + port + '"}\n');
    });
  }).listen(Number(port), '127.0.0.1');
}
