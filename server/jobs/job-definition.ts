import type { z } from 'zod';

/**
 * Background work as data (docs/architecture.md#background-work). A job kind is a name and the
 * zod schema of its payload: producers enqueue by kind (the payload is validated then), and the
 * queue validates it again before the handler runs, so a row written by an older version or by
 * hand can't reach a handler in a shape it doesn't expect. Kinds live in their module's
 * `<module>.jobs.ts`, which imports no service, so any module may enqueue another's work.
 */
export interface JobKind<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly payload: S;
}

export function jobKind<S extends z.ZodType>(name: string, payload: S): JobKind<S> {
  return { name, payload };
}

/** One scheduled tick, as every instance computes it from the same cron pattern. */
export interface ScheduledTick {
  /** This instance, as the lease row names it. */
  holder: string;
  /** The tick's scheduled time. */
  runAt: Date;
  /** The next tick (the lease lasts until then). */
  until: Date;
}

/**
 * When a job runs by itself. Every instance ticks; the registry claims each tick once across
 * instances (a row in `job_leases`) and the winner enqueues one run.
 */
export interface JobSchedule<P> {
  /** The cron pattern, or null when the configuration turns the schedule off (parsed in config.ts). */
  cron: string | null;
  /** The lease's length when the pattern names no next run. */
  fallbackMs?: number;
  /** The payload of the run this tick enqueues, or null when there is nothing to do. */
  payload: (tick: ScheduledTick) => P | null | Promise<P | null>;
  /** A tick enqueues nothing while a run of the kind still waits for a worker (default true). */
  skipWhileWaiting?: boolean;
}

/** What a module exports for each kind of its background work. */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  kind: JobKind<S>;
  run: (payload: z.output<S>, context: JobContext) => Promise<void>;
  /** Attempts, deadline, back-off and whether the payload is secret (see JobKindOptions). */
  retry?: JobKindOptions;
  schedule?: JobSchedule<z.input<S>>;
}

/** Types a definition against its kind's schema. */
export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

export interface JobContext {
  id: number;
  kind: string;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the attempt's deadline passes, or when shutdown can wait no longer; handlers pass it on to their I/O. */
  signal: AbortSignal;
  /**
   * Aborted as soon as the app starts shutting down: a long run stops between items, hands back
   * what it holds (leases) and returns, so the process exits within its grace; what it left is
   * due again for the next start.
   */
  stopping: AbortSignal;
}

export interface JobKindOptions {
  /** Attempts before the job fails for good (default 8). */
  maxAttempts?: number;
  /** One attempt's deadline (default 60 s); the lease lasts this plus a margin. */
  timeoutMs?: number;
  /** Delay before retry n is `baseMs · 2^(n-1)`, at most `maxMs` (default 10 s doubling, up to 1 h). */
  backoff?: { baseMs: number; maxMs: number };
  /**
   * The payload holds secrets (one-time links): the row is deleted once the job succeeds, and
   * its payload erased when it fails for good, so no secret outlives its use.
   */
  sensitive?: boolean;
}
