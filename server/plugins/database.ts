import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DatabaseHandle, Dialect } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbDialect: Dialect;
  }
}

/** Brings the schema up to date before any route is served, and closes the database last. */
async function database(app: FastifyInstance, options: { handle: DatabaseHandle; closeOnShutdown: boolean }) {
  const { handle } = options;
  // On PostgreSQL several instances may boot at once: Kysely's migration lock (an advisory lock)
  // lets one migrate while the others wait, so no statement time-out may cut that wait short.
  if (handle.withoutStatementTimeout) await handle.withoutStatementTimeout((db) => migrateToLatest(db));
  else await migrateToLatest(handle.db);
  app.decorate('db', handle.db);
  app.decorate('dbDialect', handle.dialect);
  if (options.closeOnShutdown) app.addHook('onClose', () => handle.close());
}

export default fp(database, { name: 'database' });
