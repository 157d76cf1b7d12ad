import { z } from 'zod';
import { BACKUP_NAME_PATTERN, type BackupKind } from '#shared/schemas/admin.ts';
import { parseTime } from '../../lib/clock.ts';
import { isDerivedTable } from '../../repository/repository-labels.ts';

/** The `format` of the header line; anything else is not one of our backups. */
export const BACKUP_FORMAT = 'repo-tracker-backup';

/**
 * Every table of the schema in dependency order: a table comes after the tables it references,
 * so rows restore in this order and delete in reverse. `key` is the primary key, used to page
 * through a table in a stable order. A table missing here is still backed up (after these,
 * see `orderTables`), and a test fails until it is listed.
 */
export const BACKUP_TABLES: readonly { name: string; key: readonly string[] }[] = [
  { name: 'users', key: ['id'] },
  { name: 'instance_bootstrap', key: ['id'] },
  { name: 'refresh_tokens', key: ['id'] },
  { name: 'email_tokens', key: ['id'] },
  { name: 'feed_tokens', key: ['id'] },
  { name: 'api_tokens', key: ['id'] },
  { name: 'user_identities', key: ['id'] },
  { name: 'oidc_sign_in_states', key: ['id'] },
  { name: 'oidc_exchange_codes', key: ['id'] },
  { name: 'oidc_sessions', key: ['family_id'] },
  { name: 'sign_in_events', key: ['id'] },
  { name: 'job_leases', key: ['name'] },
  { name: 'audit_log', key: ['id'] },
  { name: 'saved_views', key: ['id'] },
  { name: 'repositories', key: ['id'] },
  { name: 'repository_commits', key: ['repository_id'] },
  { name: 'repository_health', key: ['repository_id'] },
  { name: 'repository_aliases', key: ['full_name_lower'] },
  { name: 'repository_access', key: ['repository_id', 'user_id'] },
  { name: 'comments', key: ['id'] },
  { name: 'versions', key: ['id'] },
  { name: 'repository_release_tracking', key: ['repository_id'] },
  { name: 'repository_releases', key: ['id'] },
  { name: 'repository_packages', key: ['repository_id', 'ecosystem', 'name'] },
  { name: 'repository_advisory_reads', key: ['repository_id'] },
  { name: 'repository_advisories', key: ['repository_id', 'ghsa_id'] },
  { name: 'repository_metrics', key: ['repository_id', 'day'] },
  { name: 'repository_history', key: ['repository_id'] },
  { name: 'repository_events', key: ['id'] },
  { name: 'decision_quadrants', key: ['key'] },
  { name: 'decision_proposals', key: ['id'] },
  { name: 'repository_decisions', key: ['id'] },
  { name: 'repository_decision_current', key: ['repository_id'] },
  { name: 'decision_votes', key: ['proposal_id', 'user_id'] },
  { name: 'decision_proposal_comments', key: ['id'] },
  { name: 'radar_at_risk_marks', key: ['repository_id', 'cause'] },
  { name: 'radar_editions', key: ['id'] },
  { name: 'radar_edition_quadrants', key: ['edition_id', 'position'] },
  { name: 'radar_edition_entries', key: ['id'] },
  { name: 'public_pages', key: ['id'] },
  { name: 'notification_channels', key: ['id'] },
  { name: 'notification_rules', key: ['id'] },
  { name: 'notification_digest_items', key: ['rule_id', 'event_id'] },
  { name: 'notification_deliveries', key: ['id'] },
];

/**
 * A column older backups have that a later migration moved into a table of its own. Restoring
 * such a backup into a database already past that migration moves each value where the migration
 * would have put it (into an empty database the backup is restored at its own version and the
 * migration itself moves them).
 */
export interface MovedColumn {
  table: string;
  column: string;
  /** The row the value becomes, or null when the migration would not have written one. */
  moveTo(row: Record<string, unknown>): { table: string; row: Record<string, unknown> } | null;
}

export const MOVED_COLUMNS: readonly MovedColumn[] = [
  {
    // Migration 2026-11-28-0300: stored commits in `repository_commits`, none stored → no row.
    table: 'repositories',
    column: 'recent_commits',
    moveTo: (row) =>
      typeof row.recent_commits === 'string' && row.recent_commits !== '[]'
        ? { table: 'repository_commits', row: { repository_id: row.id ?? null, commits: row.recent_commits } }
        : null,
  },
];

/** The moved columns a backup's table has and the database's table no longer does. */
export function movedColumnsOf(
  table: string,
  backupColumns: string[],
  databaseColumns: string[],
): MovedColumn[] {
  return MOVED_COLUMNS.filter(
    (moved) =>
      moved.table === table &&
      backupColumns.includes(moved.column) &&
      !databaseColumns.includes(moved.column),
  );
}

/** Kysely's own bookkeeping: never backed up or restored (restore runs the migrations itself). */
export function isInternalTable(name: string): boolean {
  return name.startsWith('kysely_');
}

/**
 * Work in flight, not data: never backed up, and emptied by a restore. The job queue holds
 * queued mail (one-time links, sealed) and messages about the data a restore replaces; the
 * notification dispatcher's cursor starts again after the restored events (nothing replayed).
 */
export const TRANSIENT_TABLES: readonly string[] = ['jobs', 'notification_cursors', 'repository_trash'];

/**
 * Tables a backup leaves out: Kysely's bookkeeping, the transient ones, and the catalogue's
 * derived tables (dialect-specific, such as SQLite's FTS5 index; a restore rebuilds them).
 */
export function isExcludedTable(name: string): boolean {
  return isInternalTable(name) || TRANSIENT_TABLES.includes(name) || isDerivedTable(name);
}

export interface TableInfo {
  name: string;
  columns: string[];
}

/**
 * The database's tables in restore order: the known ones in `BACKUP_TABLES` order, then any
 * others by name (a newer migration's table the list has not caught up with).
 */
export function orderTables(tables: TableInfo[]): (TableInfo & { key: readonly string[] | null })[] {
  const byName = new Map(tables.filter((table) => !isExcludedTable(table.name)).map((t) => [t.name, t]));
  const ordered: (TableInfo & { key: readonly string[] | null })[] = [];
  for (const known of BACKUP_TABLES) {
    const table = byName.get(known.name);
    if (!table) continue;
    ordered.push({ ...table, key: known.key });
    byName.delete(known.name);
  }
  for (const table of [...byName.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    ordered.push({ ...table, key: table.columns.includes('id') ? ['id'] : null });
  }
  return ordered;
}

export const backupHeaderSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  /** The name of the newest migration the source database had run. */
  schema_version: z.string().min(1),
  created: z.string(),
  dialect: z.enum(['sqlite', 'postgres']),
  tables: z.array(
    z.object({
      name: z.string().min(1),
      columns: z.array(z.string()),
      rows: z.number().int().nonnegative(),
    }),
  ),
});
export type BackupHeader = z.infer<typeof backupHeaderSchema>;

export const backupRowLineSchema = z.object({
  table: z.string().min(1),
  row: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

/**
 * `backup-manual-2026-11-22T09-30-00Z.jsonl.gz`; `seq` > 0 adds `-<seq>` for same-second names.
 * The counter is one per second across both kinds (`nextSeq`), so it orders a second's backups.
 */
export function backupFileName(kind: BackupKind, at: Date, seq = 0): string {
  const stamp = at.toISOString().slice(0, 19).replaceAll(':', '-');
  return `backup-${kind}-${stamp}Z${seq > 0 ? `-${seq}` : ''}.jsonl.gz`;
}

export interface ParsedBackupName {
  kind: BackupKind;
  /** ISO-8601 UTC of the moment the backup was taken (to the second). */
  created: string;
  seq: number;
}

/** The parts of a server-chosen backup name, or null for any other name. */
export function parseBackupName(name: string): ParsedBackupName | null {
  const match = BACKUP_NAME_PATTERN.exec(name);
  if (!match) return null;
  const [, kind, date, hours, minutes, seconds, seq] = match;
  const created = parseTime(`${date}T${hours}:${minutes}:${seconds}Z`);
  if (Number.isNaN(created.getTime())) return null;
  return { kind: kind as BackupKind, created: created.toISOString(), seq: seq ? Number(seq) : 0 };
}

/**
 * The counter for a new backup taken in the second of `created`: one past the highest any backup
 * of either kind took in that second, so a manual backup after two automatic ones is `-2`, and
 * lists before them.
 */
export function nextSeq(existing: Iterable<ParsedBackupName>, created: string): number {
  let next = 0;
  for (const parsed of existing) if (parsed.created === created) next = Math.max(next, parsed.seq + 1);
  return next;
}

/**
 * Newest first: by the second, then by the second's counter, which is shared by both kinds. Two
 * names alike in both (only names from before the counter was shared, or two backups taken at
 * the same instant) list manual before automatic, so the order never depends on the folder's.
 */
export function compareNewestFirst(a: ParsedBackupName, b: ParsedBackupName): number {
  if (a.created !== b.created) return a.created < b.created ? 1 : -1;
  if (a.seq !== b.seq) return b.seq - a.seq;
  if (a.kind === b.kind) return 0;
  return a.kind === 'manual' ? -1 : 1;
}
