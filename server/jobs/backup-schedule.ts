import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { BackupService } from '../modules/backups/backups.service.ts';
import { createBackupService } from '../modules/backups/create-backup-service.ts';
import { claimScheduledRun, scheduledTimeOf } from './job-lease.ts';

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
  app: Pick<FastifyInstance, 'db' | 'log'>,
  service: BackupService,
  tick: { holder: string; runAt: Date; until: Date },
): Promise<string | null> {
  const claimed = await claimScheduledRun(app.db, { name: BACKUP_JOB_NAME, ...tick });
  if (!claimed) {
    app.log.debug(
      { job: BACKUP_JOB_NAME, run_at: tick.runAt.toISOString() },
      'another instance took this run',
    );
    return null;
  }
  const created = await service.create('auto', null);
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
  const service = createBackupService(app);
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let job: Cron | undefined;
  let running: Promise<void> = Promise.resolve();

  app.addHook('onReady', async () => {
    job = new Cron(app.config.backupSchedule.trim(), { protect: true, unref: true }, (self: Cron) => {
      const firedAt = new Date();
      const runAt = scheduledTimeOf(self, firedAt);
      const until = self.nextRun(firedAt) ?? new Date(runAt.getTime() + 86_400_000);
      running = runScheduledBackup(app, service, { holder, runAt, until }).then(
        (name) => {
          if (name) app.log.info({ job: BACKUP_JOB_NAME, backup: name }, 'scheduled backup done');
        },
        (error: unknown) => app.log.error({ err: error, job: BACKUP_JOB_NAME }, 'scheduled backup failed'),
      );
      return running;
    });
  });

  app.addHook('onClose', async () => {
    job?.stop();
    await running;
  });
}

export default fp(backupSchedule, { name: 'backup-schedule', dependencies: ['database', 'auth'] });
