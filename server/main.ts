// First: stops with one readable line on a Node older than the server needs.
import './node-version-check.ts';
import { existsSync } from 'node:fs';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { isDatabaseUnavailable } from './db/database.ts';

// `.env` is optional; real environment variables win over it.
if (existsSync('.env')) process.loadEnvFile('.env');

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// The database must answer at boot (migrations run before the server listens). When it doesn't,
// one readable line and exit 1: the supervisor (systemd, Compose) starts the process again.
let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp(config);
} catch (error) {
  if (!isDatabaseUnavailable(error)) throw error;
  console.error(
    `Could not start: the database could not be reached (${error instanceof Error ? error.message : String(error)}). ` +
      'Check DATABASE_URL and that the server runs.',
  );
  process.exit(1);
}

// SIGTERM/SIGINT: stop accepting (new requests get 503), let in-flight ones finish, close the
// database, exit 0; give up after 10 s (docs/security.md#h3). Keep-alive clients would hold
// their connections open past the grace (exit 1, which looks like a crash to a supervisor):
// idle connections are closed at once, answers sent while draining carry `Connection: close`,
// and a connection that falls idle after its last answer (a stream whose headers went out
// before the signal) is closed as soon as that answer is done.
let draining = false;
app.addHook('onSend', async (_request, reply) => {
  if (draining && !reply.raw.headersSent) reply.header('connection', 'close');
});
app.addHook('onResponse', async () => {
  if (draining) setImmediate(() => app.server.closeIdleConnections());
});
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'shutting down after an unexpected error');
  else app.log.info({ signal }, 'shutting down');
  draining = true;
  app.server.closeIdleConnections();
  await app.close();
});

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  app.log.error({ err: error }, 'could not start the server');
  process.exit(1);
}
