import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFakeClock } from '../../test/helpers/fake-clock.ts';
import { createTestDatabase, testDialect } from '../../test/helpers/test-database.ts';
import { WAIT_CEILING_MS } from '../../test/helpers/wait-ceiling.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { defineJob, type JobContext, type JobKindOptions, jobKind } from './job-definition.ts';
import { claimDueJobs } from './job-queue.queries.ts';
import {
  JobQueue,
  type JobQueueOptions,
  LEASE_MARGIN_MS,
  PermanentJobError,
  retryDelayMs,
} from './job-queue.ts';

const findJob = (db: Kysely<Database>, id: number) =>
  db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * The queue on the suite's database (SQLite or PostgreSQL), with every worker on its own
 * connection, as separate app instances sharing one database would be. SQLite uses a file
 * (an in-memory database can't be shared between connections).
 */
let workDir: string;
let url: string;
let disposeDatabase: () => Promise<void>;
const handles: DatabaseHandle[] = [];
let main: DatabaseHandle;

function connect(): DatabaseHandle {
  const handle = openDatabase({ databaseUrl: url, dataDir: workDir });
  handles.push(handle);
  return handle;
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'rt-jobs-'));
  if (testDialect === 'sqlite') {
    url = `sqlite:${join(workDir, 'jobs.db')}`;
    disposeDatabase = async () => {};
  } else {
    const database = await createTestDatabase();
    url = database.url;
    handles.push(database.handle);
    disposeDatabase = database.dispose;
  }
  main = connect();
  await migrateToLatest(main.db);
});

afterAll(async () => {
  for (const handle of handles) await handle.close();
  await disposeDatabase?.();
  rmSync(workDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await main.db.deleteFrom('jobs').execute();
});

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A kind whose payload any JSON value passes: these tests are about the queue, not payloads. */
const kind = (name: string) => jobKind(name, z.unknown());

/** Handles `name` on `queue` (a definition with `run` and `retry`). */
function on<P>(
  queue: JobQueue,
  name: string,
  run: (payload: P, context: JobContext) => Promise<void>,
  retry?: JobKindOptions,
) {
  queue.register(
    defineJob({ kind: kind(name), run: (payload, context) => run(payload as P, context), retry }),
  );
}

function queueOn(handle: DatabaseHandle, options: Partial<JobQueueOptions> & { clock?: Clock } = {}) {
  return new JobQueue({
    db: handle.db,
    dialect: handle.dialect,
    clock: options.clock ?? createFakeClock(),
    log: silent,
    pollMs: 20,
    ...options,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until `check` holds; the ceiling is generous (a busy machine is slow), never a sleep. */
async function waitUntil(
  check: () => Promise<boolean> | boolean,
  timeoutMs = WAIT_CEILING_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

async function statuses(): Promise<string[]> {
  const rows = await main.db.selectFrom('jobs').select('status').orderBy('id').execute();
  return rows.map((row) => row.status);
}

describe('claims', () => {
  it('run each job exactly once under two workers on separate connections', async () => {
    const clock = createFakeClock();
    const runs: { owner: string; n: number }[] = [];
    const workers = ['a', 'b'].map((owner) => {
      const queue = queueOn(connect(), { clock, owner, concurrency: 3 });
      on<{ n: number }>(queue, 'count', async ({ n }) => {
        runs.push({ owner, n });
        await sleep(2 + (n % 5));
      });
      return queue;
    });
    const producer = queueOn(main, { clock });
    for (let n = 0; n < 60; n++) await producer.enqueue(kind('count'), { n });

    for (const worker of workers) worker.start();
    try {
      await waitUntil(async () => (await statuses()).every((status) => status === 'succeeded'));
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }

    const seen = runs.map((run) => run.n).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 60 }, (_, n) => n));
    expect(new Set(runs.map((run) => run.owner))).toEqual(new Set(['a', 'b']));
    const rows = await main.db.selectFrom('jobs').select(['attempts', 'lease_owner']).execute();
    expect(rows.every((row) => row.attempts === 1 && row.lease_owner === null)).toBe(true);
  });

  it('never hand one due job to two claims racing for it', async () => {
    const clock = createFakeClock();
    const producer = queueOn(main, { clock });
    for (let round = 0; round < 20; round++) await producer.enqueue(kind('race'), { round });
    const connections = [connect(), connect(), connect()];
    const now = clock.now();
    const claimed: number[] = [];
    // Rounds of three simultaneous claims of two jobs each, until nothing is left.
    for (let round = 0; round < 20; round++) {
      const batches = await Promise.all(
        connections.map((handle, index) =>
          claimDueJobs(handle.db, handle.dialect, {
            owner: `w${index}`,
            now: now.toISOString(),
            leaseUntil: new Date(now.getTime() + 60_000).toISOString(),
            kinds: ['race'],
            limit: 2,
          }),
        ),
      );
      const ids = batches.flat().map((job) => job.id);
      if (ids.length === 0) break;
      claimed.push(...ids);
    }
    expect(claimed).toHaveLength(20);
    expect(new Set(claimed).size).toBe(20);
  });

  it('take only the kinds this worker handles', async () => {
    const queue = queueOn(main);
    on(queue, 'mine', async () => {});
    await queue.enqueue(kind('mine'), {});
    await queue.enqueue(kind('someone-elses'), {});
    expect(await queue.runDue()).toBe(1);
    expect(await statuses()).toEqual(['succeeded', 'pending']);
  });
});

describe('restarts', () => {
  it('keep queued jobs: a new instance on the database runs them', async () => {
    const clock = createFakeClock();
    const before = connect();
    const id = await queueOn(before, { clock }).enqueue(kind('survivor'), {
      note: 'queued before the restart',
    });
    await before.close();

    const ran: unknown[] = [];
    const after = queueOn(connect(), { clock });
    on(after, 'survivor', async (payload) => {
      ran.push(payload);
    });
    expect(await after.runDue()).toBe(1);
    expect(ran).toEqual([{ note: 'queued before the restart' }]);
    expect((await findJob(main.db, id))?.status).toBe('succeeded');
  });

  it('take a crashed worker’s job again once its lease expires, and only then', async () => {
    const clock = createFakeClock();
    const queue = queueOn(connect(), { clock, owner: 'survivor' });
    const ran: number[] = [];
    on(
      queue,
      'work',
      async (_payload, { attempt }) => {
        ran.push(attempt);
      },
      { timeoutMs: 5000 },
    );
    const id = await queue.enqueue(kind('work'), {});
    // Another instance claimed it and died (kill -9): its lease is all that is left.
    const now = clock.now();
    const leaseMs = 5000 + LEASE_MARGIN_MS;
    const [claimed] = await claimDueJobs(main.db, main.dialect, {
      owner: 'crashed',
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
      kinds: ['work'],
      limit: 1,
    });
    expect(claimed?.id).toBe(id);

    expect(await queue.runDue()).toBe(0);
    clock.advance(leaseMs / 1000 - 1);
    expect(await queue.runDue()).toBe(0);
    clock.advance(1);
    expect(await queue.runDue()).toBe(1);
    expect(ran).toEqual([2]);
    expect(await findJob(main.db, id)).toMatchObject({ status: 'succeeded', attempts: 2, lease_owner: null });
  });

  it('let a worker whose lease was taken over record nothing', async () => {
    const clock = createFakeClock();
    const slow = queueOn(connect(), { clock, owner: 'slow' });
    let release: () => void = () => {};
    on(slow, 'work', () => new Promise<void>((resolve) => (release = resolve)), { timeoutMs: 1000 });
    const fast = queueOn(connect(), { clock, owner: 'fast' });
    on(fast, 'work', async () => {}, { timeoutMs: 1000 });
    const id = await slow.enqueue(kind('work'), {});

    const slowRun = slow.runDue();
    await waitUntil(async () => (await findJob(main.db, id))?.lease_owner === 'slow');
    clock.advance(1 + LEASE_MARGIN_MS / 1000 + 1);
    expect(await fast.runDue()).toBe(1);
    release();
    await slowRun;
    expect(await findJob(main.db, id)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});

describe('failures', () => {
  it('are retried with exponential back-off, then fail for good with the last error', async () => {
    const clock = createFakeClock();
    const queue = queueOn(main, { clock });
    const attempts: number[] = [];
    on(
      queue,
      'flaky',
      async (_payload, { attempt }) => {
        attempts.push(attempt);
        throw new Error(`refused on attempt ${attempt}`);
      },
      { maxAttempts: 4, backoff: { baseMs: 1000, maxMs: 3000 } },
    );
    const id = await queue.enqueue(kind('flaky'), {});
    const start = clock.now().getTime();

    expect(await queue.runDue()).toBe(1);
    expect(await findJob(main.db, id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'refused on attempt 1',
      run_at: new Date(start + 1000).toISOString(),
      lease_owner: null,
    });
    clock.advance(0.999);
    expect(await queue.runDue()).toBe(0);
    clock.advance(0.001);
    expect(await queue.runDue()).toBe(1);
    expect((await findJob(main.db, id))?.run_at).toBe(new Date(start + 1000 + 2000).toISOString());
    clock.advance(2);
    expect(await queue.runDue()).toBe(1);
    // Capped at maxMs: 4 s would be next, 3 s it is.
    expect((await findJob(main.db, id))?.run_at).toBe(new Date(start + 3000 + 3000).toISOString());
    clock.advance(3);
    expect(await queue.runDue()).toBe(1);
    expect(await findJob(main.db, id)).toMatchObject({
      status: 'failed',
      attempts: 4,
      last_error: 'refused on attempt 4',
      finished_at: clock.now().toISOString(),
    });
    clock.advance(3600);
    expect(await queue.runDue()).toBe(0);
    expect(attempts).toEqual([1, 2, 3, 4]);
  });

  it('that retrying cannot fix fail at once', async () => {
    const queue = queueOn(main);
    on(queue, 'doomed', async () => {
      throw new PermanentJobError('the webhook was removed');
    });
    const id = await queue.enqueue(kind('doomed'), {});
    await queue.runDue();
    expect(await findJob(main.db, id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'the webhook was removed',
    });
  });

  it('include overrunning the deadline: the attempt is cut off, its signal aborted, the job retried', async () => {
    const queue = queueOn(main);
    let signal: AbortSignal | undefined;
    on(
      queue,
      'hangs',
      (_payload, context) => {
        signal = context.signal;
        return new Promise<void>(() => {});
      },
      { timeoutMs: 50 },
    );
    const id = await queue.enqueue(kind('hangs'), {});
    // The handler never settles: only the deadline can end the attempt (without it, runDue hangs).
    await queue.runDue();
    expect(signal?.aborted).toBe(true);
    expect(await findJob(main.db, id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'timed out after 50 ms',
    });
  });

  it('back off as documented: doubling from the base, capped', () => {
    const backoff = { baseMs: 10_000, maxMs: 3_600_000 };
    expect([1, 2, 3, 4, 10, 20].map((attempt) => retryDelayMs(backoff, attempt))).toEqual([
      10_000, 20_000, 40_000, 80_000, 3_600_000, 3_600_000,
    ]);
  });
});

describe('sensitive jobs', () => {
  it('are deleted once done, and lose their payload when they fail for good', async () => {
    const queue = queueOn(main);
    let fail = false;
    on(
      queue,
      'secret',
      async () => {
        if (fail) throw new PermanentJobError('no');
      },
      { sensitive: true },
    );
    const done = await queue.enqueue(kind('secret'), { link: 'https://example.com/#/reset?token=abc' });
    await queue.runDue();
    expect(await findJob(main.db, done)).toBeUndefined();

    fail = true;
    const failed = await queue.enqueue(kind('secret'), { link: 'https://example.com/#/reset?token=def' });
    await queue.runDue();
    expect(await findJob(main.db, failed)).toMatchObject({ status: 'failed', payload: 'null' });
  });
});

describe('the worker', () => {
  it('wakes at once on a local enqueue, however long its poll interval', async () => {
    const queue = queueOn(main, { pollMs: 60_000 });
    const ran: number[] = [];
    on<{ n: number }>(queue, 'now', async ({ n }) => {
      ran.push(n);
    });
    queue.start();
    try {
      await sleep(30); // asleep for a minute now
      await queue.enqueue(kind('now'), { n: 1 });
      // Well within the minute the worker would otherwise sleep.
      await waitUntil(() => ran.length === 1);
    } finally {
      await queue.stop();
    }
  });

  it('finds jobs another instance queued by polling', async () => {
    const clock = createFakeClock();
    const queue = queueOn(main, { pollMs: 30, clock });
    const ran: number[] = [];
    on<{ n: number }>(queue, 'elsewhere', async ({ n }) => {
      ran.push(n);
    });
    queue.start();
    try {
      await sleep(50);
      await queueOn(connect(), { clock }).enqueue(kind('elsewhere'), { n: 7 });
      await waitUntil(() => ran.length === 1);
      expect(ran).toEqual([7]);
    } finally {
      await queue.stop();
    }
  });

  it('stops cleanly: the job in flight finishes and is recorded, nothing new is claimed', async () => {
    const queue = queueOn(main);
    let started = false;
    on(queue, 'slow', async () => {
      started = true;
      await sleep(150);
    });
    queue.start();
    const first = await queue.enqueue(kind('slow'), {});
    await waitUntil(() => started);
    await queue.stop();
    expect((await findJob(main.db, first))?.status).toBe('succeeded');
    const second = await queue.enqueue(kind('slow'), {});
    await sleep(100);
    expect((await findJob(main.db, second))?.status).toBe('pending');
  });

  it('stops within its grace when a job won’t finish, releasing that job for the next worker', async () => {
    const clock = createFakeClock();
    const queue = queueOn(main, { clock, stopGraceMs: 100 });
    let started = false;
    on(
      queue,
      'stuck',
      () => {
        started = true;
        return new Promise<void>(() => {}); // ignores its signal, never settles
      },
      { timeoutMs: 60_000 },
    );
    queue.start();
    const id = await queue.enqueue(kind('stuck'), {});
    await waitUntil(() => started);
    const stopping = Date.now();
    await queue.stop();
    // Its grace (100 ms), not the job's minute: the ceiling leaves a busy machine room between them.
    expect(Date.now() - stopping).toBeLessThan(WAIT_CEILING_MS);
    expect(await findJob(main.db, id)).toMatchObject({
      status: 'pending',
      // Not the job's fault: the attempt doesn't count.
      attempts: 0,
      lease_owner: null,
      run_at: clock.now().toISOString(),
      last_error: 'interrupted: the app was shutting down',
    });
  });
});
