import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { addMs, type Clock, dateAtMs } from '../lib/clock.ts';
import type { JobDefinition, ScheduledTick } from './job-definition.ts';
import { countWaitingJobs, summarizeJobsByKind } from './job-queue.queries.ts';
import type { JobQueue } from './job-queue.ts';

interface RegistryLogger {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface JobRegistryOptions {
  queue: JobQueue;
  db: Kysely<Database>;
  clock: Clock;
  log: RegistryLogger;
}

/** A kind of background work as the admin's sync section and `/metrics` show it. */
export interface JobKindReport {
  kind: string;
  /** The cron pattern, or null when the kind runs only when enqueued (or its schedule is off). */
  schedule: string | null;
  /** The next scheduled tick, while the app runs its schedules. */
  next_run: string | null;
  waiting: number;
  running: number;
  /** Failed for good in the last 24 hours. */
  failed_last_day: number;
}

const DAY_MS = 86_400_000;

/**
 * Claims one scheduled run of a job for this instance (croner with a database lease). Every
 * instance computes the same `runAt` from the same cron pattern, so the lease row says "the run
 * at or before `until` is taken": a claim succeeds only when the row is missing or its
 * `expires_at` is at or before this run's scheduled time. One statement, so of several
 * instances ticking at once exactly one wins, on SQLite and on PostgreSQL.
 */
export async function claimScheduledRun(
  db: Kysely<Database>,
  job: { name: string; holder: string; runAt: Date; until: Date },
): Promise<boolean> {
  const runAt = job.runAt.toISOString();
  const until = job.until.toISOString();
  const result = await db
    .insertInto('job_leases')
    .values({ name: job.name, holder: job.holder, expires_at: until })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet({ holder: job.holder, expires_at: until })
        .where('job_leases.expires_at', '<=', runAt),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The scheduled time of the tick that fired at `firedAt` (croner fires a few ms late). */
export function scheduledTimeOf(cron: Cron, firedAt: Date): Date {
  return cron.previousRuns(1, addMs(firedAt, 1))[0] ?? firedAt;
}

/**
 * The one registry of background work (docs/architecture.md#background-work): every module's
 * job definitions are added here (services.ts), which registers their handlers on the durable
 * queue, runs their schedules while the app is up — each tick claimed once across instances,
 * the winner enqueuing one run — and reports every kind to `/metrics` and the admin's sync
 * section.
 */
export class JobRegistry {
  readonly #options: JobRegistryOptions;
  readonly #definitions: JobDefinition[] = [];
  readonly #crons = new Map<string, Cron>();
  readonly #ticks = new Set<Promise<void>>();

  constructor(options: JobRegistryOptions) {
    this.#options = options;
  }

  add(...definitions: JobDefinition[]): void {
    for (const definition of definitions) {
      this.#options.queue.register(definition);
      this.#definitions.push(definition);
    }
  }

  definition(kind: string): JobDefinition | undefined {
    return this.#definitions.find((definition) => definition.kind.name === kind);
  }

  /** Starts every schedule that is on (the app calls it once ready). */
  start(): void {
    for (const definition of this.#definitions) {
      const pattern = definition.schedule?.cron;
      if (!pattern || this.#crons.has(definition.kind.name)) continue;
      const cron = new Cron(pattern, { protect: true, unref: true }, (self: Cron) => {
        const firedAt = this.#options.clock.now();
        const runAt = scheduledTimeOf(self, firedAt);
        const until = self.nextRun(firedAt) ?? addMs(runAt, definition.schedule?.fallbackMs ?? 60_000);
        const tick: Promise<void> = this.tick(definition.kind.name, {
          holder: this.#options.queue.owner,
          runAt,
          until,
        }).then(
          () => {},
          (error: unknown) =>
            this.#options.log.error(
              { err: error, job: definition.kind.name },
              'a scheduled run could not be queued',
            ),
        );
        this.#ticks.add(tick);
        void tick.finally(() => this.#ticks.delete(tick));
        return tick;
      });
      this.#crons.set(definition.kind.name, cron);
    }
  }

  /** Stops the schedules; a tick in progress (one claim and one insert) finishes first. */
  async stop(): Promise<void> {
    for (const cron of this.#crons.values()) cron.stop();
    this.#crons.clear();
    await Promise.allSettled([...this.#ticks]);
  }

  /**
   * One scheduled tick of `kind`: the instance that claims it enqueues one run. Returns the job
   * id; 0 when nothing was queued (a run still waits for a worker, or the schedule had nothing
   * to do); null when another instance had the tick.
   */
  async tick(kind: string, tick: ScheduledTick): Promise<number | null> {
    const definition = this.definition(kind);
    const schedule = definition?.schedule;
    if (!definition || !schedule) throw new Error(`No scheduled job kind "${kind}"`);
    const { db, clock, queue } = this.#options;
    const log = { job: kind, run_at: tick.runAt.toISOString() };
    if (!(await claimScheduledRun(db, { name: kind, ...tick }))) {
      this.#options.log.debug(log, 'another instance took this run');
      return null;
    }
    if (schedule.skipWhileWaiting !== false && (await countWaitingJobs(db, kind, clock.now())) > 0) return 0;
    const payload = await schedule.payload(tick);
    if (payload === null) return 0;
    const id = await queue.enqueue(definition.kind, payload);
    this.#options.log.debug({ ...log, job_id: id }, 'scheduled run queued');
    return id;
  }

  /** The next tick of every schedule this instance runs (for `/metrics`). */
  nextRuns(): { kind: string; at: Date }[] {
    const now = this.#options.clock.now();
    return [...this.#crons].flatMap(([kind, cron]) => {
      const at = cron.nextRun(now);
      return at ? [{ kind, at }] : [];
    });
  }

  /** Every kind with its schedule and its jobs now (waiting, running, failed in the last day). */
  async report(): Promise<JobKindReport[]> {
    const now = this.#options.clock.now();
    const counts = new Map(
      (await summarizeJobsByKind(this.#options.db, now, dateAtMs(now.getTime() - DAY_MS))).map((row) => [
        row.kind,
        row,
      ]),
    );
    return this.#definitions
      .map((definition) => {
        const name = definition.kind.name;
        const row = counts.get(name);
        return {
          kind: name,
          schedule: definition.schedule?.cron ?? null,
          next_run: this.#crons.get(name)?.nextRun(now)?.toISOString() ?? null,
          waiting: row?.waiting ?? 0,
          running: row?.running ?? 0,
          failed_last_day: row?.failed ?? 0,
        };
      })
      .sort((a, b) => a.kind.localeCompare(b.kind));
  }
}
