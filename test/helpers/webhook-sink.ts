import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A notification webhook stand-in on 127.0.0.1 (generic JSON, Discord or Slack shapes alike):
 * records each JSON body with its path, and answers 200, or a failing status while told to, or
 * not at all (`silent`) so deadlines can be seen to hold.
 */
export async function startWebhookSink() {
  const received: { path: string; body: Record<string, unknown> }[] = [];
  let mode: { status: number } | 'silent' | null = null;
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      if (mode === 'silent') return;
      if (mode) {
        response.writeHead(mode.status).end('no');
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = { raw };
      }
      received.push({ path: request.url ?? '/', body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    /** Answer this status from now on (null: 204 again). */
    fail(status: number | null) {
      mode = status === null ? null : { status };
    },
    /** Read requests and never answer. */
    silence() {
      mode = 'silent';
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
