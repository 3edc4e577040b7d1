// A backend as Node's own http module answers: bodies without a Content-Length go chunked,
// which is what Express and most streaming frameworks send. Listens on an ephemeral loopback
// port and prints it as the first line of standard output.
//   GET  /chunked         "hello world" in two writes, chunked
//   GET  /length          "hello world" with a Content-Length
//   GET  /big?bytes=N     N bytes (default 1 MiB), chunked, in 16 KiB writes
//   GET  /events?quiet=MS an event stream: its head, one event, MS of silence, a second event, the end
//   GET  /trailer         a chunked body with a trailer field
//   POST /echo            the request body back, chunked, with the request's framing in headers
//   POST /v1/responses    as /echo: a route the router keys by the body's "user" by default
//   any  /                200 "NAME", as an application's index answers (HAProxy's default check asks OPTIONS /)
const http = require('http');
const name = process.argv[2] || 'node';

const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    res.setHeader('X-Backend', name);
    switch (url.pathname) {
        case '/chunked':
            res.write('hello ');
            res.end('world');
            return;
        case '/length':
            res.setHeader('Content-Length', 11);
            res.end('hello world');
            return;
        case '/big': {
            const total = Number(url.searchParams.get('bytes') || 1048576);
            const piece = Buffer.alloc(16384, 'x');
            let sent = 0;
            while (sent < total) {
                const n = Math.min(piece.length, total - sent);
                res.write(n === piece.length ? piece : piece.subarray(0, n));
                sent += n;
            }
            res.end();
            return;
        }
        case '/events': {
            const quiet = Number(url.searchParams.get('quiet') || 0);
            res.writeHead(200, {'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache'});
            res.flushHeaders();
            if (url.searchParams.get('first') !== 'none') {
                res.write('data: first\n\n');
            }
            setTimeout(() => {
                res.write('data: second\n\n');
                res.end();
            }, quiet);
            return;
        }
        case '/trailer':
            res.setHeader('Trailer', 'X-Checksum');
            res.write('part one, ');
            res.addTrailers({'X-Checksum': 'abc123'});
            res.end('part two');
            return;
        case '/':
            res.end(name);
            return;
        case '/v1/responses':
        case '/echo': {
            const chunks = [];
            req.on('data', c => chunks.push(c));
            req.on('end', () => {
                res.setHeader('X-Request-Framing', req.headers['transfer-encoding'] ? 'chunked'
                    : 'length ' + (req.headers['content-length'] || 'none'));
                const trailers = Object.keys(req.trailers);
                res.setHeader('X-Request-Trailers', trailers.length ? trailers.join(',') : 'none');
                res.end(Buffer.concat(chunks));
            });
            return;
        }
        default:
            res.statusCode = 404;
            res.end('no such path\n');
    }
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => {
    console.log(server.address().port);
});
process.stdin.on('end', () => process.exit(0)); // ends with the test that started it
process.stdin.resume();
