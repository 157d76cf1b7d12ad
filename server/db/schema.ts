import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings on both dialects so that rows
 * look the same in SQLite and PostgreSQL and in backups.
 */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  action: string;
  target: string | null;
  detail: string | null;
  created_at: string;
}

export interface Database {
  job_leases: JobLeasesTable;
  audit_log: AuditLogTable;
}
