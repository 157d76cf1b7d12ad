import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { claimScheduledRun, scheduleRuns } from './job-lease.ts';

/** The tick's lease name: one instance per tick looks for histories to backfill. */
export const HISTORY_TICK_NAME = 'history:backfill';

/**
 * The star-history backfill's safety net (docs/architecture.md#star-history-backfill): on the
 * sync engine's schedule, the instance that claims the tick starts a run when histories are
 * due and none is waiting — repositories never backfilled (HISTORY_BACKFILL on), failures due
 * for another try, a run whose chain broke. Adds and the "Backfill history" action start runs
 * themselves.
 */
async function historyBackfill(app: FastifyInstance) {
  const pattern = app.config.syncSchedule.trim();
  if (pattern.toLowerCase() === 'off') return;
  const history = app.services.history;
  scheduleRuns(app, {
    name: HISTORY_TICK_NAME,
    pattern,
    fallbackMs: 60_000,
    run: async (tick) => {
      if (!(await claimScheduledRun(app.db, { name: HISTORY_TICK_NAME, ...tick }))) return;
      if (await history.hasDueWork()) await history.kick();
    },
    done: () => {},
    failed: 'the star history backfill could not be woken',
  });
}

export default fp(historyBackfill, { name: 'history-backfill', dependencies: ['database'] });
