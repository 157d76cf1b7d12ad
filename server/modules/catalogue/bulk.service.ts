import type { Kysely } from 'kysely';
import { normalizeTags } from '../../../shared/repository-input.ts';
import type { BulkAction, BulkResponse, BulkResult } from '../../../shared/schemas/bulk.ts';
import type { RepositorySummary } from '../../../shared/schemas/repositories.ts';
import type { Database } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CatalogueService } from './catalogue.service.ts';
import { presentSummary } from '../../repository/repository-presenter.ts';
import type { Viewer } from '../../repository/repository.queries.ts';
import * as queries from '../../repository/repository.queries.ts';
import { SYNC_DUE_JOB } from '../sync/sync.jobs.ts';
import { scheduleAt } from '../sync/sync-state.queries.ts';

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
    if (queuedSync) await this.#deps.jobs.enqueue(SYNC_DUE_JOB, {});
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
        const row = await catalogue.resolve(viewer, fullName);
        await scheduleAt(db, row.id, clock.now());
        return { id: row.full_name, ok: true, status: 'queued' };
      }
      case 'add_tags':
      case 'remove_tags': {
        const row = await catalogue.resolve(viewer, fullName);
        const next = action === 'add_tags' ? addTags(row.tags, tags) : removeTags(row.tags, tags);
        if (next !== row.tags) await catalogue.updateMetadata(viewer, row.full_name, { tags: next });
        return { id: row.full_name, ok: true, status: 'done' };
      }
    }
  }

  /** The selection's rows the caller may see, in the order given, for the CSV export. */
  async *exportRows(viewer: Viewer, items: readonly string[]): AsyncGenerator<RepositorySummary> {
    for (const fullName of new Set(items)) {
      let row: Awaited<ReturnType<CatalogueService['resolve']>>;
      try {
        row = await this.#deps.catalogue.resolve(viewer, fullName);
      } catch (error) {
        if (error instanceof AppError) continue;
        throw error;
      }
      const summary = await queries.findSummary(this.#deps.db, row.id);
      if (summary) yield presentSummary(summary);
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
