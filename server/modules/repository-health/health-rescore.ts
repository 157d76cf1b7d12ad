import type { Kysely } from 'kysely';
import type { NewEvent } from '#shared/schemas/activity.ts';
import { inTransaction } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { type Clock, nowMs } from '../../lib/clock.ts';
import * as queries from './health.queries.ts';
import {
  assessHealth,
  FORMULA_VERSION,
  gradeDropped,
  type HealthInputs,
  isRankedGrade,
} from './health-formula.ts';

/** Repositories scored again per transaction after a formula change. */
const RESCORE_BATCH = 500;

/**
 * Scores every repository again whose health an older formula version scored (after an
 * upgrade), from its stored inputs: no GitHub call. A grade that falls is a `health_dropped`
 * event as any other. Returns how many were scored, and whether none is left.
 */
export async function rescoreOutdated(
  deps: {
    db: Kysely<Database>;
    clock: Clock;
    recordEvents: (trx: Kysely<Database>, events: NewEvent[], now: string) => Promise<void>;
  },
  options: { deadline: number; signal?: AbortSignal },
): Promise<{ rescored: number; done: boolean }> {
  const { db, clock } = deps;
  let rescored = 0;
  let after = 0;
  while (nowMs(clock) < options.deadline && !options.signal?.aborted) {
    const rows = await queries.outdatedHealth(db, FORMULA_VERSION, after, RESCORE_BATCH);
    if (rows.length === 0) return { rescored, done: true };
    const now = clock.now();
    const computedAt = now.toISOString();
    await inTransaction(db, async (trx) => {
      // One statement for the batch's scores, the list's columns and the day's metrics.
      const scored = rows.map((row) => {
        const inputs = JSON.parse(row.inputs) as HealthInputs;
        const result = assessHealth(
          inputs,
          now,
          row.override_reason ? { reason: row.override_reason } : null,
        );
        return { row, result };
      });
      await queries.updateScores(
        trx,
        scored.map(({ row, result }) => ({
          repository_id: row.repository_id,
          score: result.score,
          grade: result.grade,
          signals: JSON.stringify(result.signals),
        })),
        FORMULA_VERSION,
        computedAt,
      );
      for (const { row, result } of scored) {
        if (!isRankedGrade(row.grade) || !gradeDropped(row.grade, result.grade)) continue;
        await deps.recordEvents(
          trx,
          [
            {
              type: 'health_dropped',
              repository_id: row.repository_id,
              data: { from: row.grade, to: result.grade, score: result.score },
            },
          ],
          computedAt,
        );
      }
      const ids = rows.map((row) => row.repository_id);
      await queries.copyToRows(trx, ids);
      await queries.copyToDailyMetrics(trx, ids, computedAt.slice(0, 10));
    });
    rescored += rows.length;
    after = rows.at(-1)?.repository_id ?? after;
  }
  return { rescored, done: false };
}
