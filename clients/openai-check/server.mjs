// A server of OpenAI's Responses API that says who it is: node server.mjs NAME. Listens on a
// free loopback port and prints "listening PORT". POST /v1/responses answers a response object
// whose output text names this server and the request's user, and how many requests of that user
// it has seen; with "stream": true it sends the same as Server-Sent Events, a delta at a time,
// each after a pause, as a model would.
import { createServer } from 'node:http';

const name = process.argv[2];
const seen = new Map();

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function response(id, text, status) {
  return {
    id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model: 'insika-1',
    output: status === 'completed' ? [{
      type: 'message', id: `msg_${id}`, status: 'completed', role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    }] : [],
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

createServer(async (req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/responses') {
    res.writeHead(404).end();
    return;
  }
  const request = await body(req);
  const count = (seen.get(request.user) ?? 0) + 1;
  seen.set(request.user, count);
  const text = `${name} ${request.user} ${count}`;
  const id = `resp_${name}_${count}`;
  if (!request.stream) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(response(id, text, 'completed')));
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  let sequence = 0;
  const send = (event) => res.write(`event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`);
  send({ type: 'response.created', response: response(id, '', 'in_progress') });
  for (const word of text.split(' ')) {
    await sleep(150);
    send({ type: 'response.output_text.delta', item_id: `msg_${id}`, output_index: 0, content_index: 0, delta: `${word} `, sent_at: Date.now() });
  }
  send({ type: 'response.completed', response: response(id, text, 'completed') });
  res.end();
}).listen(0, '127.0.0.1', function () {
  console.log(`listening ${this.address().port}`);
});
