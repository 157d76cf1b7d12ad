/**
 * Imported first by server/main.ts, so it runs before the rest of the server is evaluated: the
 * server needs Node 24 (TypeScript run directly, `process.loadEnvFile`, `fetch` with
 * `AbortSignal.any`). `npm start` uses the Node 24 the project installs (the `node` package in
 * node_modules/.bin); started by hand with an older `node`, it stops with one line saying so
 * instead of failing somewhere deep. (Node 20 can't load a `.ts` file at all and says so itself.)
 */
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < REQUIRED_MAJOR) {
  console.error(
    `Repository Tracker needs Node ${REQUIRED_MAJOR} or later; this is Node ${process.versions.node}. ` +
      'Start it with `npm start`, or with node_modules/.bin/node server/main.ts (the Node 24 installed by npm ci).',
  );
  process.exit(1);
}
