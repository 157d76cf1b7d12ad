import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { addMs, type Clock, dateAtMs, isoNow, nowMs } from '../lib/clock.ts';
import type { JobDefinition, JobKind, JobKindOptions } from './job-definition.ts';

import {
  claimDueJobs,
  deleteClaimedJob,
  finishClaimedJob,
  insertJob,
  type JobRow,
  pruneFinishedJobs,
  rescheduleClaimedJob,
} from './job-queue.queries.ts';

/**
 * A durable job queue in the application's own database, the same on SQLite and PostgreSQL
 * (docs/decisions.md, "Job queue"). Producers `enqueue(kind, payload)`; each instance's worker
 * claims due jobs of the kinds it has handlers for under a row lease, runs them, and records
 * the outcome. A failed attempt is retried with exponential back-off until `maxAttempts`; a
 * job whose worker died is taken again once its lease expires. Delivery is at least once: a
 * job runs once unless a worker dies (or overruns its lease) mid-job.
 */

/** A failure retrying can't fix (refused configuration, a 4xx): the job fails at once. */
export class PermanentJobError extends Error {}

/**
 * Not a failure: the job can't run before `at` (GitHub's pace for its token is spent). It is
 * put back for then without using up an attempt.
 */
export class RetryJobAt extends Error {
  readonly at: Date;
  constructor(at: Date, reason: string) {
    super(reason);
    this.at = at;
  }
}

/** The reason an attempt is aborted when the queue stops. */
class ShutdownError extends Error {
  constructor() {
    super('interrupted: the app was shutting down');
  }
}

interface JobLogger {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface JobQueueOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  log: JobLogger;
  /** How often an idle worker looks for due jobs (another instance's, or retries); a local enqueue wakes it at once. */
  pollMs?: number;
  /** Jobs one worker runs at the same time. */
  concurrency?: number;
  /** How long `stop` lets jobs in flight end after telling them to stop, before aborting them (default 2 s: the process exits within 5 s of SIGTERM). */
  stopGraceMs?: number;
  /** Names this worker in `lease_owner`; unique per process by default. */
  owner?: string;
}

const DEFAULTS = {
  maxAttempts: 8,
  timeoutMs: 60_000,
  backoff: { baseMs: 10_000, maxMs: 3_600_000 },
  sensitive: false,
} satisfies Required<JobKindOptions>;

/** Added to the longest attempt deadline for the lease, so a live attempt never loses its lease. */
export const LEASE_MARGIN_MS = 30_000;
/** Succeeded and failed rows stay this long as a record of the outcome. */
export const FINISHED_JOB_RETENTION_MS = 14 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;
const MAX_ERROR_LENGTH = 1000;

interface Registration {
  definition: JobDefinition;
  options: Required<JobKindOptions>;
}

export class JobQueue {
  readonly owner: string;
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  readonly #clock: Clock;
  readonly #log: JobLogger;
  readonly #pollMs: number;
  readonly #concurrency: number;
  readonly #handlers = new Map<string, Registration>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #controllers = new Set<AbortController>();
  /** Aborted when `stop` begins: every job in flight sees it as `context.stopping`. */
  #stopping = new AbortController();
  readonly #stopGraceMs: number;
  #running = false;
  #loop: Promise<void> | undefined;
  #wakeUp: (() => void) | undefined;
  #wakePending = false;
  #lastPrune = 0;

  constructor(options: JobQueueOptions) {
    this.#db = options.db;
    this.#dialect = options.dialect;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#pollMs = options.pollMs ?? 1000;
    this.#concurrency = options.concurrency ?? 4;
    this.#stopGraceMs = options.stopGraceMs ?? 2000;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Handles jobs of the definition's kind on this instance. One definition per kind. */
  register(definition: JobDefinition): void {
    const { name } = definition.kind;
    if (this.#handlers.has(name)) throw new Error(`A handler for job kind "${name}" is already registered`);
    this.#handlers.set(name, { definition, options: { ...DEFAULTS, ...definition.retry } });
  }

  /** The kinds this instance runs. */
  kinds(): string[] {
    return [...this.#handlers.keys()];
  }

  /**
   * Stores a job and wakes this instance's worker; the payload is validated against the kind's
   * schema first (a wrong shape is a programming error: it throws). `db` may be a transaction,
   * so the job exists exactly when the caller's change does (the worker then finds it at
   * commit, or at its next poll). Returns the job id.
   */
  async enqueue<S extends z.ZodType>(
    kind: JobKind<S>,
    payload: z.input<S>,
    options: { runAt?: Date; maxAttempts?: number; db?: Kysely<Database> } = {},
  ): Promise<number> {
    const valid = kind.payload.parse(payload);
    const now = this.#clock.now();
    const id = await insertJob(options.db ?? this.#db, {
      kind: kind.name,
      payload: JSON.stringify(valid ?? null),
      runAt: (options.runAt ?? now).toISOString(),
      maxAttempts:
        options.maxAttempts ?? this.#handlers.get(kind.name)?.options.maxAttempts ?? DEFAULTS.maxAttempts,
      now: now.toISOString(),
    });
    this.wake();
    return id;
  }

  /** Starts the worker loop (idempotent). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#work();
  }

  /**
   * Stops claiming, tells the jobs in flight to stop (their `stopping` signal: long runs stop
   * between items) and lets them end for up to `stopGraceMs`; those still running then are
   * aborted and released for the next worker (their lease cleared, due now, the attempt not
   * counted). A job cut short by a crash instead keeps its lease until it expires.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopping.abort();
    this.wake();
    await this.#loop;
    await this.#endInFlight();
    // Stopped, the queue may still be stepped by `runDue` (tests, the CLI): what it starts then
    // is not being shut down.
    this.#stopping = new AbortController();
  }

  /** Lets the jobs in flight end for up to `stopGraceMs`, then aborts and releases the rest. */
  async #endInFlight(): Promise<void> {
    const inFlight = [...this.#inFlight];
    if (inFlight.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.allSettled(inFlight).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), this.#stopGraceMs);
      }),
    ]);
    clearTimeout(timer);
    if (finished) return;
    for (const controller of this.#controllers) controller.abort(new ShutdownError());
    await Promise.allSettled(inFlight);
  }

  /** Makes an idle worker look for due jobs now. */
  wake(): void {
    const wakeUp = this.#wakeUp;
    if (wakeUp) wakeUp();
    else this.#wakePending = true;
  }

  /**
   * Claims what is due now (up to the free slots) and waits until those jobs are done; the
   * number claimed. The loop does the same without waiting; tests call it to step the queue.
   */
  async runDue(): Promise<number> {
    const started = await this.#claimAndStart();
    await Promise.allSettled(started);
    return started.length;
  }

  async #work(): Promise<void> {
    while (this.#running) {
      let claimed = 0;
      try {
        claimed = (await this.#claimAndStart()).length;
        await this.#pruneNowAndThen();
      } catch (error) {
        this.#log.error({ err: error }, 'job queue: could not claim jobs');
      }
      if (!this.#running) break;
      // A full batch suggests more are due: look again as soon as a slot is free.
      if (claimed > 0 && this.#inFlight.size < this.#concurrency) continue;
      await this.#sleep(this.#pollMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    if (this.#wakePending) {
      this.#wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wakeUp = undefined;
        this.#wakePending = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wakeUp = done;
    });
  }

  async #claimAndStart(): Promise<Promise<void>[]> {
    const free = this.#concurrency - this.#inFlight.size;
    if (free <= 0 || this.#handlers.size === 0) return [];
    const now = this.#clock.now();
    const longest = Math.max(...[...this.#handlers.values()].map((handler) => handler.options.timeoutMs));
    const jobs = await claimDueJobs(this.#db, this.#dialect, {
      owner: this.owner,
      now: now.toISOString(),
      leaseUntil: addMs(now, longest + LEASE_MARGIN_MS).toISOString(),
      kinds: [...this.#handlers.keys()],
      limit: free,
    });
    return jobs.map((job) => {
      const running = this.#execute(job).finally(() => {
        this.#inFlight.delete(running);
        // A slot is free: the loop may have more to claim.
        this.wake();
      });
      this.#inFlight.add(running);
      return running;
    });
  }

  async #execute(job: JobRow): Promise<void> {
    const registration = this.#handlers.get(job.kind);
    if (!registration) return; // claims ask only for registered kinds
    const { options } = registration;
    const claim = { id: job.id, owner: this.owner, attempts: job.attempts };
    const controller = new AbortController();
    // The attempt ends at its deadline or at shutdown, whether or not the handler listens.
    const ended = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    const timer = setTimeout(
      () => controller.abort(new Error(`timed out after ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    this.#controllers.add(controller);
    try {
      const parsed = registration.definition.kind.payload.safeParse(parsePayload(job.payload));
      // A payload of another shape (an older version's row, a hand-written one) can't be fixed by retrying.
      if (!parsed.success) throw new PermanentJobError(`invalid payload: ${parsed.error.issues[0]?.message}`);
      await Promise.race([
        registration.definition.run(parsed.data, {
          id: job.id,
          kind: job.kind,
          attempt: job.attempts,
          maxAttempts: job.max_attempts,
          signal: controller.signal,
          stopping: this.#stopping.signal,
        }),
        ended,
      ]);
    } catch (error) {
      clearTimeout(timer);
      this.#controllers.delete(controller);
      await this.#recordFailure(job, claim, options, error);
      return;
    } finally {
      clearTimeout(timer);
      this.#controllers.delete(controller);
    }
    await this.#record(job, 'record the success of', async () => {
      const now = isoNow(this.#clock);
      if (options.sensitive) return deleteClaimedJob(this.#db, claim);
      return finishClaimedJob(this.#db, claim, {
        status: 'succeeded',
        error: null,
        now,
        erasePayload: false,
      });
    });
    this.#log.debug({ job_id: job.id, kind: job.kind, attempt: job.attempts }, 'job done');
  }

  async #recordFailure(
    job: JobRow,
    claim: { id: number; owner: string; attempts: number },
    options: Required<JobKindOptions>,
    error: unknown,
  ): Promise<void> {
    const message = describeError(error);
    const now = this.#clock.now();
    if (error instanceof ShutdownError) {
      // Not the job's fault: free it for the next worker at once (here after a restart, or another instance).
      this.#log.warn({ job_id: job.id, kind: job.kind }, 'job interrupted by shutdown; released');
      await this.#record(job, 'release', () =>
        rescheduleClaimedJob(this.#db, claim, {
          runAt: now.toISOString(),
          error: message,
          now: now.toISOString(),
          refundAttempt: true,
        }),
      );
      return;
    }
    if (error instanceof RetryJobAt) {
      this.#log.debug({ job_id: job.id, kind: job.kind, run_at: error.at.toISOString() }, 'job put back');
      await this.#record(job, 'put back', () =>
        rescheduleClaimedJob(this.#db, claim, {
          runAt: error.at.toISOString(),
          error: null,
          now: now.toISOString(),
          refundAttempt: true,
        }),
      );
      return;
    }
    const final = error instanceof PermanentJobError || job.attempts >= job.max_attempts;
    const context = { job_id: job.id, kind: job.kind, attempt: job.attempts, error: message };
    if (final) {
      this.#log.error(context, 'job failed for good');
      await this.#record(job, 'record the failure of', () =>
        finishClaimedJob(this.#db, claim, {
          status: 'failed',
          error: message,
          now: now.toISOString(),
          erasePayload: options.sensitive,
        }),
      );
      return;
    }
    const delay = retryDelayMs(options.backoff, job.attempts);
    this.#log.warn({ ...context, retry_in_ms: delay }, 'job attempt failed; will retry');
    await this.#record(job, 'reschedule', () =>
      rescheduleClaimedJob(this.#db, claim, {
        runAt: addMs(now, delay).toISOString(),
        error: message,
        now: now.toISOString(),
      }),
    );
  }

  /** Writes an outcome; a lost lease or a database error leaves the job to be taken again. */
  async #record(job: JobRow, action: string, write: () => Promise<boolean>): Promise<void> {
    try {
      if (!(await write()))
        this.#log.warn({ job_id: job.id, kind: job.kind }, `job lease was lost before it could ${action} it`);
    } catch (error) {
      this.#log.error({ err: error, job_id: job.id, kind: job.kind }, `could not ${action} a job`);
    }
  }

  async #pruneNowAndThen(): Promise<void> {
    const now = nowMs(this.#clock);
    if (now - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = now;
    await pruneFinishedJobs(this.#db, dateAtMs(now - FINISHED_JOB_RETENTION_MS).toISOString());
  }
}

/** Retry n (n ≥ 1) waits `baseMs · 2^(n-1)`, capped at `maxMs`. */
export function retryDelayMs(backoff: { baseMs: number; maxMs: number }, attempt: number): number {
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, MAX_ERROR_LENGTH) || 'failed';
}

function parsePayload(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    throw new PermanentJobError('the stored payload is not JSON');
  }
}
