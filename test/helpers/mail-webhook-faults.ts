import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net';

/**
 * Misbehaving remote ends for the outbound-faults suite: a webhook receiver and an SMTP server
 * that answer with too much, too slowly, not at all, or with a reset. Each can be switched to
 * another behaviour at run time, and counts connections, so a test can see when a call was
 * made and when it ended.
 */

export type WebhookFault =
  | 'ok' // 200 "ok", as Slack answers
  | 'silent' // reads the request, never answers
  | 'drip-headers' // a status line, then one header byte every 50 ms, forever
  | 'drip-body' // 200, then one body byte every 50 ms, forever
  | 'huge-body' // 200 with 1 MiB of body, as fast as it goes
  | 'reset'; // TCP reset as soon as the request arrives

export async function startWebhookFaultServer(initial: WebhookFault = 'ok') {
  let fault = initial;
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let open = 0;
  const drip = (write: () => boolean) => {
    const timer = setInterval(() => {
      if (!write()) clearInterval(timer);
    }, 50);
    timers.add(timer);
  };
  const server = createHttpServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push(body);
      const socket = request.socket;
      switch (fault) {
        case 'ok':
          response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          return;
        case 'silent':
          return;
        case 'drip-headers':
          socket.write('HTTP/1.1 200 OK\r\nX-Slow: ');
          drip(() => !socket.destroyed && socket.write('a'));
          return;
        case 'drip-body':
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.flushHeaders();
          drip(() => !response.destroyed && response.write('.'));
          return;
        case 'huge-body': {
          response.writeHead(200, { 'content-type': 'text/plain' });
          const chunk = 'x'.repeat(64 * 1024);
          for (let sent = 0; sent < 1024 * 1024; sent += chunk.length) response.write(chunk);
          response.end();
          return;
        }
        case 'reset':
          socket.resetAndDestroy();
          return;
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    open += 1;
    socket.on('close', () => {
      sockets.delete(socket);
      open -= 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/services/T0/B0/fault`,
    received,
    get openConnections() {
      return open;
    },
    setFault(next: WebhookFault) {
      fault = next;
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type SmtpFault =
  | 'silent' // accepts the connection, never greets
  | 'drip' // greets, then answers EHLO one byte every 50 ms, forever
  | 'huge' // greets, then answers EHLO with an endless multi-line reply, fast
  | 'reset' // TCP reset on connect
  | 'forward'; // a working mail server: bytes pass to `forwardTo`

export async function startSmtpFaultServer(initial: SmtpFault, forwardTo?: { host: string; port: number }) {
  let fault = initial;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;
  let closed = 0;
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    connections += 1;
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      closed += 1;
    });
    switch (fault) {
      case 'silent':
        return;
      case 'reset':
        socket.resetAndDestroy();
        return;
      case 'drip':
        socket.write('220 slow.example ESMTP\r\n');
        socket.once('data', () => {
          const timer = setInterval(() => {
            if (socket.destroyed) clearInterval(timer);
            else socket.write('2');
          }, 50);
          timers.add(timer);
        });
        return;
      case 'huge':
        socket.write('220 chatty.example ESMTP\r\n');
        socket.once('data', () => {
          const line = `250-${'x'.repeat(1000)}\r\n`;
          const flood = () => {
            while (!socket.destroyed && socket.write(line)) {}
          };
          socket.on('drain', flood);
          flood();
        });
        return;
      case 'forward': {
        if (!forwardTo) throw new Error('forward needs a target');
        const upstream = connect(forwardTo.port, forwardTo.host);
        upstream.on('error', () => socket.destroy());
        socket.on('close', () => upstream.destroy());
        socket.pipe(upstream).pipe(socket);
        return;
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    /** Connections accepted, and how many of them have ended. */
    get connections() {
      return connections;
    },
    get closedConnections() {
      return closed;
    },
    setFault(next: SmtpFault) {
      fault = next;
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
