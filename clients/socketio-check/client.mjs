// A Socket.IO client as the seed's avatar client connects: node client.mjs URL STICKY_ID.
// Long-polling first, then the upgrade to WebSocket, all with ?stickyId=STICKY_ID; prints one
// JSON line: the transport it opened with, the one it upgraded to, and three 'whoami' answers.
import { io } from 'socket.io-client';

const [url, stickyId] = process.argv.slice(2);
const socket = io(url, { query: { stickyId }, transports: ['polling', 'websocket'], reconnection: false });
const result = { opened: null, upgraded: null, answers: [] };
const timer = setTimeout(() => fail('timed out'), 15000);

function fail(why) {
  console.log(JSON.stringify({ ...result, error: String(why) }));
  process.exit(1);
}

// the engine opens (polling) before the socket connects, and may upgrade before that too
const upgraded = new Promise((resolve) => {
  socket.io.on('open', () => {
    result.opened = socket.io.engine.transport.name;
    socket.io.engine.once('upgrade', (transport) => resolve(transport.name));
  });
});
const connected = new Promise((resolve) => socket.on('connect', resolve));
socket.on('connect_error', fail);

Promise.all([upgraded, connected]).then(async ([transport]) => {
  result.upgraded = transport;
  for (let i = 0; i < 3; i++) {
    result.answers.push(await socket.emitWithAck('whoami'));
  }
  clearTimeout(timer);
  console.log(JSON.stringify(result));
  socket.close();
}, fail);
