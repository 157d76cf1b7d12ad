import type { Kysely } from 'kysely';
import type { NewEvent } from '#shared/schemas/activity.ts';
import type { CatalogueChanges } from '../../changes/catalogue-changes.ts';
import type { Database } from '../../db/schema.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { detectAddEvents, detectGoneEvents, detectSnapshotEvents, historyNeeded } from './detect-events.ts';
import * as queries from './events.queries.ts';

type Db = Kysely<Database>;

export interface ActivityRecorderDeps {
  clock: Clock;
  /** STALE_AFTER_DAYS: days without a commit before a repository is reported stale. */
  staleAfterDays: number;
  /**
   * Whether the team marked the repository finished (docs/health.md): no `stale` event then.
   * Asked only when a repository is stale.
   */
  isFinished?: (trx: Db, repositoryId: number) => Promise<boolean>;
}

/**
 * Turns catalogue changes into activity events (docs/product.md#activity), inside the change's
 * own transaction (services.ts subscribes it to the bus): an event exists exactly when its
 * change does.
 */
export class ActivityRecorder {
  readonly #deps: ActivityRecorderDeps;
  /**
   * The detection time of each transaction that recorded events: every event one transaction
   * records (a sync's releases and what else it saw) shares it, which is how "one sync" is
   * recognised (docs/product.md#activity). Kept only for transactions, and dropped with them.
   */
  readonly #detectedAt = new WeakMap<Db, string>();

  constructor(deps: ActivityRecorderDeps) {
    this.#deps = deps;
  }

  /** Events another module detected (a release published), in the caller's transaction. */
  async record(trx: Db, events: readonly NewEvent[], now: string): Promise<void> {
    await queries.insertEvents(trx, events, this.#detectionTime(trx, now));
  }

  /** The transaction's detection time: the first `now` it recorded events at. */
  #detectionTime(trx: Db, now: string): string {
    if (!trx.isTransaction) return now;
    const known = this.#detectedAt.get(trx);
    if (known !== undefined) return known;
    this.#detectedAt.set(trx, now);
    return now;
  }

  /** A repository joined the catalogue (every add path: single, batch, import, queued). */
  async added(change: CatalogueChanges['repository.added'], trx: Db): Promise<void> {
    await queries.insertEvents(
      trx,
      detectAddEvents(change.repository.id, change.actor),
      this.#detectionTime(trx, isoNow(this.#deps.clock)),
    );
  }

  /**
   * A refresh: what changed between the stored row and GitHub's snapshot; flagged gone, the
   * first time only. The repository's past events are read only when a milestone is crossed or
   * it is stale now.
   */
  async synced(change: CatalogueChanges['repository.synced'], trx: Db): Promise<void> {
    const { before, after, snapshot } = change;
    const now = this.#deps.clock.now();
    if (after.gone === 1) {
      await queries.insertEvents(trx, detectGoneEvents(before), this.#detectionTime(trx, now.toISOString()));
      return;
    }
    if (!snapshot) return;
    const options = { now, staleAfterDays: this.#deps.staleAfterDays };
    const needs = historyNeeded(before, snapshot, now, options.staleAfterDays);
    const history = {
      milestonesFired: needs.milestones ? await queries.listFiredMilestones(trx, before.id) : [],
      lastStaleCommit: needs.stale ? await queries.findLastStaleCommit(trx, before.id) : undefined,
    };
    let events = detectSnapshotEvents(before, snapshot, { ...options, history });
    if (events.some((event) => event.type === 'stale') && (await this.#deps.isFinished?.(trx, before.id)))
      events = events.filter((event) => event.type !== 'stale');
    await queries.insertEvents(trx, events, this.#detectionTime(trx, now.toISOString()));
  }
}
