// The OpenAI Node SDK as an application uses it: node client.mjs BASE_URL. Twenty users each ask
// three times, then the first streams. Prints one JSON line: for each user the servers that answered
// (its output text names the server), and for the stream each delta with how long after the
// request it arrived. The router's certificate is trusted through NODE_EXTRA_CA_CERTS.
import OpenAI from 'openai';

const client = new OpenAI({ apiKey: 'sk-test', baseURL: process.argv[2], maxRetries: 0 });
const servers = {};
for (let u = 0; u < 20; u++) {
  const user = `user-${u}`;
  for (let i = 0; i < 3; i++) {
    const answer = await client.responses.create({ model: 'insika-1', user, input: 'hello' });
    (servers[user] ??= []).push(answer.output_text.split(' ')[0]);
  }
}
const started = Date.now();
const deltas = [];
let completed = null;
const stream = await client.responses.create({ model: 'insika-1', user: 'user-0', input: 'stream', stream: true });
for await (const event of stream) {
  if (event.type === 'response.output_text.delta') {
    deltas.push({ delta: event.delta, at: Date.now() - started });
  } else if (event.type === 'response.completed') {
    completed = event.response.output_text ?? event.response.output[0].content[0].text;
  }
}
console.log(JSON.stringify({ servers, deltas, completed }));
