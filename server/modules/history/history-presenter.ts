import type { HistoryState } from '#shared/schemas/history.ts';
import type { HistoryRow } from './history.queries.ts';

/**
 * A repository's star-history backfill as the API shows it. Never backfilled: `pending` while
 * HISTORY_BACKFILL sweeps every repository (`automatic`), else `none` until a member asks.
 */
export function presentHistory(history: HistoryRow | undefined, automatic: boolean): HistoryState {
  if (!history) return { status: automatic ? 'pending' : 'none', backfilled_at: null, message: null };
  return { status: history.status, backfilled_at: history.backfilled_at, message: history.message };
}
