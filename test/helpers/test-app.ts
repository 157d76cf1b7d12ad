import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from '../../server/app.ts';
import { type AppConfig, loadConfig } from '../../server/config.ts';
import { createTestDatabase } from './test-database.ts';

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  dataDir: string;
  close(): Promise<void>;
}

/** The configuration, or the refusal a test expects, with the data directory removed. */
function configOrCleanUp(dataDir: string, env: Record<string, string>) {
  try {
    return loadConfig(env);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The whole application on a fresh database (SQLite in memory, or a new PostgreSQL database
 * under TEST_DB=postgres) with its own temporary DATA_DIR. Pass environment overrides as the
 * strings an operator would set; `extend` registers test-only routes before the app is ready.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: BuildOptions & { extend?: (app: FastifyInstance) => void } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rt-test-'));
  const config = configOrCleanUp(dataDir, {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'test-secret-key-0123456789abcdef0123456789abcdef',
    // Schedules would fire mid-suite at :17 or 03:00; tests call the jobs' functions directly.
    SYNC_SCHEDULE: 'off',
    BACKUP_SCHEDULE: 'off',
    NOTIFICATION_SCHEDULE: 'off',
    // Adds would start the star-history backfill in the background, and its GitHub calls would
    // join every test's request counts; the history tests turn it on.
    HISTORY_BACKFILL: 'off',
    // GitHub's minute shortened: a retry-after of 60 s pauses a token for 300 ms, and an
    // interactive call waits at most a second for its turn before its work is queued.
    GITHUB_RETRY_AFTER_UNIT_MS: '5',
    GITHUB_INTERACTIVE_WAIT_MS: '1000',
    ...env,
  });
  // After the configuration: a test of a refused setting must not leave a database behind.
  const database = await createTestDatabase({ migrated: true });
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { ...options, database: database.handle });
    options.extend?.(app);
    await app.ready();
  } catch (error) {
    await database.dispose();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
