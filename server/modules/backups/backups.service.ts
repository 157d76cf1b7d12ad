import { randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { chmod, link, mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { AUTO_BACKUPS_KEPT } from '#shared/constants.ts';
import type { Backup, BackupKind } from '#shared/schemas/admin.ts';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import {
  backupFileName,
  compareNewestFirst,
  nextSeq,
  type ParsedBackupName,
  parseBackupName,
} from './backup-format.ts';
import { verifyBackup, writeBackup } from './backup-stream.ts';

export interface BackupDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  /** BACKUP_DIR: created with mode 0700 when missing. */
  dir: string;
  log?: FastifyBaseLogger;
}

export interface CreatedBackup {
  name: string;
  path: string;
  size_bytes: number;
  rows: number;
  /** Automatic backups removed by rotation. */
  rotated: string[];
}

/** Same-second names get a counter; past this many something is wrong. */
const MAX_SAME_SECOND = 999;

/**
 * Backups in BACKUP_DIR (docs/security.md#f2): names chosen here, files written under a
 * temporary name with mode 0600, read back and checked, then published atomically (a hard link
 * never replaces an existing file). Only names matching the strict pattern are ever listed,
 * read or deleted, so no request can reach outside the folder.
 */
export class BackupService {
  readonly #deps: BackupDeps;
  readonly dir: string;

  constructor(deps: BackupDeps) {
    this.#deps = deps;
    this.dir = resolve(deps.dir);
  }

  async create(kind: BackupKind, actorId: number | null): Promise<CreatedBackup> {
    const { db, dialect, clock } = this.#deps;
    await this.#ensureDir();
    const at = clock.now();
    const temporary = join(this.dir, `.backup-${randomUUID()}.tmp`);
    try {
      const handle = await open(temporary, 'wx', 0o600);
      const { rows } = await writeBackup(db, dialect, at, handle.createWriteStream());
      await syncFile(temporary);
      // The integrity check: the file must read back whole, with every table's row count.
      await verifyBackup(temporary);
      const name = await this.#publish(temporary, kind, at);
      const path = join(this.dir, name);
      const { size } = await stat(path);
      await syncDir(this.dir);
      await writeAudit(db, {
        actorId,
        action: 'backup.create',
        target: `backup:${name}`,
        detail: { kind, size_bytes: size, rows },
        at: isoNow(clock),
      });
      const rotated = kind === 'auto' ? await this.rotate() : [];
      this.#deps.log?.info({ backup: name, size_bytes: size, rows, rotated }, 'backup written');
      return { name, path, size_bytes: size, rows, rotated };
    } finally {
      await rm(temporary, { force: true });
    }
  }

  /** Every backup, newest first. */
  async list(): Promise<Backup[]> {
    const entries = await this.#entries();
    const backups: Backup[] = [];
    for (const { name, parsed } of entries) {
      try {
        const info = await stat(join(this.dir, name));
        if (!info.isFile()) continue;
        backups.push({
          name,
          size_bytes: info.size,
          created: parsed.created,
          compressed: true,
          kind: parsed.kind,
        });
      } catch {
        // Deleted between readdir and stat.
      }
    }
    return backups;
  }

  /** A backup file for download: an open stream and its size. 400 for a foreign name, 404 if gone. */
  async open(name: string): Promise<{ stream: ReadStream; size_bytes: number }> {
    const path = this.#pathOf(name);
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) throw notFound(BACKUP_NOT_FOUND);
      size = info.size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(BACKUP_NOT_FOUND);
      throw error;
    }
    return { stream: createReadStream(path), size_bytes: size };
  }

  async remove(name: string, actorId: number | null): Promise<void> {
    const path = this.#pathOf(name);
    try {
      await rm(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(BACKUP_NOT_FOUND);
      throw error;
    }
    await writeAudit(this.#deps.db, {
      actorId,
      action: 'backup.delete',
      target: `backup:${name}`,
      at: isoNow(this.#deps.clock),
    });
  }

  /** Keeps the newest AUTO_BACKUPS_KEPT automatic backups; manual ones are never rotated. */
  async rotate(): Promise<string[]> {
    const autos = (await this.#entries()).filter((entry) => entry.parsed.kind === 'auto');
    const removed: string[] = [];
    for (const { name } of autos.slice(AUTO_BACKUPS_KEPT)) {
      await rm(join(this.dir, name), { force: true });
      removed.push(name);
    }
    return removed;
  }

  /** Names matching the pattern, newest first. */
  async #entries(): Promise<{ name: string; parsed: ParsedBackupName }[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names
      .map((name) => ({ name, parsed: parseBackupName(name) }))
      .filter((entry): entry is { name: string; parsed: ParsedBackupName } => entry.parsed !== null)
      .sort((a, b) => compareNewestFirst(a.parsed, b.parsed));
  }

  #pathOf(name: string): string {
    if (!parseBackupName(name)) throw badRequest(INVALID_NAME);
    const path = resolve(this.dir, name);
    // Belt and braces: the pattern admits no separator or dot-dot, so this always holds.
    if (dirname(path) !== this.dir) throw badRequest(INVALID_NAME);
    return path;
  }

  async #ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const info = await stat(this.dir);
    // Backups hold password hashes and sealed secrets: nobody else may list or read them.
    if ((info.mode & 0o077) !== 0 && info.uid === process.getuid?.()) await chmod(this.dir, 0o700);
  }

  /**
   * Links the finished file to its final name; never replaces an existing backup. The same-second
   * counter continues after every backup of that second, of either kind, so the name alone says
   * which came later.
   */
  async #publish(temporary: string, kind: BackupKind, at: Date): Promise<string> {
    const second = parseBackupName(backupFileName(kind, at))?.created ?? '';
    const first = nextSeq(
      (await this.#entries()).map((entry) => entry.parsed),
      second,
    );
    for (let seq = first; seq <= MAX_SAME_SECOND; seq += 1) {
      const name = backupFileName(kind, at, seq);
      try {
        await link(temporary, join(this.dir, name));
        return name;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new Error('Too many backups within one second');
  }
}

export const BACKUP_NOT_FOUND = 'Backup not found';
export const INVALID_NAME = 'Invalid backup name';

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems can't fsync a directory; the file itself is already on disk.
  }
}
