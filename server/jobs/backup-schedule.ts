import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { claimScheduledRun, type ScheduledTick, scheduleRuns } from './job-lease.ts';

export const BACKUP_JOB_NAME = 'backup:auto';

/** `BACKUP_SCHEDULE` as croner reads it, or null for `off`; throws a readable error otherwise. */
export function parseBackupSchedule(pattern: string): Cron | null {
  if (pattern.trim().toLowerCase() === 'off') return null;
  try {
    return new Cron(pattern.trim(), { paused: true });
  } catch (error) {
    throw new Error(
      `BACKUP_SCHEDULE "${pattern}" is not a cron pattern (${error instanceof Error ? error.message : String(error)}); use e.g. "0 3 * * *", or "off"`,
    );
  }
}

/**
 * One scheduled run: the instance that claims this tick's lease takes an automatic backup (and
 * rotation keeps the newest ten); the others skip it. Returns the backup name, or null when
 * another instance had the tick.
 */
export async function runScheduledBackup(
  app: Pick<FastifyInstance, 'db' | 'log' | 'services'>,
  tick: ScheduledTick,
): Promise<string | null> {
  const claimed = await claimScheduledRun(app.db, { name: BACKUP_JOB_NAME, ...tick });
  if (!claimed) {
    app.log.debug(
      { job: BACKUP_JOB_NAME, run_at: tick.runAt.toISOString() },
      'another instance took this run',
    );
    return null;
  }
  const created = await app.services.backups.create('auto', null);
  return created.name;
}

/**
 * Automatic backups on BACKUP_SCHEDULE (default `0 3 * * *`, server local time; `off` disables),
 * once per tick across every instance sharing the database. Starts when the app is ready and
 * stops (waiting for a run in progress) when it closes.
 */
async function backupSchedule(app: FastifyInstance) {
  const pattern = parseBackupSchedule(app.config.backupSchedule);
  if (!pattern) return;
  pattern.stop();
  scheduleRuns(app, {
    name: BACKUP_JOB_NAME,
    pattern: app.config.backupSchedule.trim(),
    fallbackMs: 86_400_000,
    run: (tick) => runScheduledBackup(app, tick),
    done: (name) => {
      if (name) app.log.info({ job: BACKUP_JOB_NAME, backup: name }, 'scheduled backup done');
    },
    failed: 'scheduled backup failed',
  });
}

export default fp(backupSchedule, { name: 'backup-schedule', dependencies: ['database'] });
