import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { MailMessage } from '../../server/modules/messages/mail-transport.ts';
import { nextAddress } from '../helpers/auth-factory.ts';
import { createScratchDatabase, type ScratchDatabase, testDialect } from '../helpers/test-database.ts';

/**
 * Issue 22, item 5: forgot-password answered a registered address 17 ms slower than an unknown
 * one (24 interleaved pairs, medians 31 and 14 ms, the registered one slower in 23), because it
 * committed the reset link (and then its mail job) before answering while an unknown address
 * wrote nothing. The cost is the commit's flush, so this test runs on a database that flushes
 * for real: SQLite in a file with `synchronous = FULL` (not the in-memory one other suites use),
 * or PostgreSQL (`synchronous_commit = on`).
 *
 * The comparison is built to hold on a busy two-core machine: pairs interleaved (and the order
 * inside a pair alternated), so a burst of load lands on both sides; medians, which a few
 * stalls don't move; and each request starts with the queue idle, so what is timed is the
 * answer alone. A difference the size of one commit fails it; scheduler noise does not.
 *
 * The fix (AuthService#requestEmailLink): one commit for every request, holding its audit row
 * and, for an account, the link and its mail; and an answer no sooner than
 * LINK_REQUEST_ANSWER_MS, which covers the queue's worker taking that mail right after.
 */

const PAIRS = 16;
const WARM_UP = 2;
/**
 * The largest median difference tolerated. One flushed commit costs 3–5 ms on this kind of
 * machine, and the registered address used to wait for three (its link, its mail job, and the
 * job queue taking that mail): 7–11 ms apart in these medians, 17 ms in the report. Identical
 * work stays well under a millisecond apart, even with other suites running.
 */
const TOLERANCE_MS = 3;

let app: FastifyInstance;
let database: ScratchDatabase;
let dataDir: string;
const mails: MailMessage[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rt-forgot-timing-'));
  database = await createScratchDatabase(testDialect, { dir: dataDir });
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'test-secret-key-0123456789abcdef0123456789abcdef',
    SYNC_SCHEDULE: 'off',
    BACKUP_SCHEDULE: 'off',
    NOTIFICATION_SCHEDULE: 'off',
    HISTORY_BACKFILL: 'off',
    JOB_POLL_MS: '20',
  });
  app = await buildApp(config, {
    database: database.handle,
    // Mail is accepted at once: the queue's own work is not what is measured.
    mailer: {
      send: async (message) => {
        mails.push(message);
      },
      close: () => {},
    },
  });
  await app.ready();
  // The accounts exist before timing starts; the password is never used, so one hash serves all.
  const now = new Date().toISOString();
  await app.db
    .insertInto('users')
    .values(
      Array.from({ length: PAIRS + WARM_UP }, (_, index) => ({
        username: `timing_known_${index}`,
        email: known(index),
        first_name: 'Ada',
        last_name: 'Lovelace',
        password_hash:
          '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA',
        is_admin: 0,
        is_verified: 1,
        is_active: 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Addresses of one length, so nothing but "has an account" tells them apart. */
function known(index: number) {
  return `timing-known-${String(index).padStart(2, '0')}@example.com`;
}
function unknown(index: number) {
  return `timing-nobod-${String(index).padStart(2, '0')}@example.com`;
}

/** Until no job waits or runs: the previous request's background work is not timed. */
async function settle(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    app.services.jobs.wake();
    const busy = await app.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    if (Number(busy.count) === 0) return;
    if (Date.now() > deadline) throw new Error('the job queue did not settle within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function timedForgot(email: string): Promise<number> {
  await settle();
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/auth/forgot-password',
    payload: { email },
    // Each request from its own client address, so the per-client limit never answers instead.
    remoteAddress: nextAddress(),
  });
  const ms = performance.now() - started;
  expect(response.statusCode).toBe(200);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

describe(`forgot-password timing (${testDialect})`, () => {
  it('answers a registered address as fast as an unknown one (medians over interleaved pairs)', async () => {
    for (let index = 0; index < WARM_UP; index += 1) {
      await timedForgot(known(PAIRS + index));
      await timedForgot(unknown(PAIRS + index));
    }
    const ofKnown: number[] = [];
    const ofUnknown: number[] = [];
    for (let index = 0; index < PAIRS; index += 1) {
      // Alternate which goes first, so neither side always follows the other's aftermath.
      if (index % 2 === 0) {
        ofKnown.push(await timedForgot(known(index)));
        ofUnknown.push(await timedForgot(unknown(index)));
      } else {
        ofUnknown.push(await timedForgot(unknown(index)));
        ofKnown.push(await timedForgot(known(index)));
      }
    }
    await settle();
    const differences = ofKnown.map((ms, index) => ms - (ofUnknown[index] as number));
    const figures = {
      known: Number(median(ofKnown).toFixed(2)),
      unknown: Number(median(ofUnknown).toFixed(2)),
      pairedDifference: Number(median(differences).toFixed(2)),
      knownSlower: differences.filter((difference) => difference > 0).length,
    };
    console.info(`forgot-password medians (${testDialect}, ms):`, JSON.stringify(figures));
    // The owner of every registered address still gets the link.
    expect(mails.filter((mail) => mail.to.startsWith('timing-known-'))).toHaveLength(PAIRS + WARM_UP);
    expect(mails.filter((mail) => mail.to.startsWith('timing-nobod-'))).toHaveLength(0);
    // The same durable work for both: every request, account or not, left its one audit row.
    const audited = await app.db
      .selectFrom('audit_log')
      .select(['target', 'detail'])
      .where('action', '=', 'auth.password_reset.requested')
      .execute();
    expect(audited).toHaveLength(2 * (PAIRS + WARM_UP));
    expect(audited.filter((row) => row.target === null)).toHaveLength(PAIRS + WARM_UP);
    expect(Math.abs(figures.pairedDifference), JSON.stringify(figures)).toBeLessThan(TOLERANCE_MS);
    expect(Math.abs(figures.known - figures.unknown), JSON.stringify(figures)).toBeLessThan(TOLERANCE_MS);
  }, 120_000);
});
