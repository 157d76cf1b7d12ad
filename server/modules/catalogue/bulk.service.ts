import type { Kysely } from 'kysely';
import { normalizeTags } from '#shared/repository-input.ts';
import type { BulkAction, BulkResponse, BulkResult } from '#shared/schemas/bulk.ts';
import type { Database } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import { scheduleAt } from '../../repository/repository.queries.ts';
import { syncDueJob } from '../sync/sync.service.ts';
import type { CatalogueService } from './catalogue.service.ts';

export interface BulkDeps {
  db: Kysely<Database>;
  catalogue: CatalogueService;
  jobs: JobQueue;
  clock: Clock;
}

/**
 * One action over the list's selection (docs/product.md#bulk-actions), each repository on its
 * own: one that can't be changed (hidden, gone from the catalogue, another member's to delete)
 * is a failed result with the reason, and the rest go ahead.
 */
export class BulkService {
  readonly #deps: BulkDeps;

  constructor(deps: BulkDeps) {
    this.#deps = deps;
  }

  async run(viewer: Viewer, items: readonly string[], action: BulkAction, tags = ''): Promise<BulkResponse> {
    const results: BulkResult[] = [];
    let queuedSync = false;
    for (const fullName of new Set(items)) {
      try {
        results.push(await this.#one(viewer, fullName, action, tags));
        if (action === 'sync') queuedSync = true;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ id: fullName, ok: false, status: 'failed', error: error.message });
      }
    }
    // One engine run takes every repository made due above, within GitHub's pace.
    if (queuedSync) await this.#deps.jobs.enqueue(syncDueJob, {});
    const failed = results.filter((result) => !result.ok).length;
    return { results, succeeded: results.length - failed, failed };
  }

  async #one(viewer: Viewer, fullName: string, action: BulkAction, tags: string): Promise<BulkResult> {
    const { catalogue, db, clock } = this.#deps;
    switch (action) {
      case 'delete':
        await catalogue.remove(viewer, fullName);
        return { id: fullName, ok: true, status: 'done' };
      case 'sync': {
        const row = await resolveVisible(db, viewer, fullName);
        await scheduleAt(db, row.id, clock.now());
        return { id: row.full_name, ok: true, status: 'queued' };
      }
      case 'add_tags':
      case 'remove_tags': {
        const row = await resolveVisible(db, viewer, fullName);
        const next = action === 'add_tags' ? addTags(row.tags, tags) : removeTags(row.tags, tags);
        if (next !== row.tags) await catalogue.edit(viewer, row, { tags: next });
        return { id: row.full_name, ok: true, status: 'done' };
      }
    }
  }
}

export function addTags(current: string, added: string): string {
  return normalizeTags(`${current},${added}`);
}

export function removeTags(current: string, removed: string): string {
  const gone = new Set(removed.split(',').map((tag) => tag.trim().toLowerCase()));
  return normalizeTags(
    current
      .split(',')
      .filter((tag) => !gone.has(tag.trim().toLowerCase()))
      .join(','),
  );
}
