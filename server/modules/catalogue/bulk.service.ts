import type { Kysely } from 'kysely';
import { normalizeTags } from '#shared/repository-input.ts';
import {
  type BulkBody,
  type BulkResponse,
  type BulkResult,
  bulkDecisionSchema,
} from '#shared/schemas/bulk.ts';
import type { DecisionBody } from '#shared/schemas/decisions.ts';
import type { Database } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import { scheduleAt } from '../../repository/repository.queries.ts';
import type { DecisionsService } from '../decisions/decisions.service.ts';
import { syncDueJob } from '../sync/sync.service.ts';
import type { CatalogueService } from './catalogue.service.ts';

export interface BulkDeps {
  db: Kysely<Database>;
  catalogue: CatalogueService;
  /** The set_status action: each repository's decision record, as `PUT …/decision` writes it. */
  decisions: DecisionsService;
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

  async run(viewer: Viewer, body: BulkBody): Promise<BulkResponse> {
    const { action, items } = body;
    const tags = body.tags ?? '';
    let decision: DecisionBody | null = null;
    if (action === 'set_status') {
      // Checked once for all: who may decide (403) and the quadrant and review date (400).
      decision = bulkDecisionSchema.parse(body);
      await this.#deps.decisions.checkDecider(viewer, decision);
    }
    const results: BulkResult[] = [];
    let queuedSync = false;
    for (const fullName of new Set(items)) {
      try {
        results.push(await this.#one(viewer, fullName, action, tags, decision));
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

  async #one(
    viewer: Viewer,
    fullName: string,
    action: BulkBody['action'],
    tags: string,
    decision: DecisionBody | null,
  ): Promise<BulkResult> {
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
      case 'set_status': {
        // Its own record, transaction and events, as one `PUT /repositories/{id}/decision`.
        const record = await this.#deps.decisions.decide(viewer, fullName, decision as DecisionBody);
        return { id: record.repository_id, ok: true, status: 'done' };
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
