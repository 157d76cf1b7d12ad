import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { NewEvent } from '#shared/schemas/activity.ts';
import type { HealthGrade } from '#shared/schemas/health.ts';
import { AT_RISK_CAUSES, type AtRiskCause, IN_USE_STATUSES, type RadarRing } from '#shared/schemas/radar.ts';
import type { CatalogueChanges } from '../../changes/catalogue-changes.ts';
import { inTransaction } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { jobKind } from '../../jobs/job-definition.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import * as queries from './radar.queries.ts';

export const atRiskJob = jobKind('radar:at-risk', z.object({}));

type Db = Kysely<Database>;

export interface AtRiskDeps {
  db: Db;
  clock: Clock;
  /** The open high and critical advisories per repository (the advisories module's `open`). */
  openSevere: (db: Db, repositoryIds: readonly number[]) => Promise<Map<number, string[]>>;
  /** Records activity events in the caller's transaction (the activity module's recorder). */
  recordEvents: (trx: Db, events: NewEvent[], now: string) => Promise<void>;
}

/** Why one repository is at risk, with the advisories behind the `advisory` cause. */
export interface AtRisk {
  causes: AtRiskCause[];
  advisoryIds: string[];
}

/** What a check would change: marks to add (one event each) and marks whose cause went away. */
interface Plan {
  add: Array<{ repositoryId: number; cause: AtRiskCause; status: RadarRing; grade: HealthGrade | null }>;
  remove: Array<{ repositoryId: number; cause: string }>;
  advisories: Map<number, string[]>;
}

/** The causes a grade and open severe advisories give, in AT_RISK_CAUSES order. */
export function causesOf(grade: HealthGrade | null, advisoryIds: readonly string[]): AtRiskCause[] {
  return AT_RISK_CAUSES.filter((cause) =>
    cause === 'health_at_risk'
      ? grade === 'at_risk'
      : cause === 'archived'
        ? grade === 'archived'
        : advisoryIds.length > 0,
  );
}

const isInUse = (status: string | null): status is RadarRing =>
  (IN_USE_STATUSES as readonly string[]).includes(status ?? '');

/**
 * Adopted but at risk (docs/product.md#the-radar): a repository in adopt or trial whose health
 * grade is at_risk or archived, or with an open high or critical advisory. Each cause is an
 * `adopted_at_risk` event once per repository: a mark (repository, cause) is written in the
 * event's transaction, only when no run wrote it first, and removed when the cause goes away (or
 * the repository leaves adopt and trial), so a later return is news again.
 */
export class AtRiskService {
  readonly #deps: AtRiskDeps;

  constructor(deps: AtRiskDeps) {
    this.#deps = deps;
  }

  /** The job's run: every in-use repository and every mark, in a transaction of its own. */
  async checkAll(): Promise<{ recorded: number; cleared: number }> {
    return this.check(this.#deps.db, null);
  }

  /** The causes of each in-use row (others have none), read with `db`. */
  async causesFor(
    db: Db,
    rows: ReadonlyArray<{ id: number; status: string | null; health_grade: HealthGrade | null }>,
  ): Promise<Map<number, AtRisk>> {
    const inUse = rows.filter((row) => isInUse(row.status));
    const advisories = await this.#deps.openSevere(
      db,
      inUse.map((row) => row.id),
    );
    const found = new Map<number, AtRisk>();
    for (const row of inUse) {
      const advisoryIds = advisories.get(row.id) ?? [];
      const causes = causesOf(row.health_grade, advisoryIds);
      if (causes.length > 0) found.set(row.id, { causes, advisoryIds });
    }
    return found;
  }

  /** Whether a check would record or clear anything (the job's schedule asks). */
  async pending(): Promise<boolean> {
    const plan = await this.#plan(this.#deps.db, null);
    return plan.add.length + plan.remove.length > 0;
  }

  /**
   * Checks these repositories (every in-use one and every mark when null) in `db`'s transaction
   * or a new one: new causes recorded, gone ones cleared.
   */
  async check(db: Db, ids: readonly number[] | null): Promise<{ recorded: number; cleared: number }> {
    return inTransaction(db, async (trx) => {
      const plan = await this.#plan(trx, ids);
      const now = isoNow(this.#deps.clock);
      for (const mark of plan.remove) await queries.removeMark(trx, mark.repositoryId, mark.cause);
      const events: NewEvent[] = [];
      for (const mark of plan.add) {
        if (!(await queries.addMark(trx, mark.repositoryId, mark.cause, now))) continue;
        const advisoryIds = plan.advisories.get(mark.repositoryId) ?? [];
        events.push({
          type: 'adopted_at_risk',
          repository_id: mark.repositoryId,
          data: {
            cause: mark.cause,
            status: mark.status,
            health_grade: mark.grade,
            ...(mark.cause === 'advisory' ? { advisory_ids: advisoryIds } : {}),
          },
        });
      }
      if (events.length > 0) await this.#deps.recordEvents(trx, events, now);
      return { recorded: events.length, cleared: plan.remove.length };
    });
  }

  /**
   * After a decision's events (the decisions module's recorder, in its transaction): the
   * repositories whose status or quadrant moved are checked at once, so a move into adopt or
   * trial of a repository already at risk is news now, and a move out clears its marks.
   */
  async afterDecisionEvents(trx: Db, events: readonly NewEvent[]): Promise<void> {
    const moved = events.flatMap((event) => (event.type === 'decision_changed' ? [event.repository_id] : []));
    if (moved.length > 0) await this.check(trx, moved);
  }

  /** A sync wrote the repository (after health and advisories judged it again): checked. */
  async synced(change: CatalogueChanges['repository.synced'], trx: Db): Promise<void> {
    await this.check(trx, [change.after.id]);
  }

  async #plan(db: Db, ids: readonly number[] | null): Promise<Plan> {
    const rows = await queries.listPlacements(db, {
      viewer: null,
      statuses: IN_USE_STATUSES,
      ...(ids === null ? {} : { ids }),
    });
    const atRisk = await this.causesFor(db, rows);
    const marks = await queries.listMarks(db, ids);
    const marked = new Set(marks.map((mark) => `${mark.repository_id}:${mark.cause}`));
    const add: Plan['add'] = [];
    const advisories = new Map<number, string[]>();
    for (const row of rows) {
      const found = atRisk.get(row.id);
      if (!found || !isInUse(row.status)) continue;
      advisories.set(row.id, found.advisoryIds);
      for (const cause of found.causes)
        if (!marked.has(`${row.id}:${cause}`))
          add.push({ repositoryId: row.id, cause, status: row.status, grade: row.health_grade });
    }
    const remove = marks
      .filter(
        (mark) => !(atRisk.get(mark.repository_id)?.causes as string[] | undefined)?.includes(mark.cause),
      )
      .map((mark) => ({ repositoryId: mark.repository_id, cause: mark.cause }));
    return { add, remove, advisories };
  }
}
