import type { FastifyInstance } from 'fastify';
import { BackupService } from './backups.service.ts';

/** The backup service of a built app: its database, clock and BACKUP_DIR. */
export function createBackupService(app: FastifyInstance): BackupService {
  return new BackupService({
    db: app.db,
    dialect: app.dbDialect,
    clock: app.clock,
    dir: app.config.backupDir,
    log: app.log,
  });
}
