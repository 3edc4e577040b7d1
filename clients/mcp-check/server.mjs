// An MCP server (Streamable HTTP, stateful sessions) that says who it is: node server.mjs NAME.
// Listens on a free loopback port and prints "listening PORT". Each session keeps its own
// counter in this process: the tool "count" increments it and answers with this server's name,
// the session id it minted, the count, and whether the session's GET event stream is open here.
// A request for a session this process did not mint gets 404, so a misrouted request fails.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const name = process.argv[2];
const transports = new Map();
const state = new Map();
let unknown = 0;

function newServer() {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool('count', { description: 'Counts the calls of this session, here' }, async (extra) => {
    const session = state.get(extra.sessionId);
    session.count += 1;
    const result = { server: name, session: extra.sessionId, count: session.count, sse: session.sse };
    return { content: [{ type: 'text', text: JSON.stringify(result) }] };
  });
  return server;
}

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function refuse(res, status, message) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

const http = createServer(async (req, res) => {
  try {
    const sid = req.headers['mcp-session-id'];
    const parsed = req.method === 'POST' ? await body(req) : undefined;
    if (sid !== undefined) {
      const transport = transports.get(sid);
      if (transport === undefined) {
        unknown += 1;
        console.log(`unknown ${req.method} ${unknown}`);
        return refuse(res, 404, `${name} does not know this session`);
      }
      if (req.method === 'GET') state.get(sid).sse = true;
      if (req.method === 'DELETE') console.log(`deleted ${sid}`);
      return await transport.handleRequest(req, res, parsed);
    }
    if (req.method !== 'POST' || !isInitializeRequest(parsed)) {
      return refuse(res, 400, 'no session id, and not an initialize request');
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => `${name}-${randomUUID()}`,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
        state.set(id, { count: 0, sse: false });
      },
    });
    transport.onclose = () => transports.delete(transport.sessionId);
    await newServer().connect(transport);
    await transport.handleRequest(req, res, parsed);
  } catch (error) {
    console.log(`error ${error}`);
    if (!res.headersSent) refuse(res, 500, String(error));
  }
});
http.listen(0, '127.0.0.1', () => console.log(`listening ${http.address().port}`));
