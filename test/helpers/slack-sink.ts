import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Slack incoming-webhook stand-in on 127.0.0.1 that records each message (or fails on demand). */
export async function startSlackSink() {
  const messages: { path: string; text: string }[] = [];
  let failWith: number | null = null;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (failWith) {
        response.writeHead(failWith).end('no');
        return;
      }
      try {
        messages.push({ path: request.url ?? '/', text: (JSON.parse(body) as { text: string }).text });
      } catch {
        messages.push({ path: request.url ?? '/', text: body });
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/services/T0/B0/test`,
    messages,
    failNext(status: number | null) {
      failWith = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
