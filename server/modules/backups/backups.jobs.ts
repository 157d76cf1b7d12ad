import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { defineJob, type JobDefinition, jobKind } from '../../jobs/job-definition.ts';
import type { BackupService } from './backups.service.ts';

/** An automatic backup (rotation keeps the newest AUTO_BACKUPS_KEPT). */
export const autoBackupJob = jobKind('backup:auto', z.object({}));

/**
 * Automatic backups on BACKUP_SCHEDULE (default `0 3 * * *`, server local time; `off` turns the
 * schedule off), once per tick across every instance sharing the database.
 */
export function backupJobs(deps: {
  backups: BackupService;
  schedule: string | null;
  log: FastifyBaseLogger;
}): JobDefinition[] {
  return [
    defineJob({
      kind: autoBackupJob,
      run: async () => {
        const created = await deps.backups.create('auto', null);
        deps.log.info({ job: autoBackupJob.name, backup: created.name }, 'scheduled backup done');
      },
      // A backup of a large catalogue may take minutes; a failed one waits for the next tick.
      retry: { maxAttempts: 1, timeoutMs: 30 * 60_000 },
      schedule: { cron: deps.schedule, fallbackMs: 86_400_000, payload: () => ({}) },
    }),
  ];
}
