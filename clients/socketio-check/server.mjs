// A Socket.IO server that says who it is: node server.mjs NAME. Listens on a free loopback port
// and prints "listening PORT". Each 'whoami' is answered with NAME and the transport in use.
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const name = process.argv[2];
const http = createServer();
const io = new Server(http);
io.on('connection', (socket) => {
  socket.on('whoami', (reply) => reply(`${name} ${socket.conn.transport.name}`));
});
http.listen(0, '127.0.0.1', () => console.log(`listening ${http.address().port}`));
