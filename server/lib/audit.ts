import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface AuditEntry {
  /** Who acted; null for the scheduler and the command line. */
  actorId: number | null;
  /** Dotted verb, e.g. `admin.user.update`, `backup.create`. */
  action: string;
  /** What was acted on, e.g. `user:12`, `backup:backup-manual-….jsonl.gz`. */
  target: string | null;
  /** Structured detail, stored as JSON (never a secret). */
  detail?: Record<string, unknown>;
  /** ISO-8601 UTC. */
  at: string;
}

/**
 * One row of the security and admin event log (docs/security.md#d3, #g4). Every module writes
 * it (accounts, backups, restore), so it lives below them.
 */
export async function writeAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      target: entry.target,
      detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
      created_at: entry.at,
    })
    .execute();
}
