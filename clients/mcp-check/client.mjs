// MCP clients (Streamable HTTP) through several routers: node client.mjs CLIENTS URL [URL...].
// Each client initializes through one router, then sends each request through the next one in
// turn, calls the tool "count" until its session's GET event stream is open, and ends the
// session (DELETE). Prints one JSON array: per client, the sealed session id it was given and
// every tool result. Exits non-zero on the first request that fails.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const clients = Number(process.argv[2]);
const routers = process.argv.slice(3).map((url) => new URL(url));

async function session(index) {
  let turn = index;
  const requests = [];
  // every request to the next router: the session must not depend on which replica it meets
  const across = (url, init) => {
    const target = new URL(url);
    const router = routers[turn++ % routers.length];
    target.host = router.host;
    requests.push(`${init?.method ?? 'GET'} ${router.port}`);
    return fetch(target, init);
  };
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', routers[index % routers.length]),
    { fetch: across });
  const client = new Client({ name: `client-${index}`, version: '1.0.0' });
  const errors = [];
  let closing = false;
  // closing aborts the GET event stream when the server has not ended it yet: ours, not a failure.
  // The SDK reports that abort bare or wrapped ("SSE stream disconnected: AbortError: ..."): the
  // DELETE's answer and the end of the stream come over two connections, in either order.
  client.onerror = (error) => {
    const aborted = error.name === 'AbortError' || String(error).includes('AbortError');
    if (!(closing && aborted)) errors.push(String(error));
  };
  await client.connect(transport);
  const results = [];
  for (let call = 0; call < 20; call++) {
    const answer = await client.callTool({ name: 'count', arguments: {} });
    if (answer.isError) throw new Error(`client ${index}: ${JSON.stringify(answer)}`);
    const result = JSON.parse(answer.content[0].text);
    results.push(result);
    if (call >= 2 && result.sse) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const sealed = transport.sessionId;
  closing = true;
  await transport.terminateSession();
  await client.close();
  return { client: index, sealed, results, requests, errors };
}

const all = await Promise.all(Array.from({ length: clients }, (_, index) => session(index)));
console.log(JSON.stringify(all));
