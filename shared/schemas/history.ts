import { z } from 'zod';

/**
 * The star history backfilled from GitHub (docs/product.md#star-history): its state per
 * repository, and the "Backfill history" action's answer. The metrics rows themselves are
 * `MetricPoint`s (shared/schemas/repositories.ts).
 */

/**
 * `none`: never loaded and nothing scheduled; `pending`: waiting for its turn (the engine's
 * lowest-priority work) or for a GitHub token; `done`: loaded at `backfilled_at`;
 * `unavailable`: GitHub has no star history for it (404, 403 or 410); `failed`: the last try
 * failed (`message` says why).
 */
export const HISTORY_STATUSES = ['none', 'pending', 'done', 'unavailable', 'failed'] as const;
export type HistoryStatus = (typeof HISTORY_STATUSES)[number];

export const historyStateSchema = z
  .object({
    status: z.enum(HISTORY_STATUSES),
    backfilled_at: z.string().nullable().describe('when the history was last loaded from GitHub'),
    message: z.string().nullable().describe('why it failed, or what it waits for'),
  })
  .meta({ id: 'HistoryState' });
export type HistoryState = z.infer<typeof historyStateSchema>;

export const backfillResponseSchema = z
  .object({
    queued: z.literal(true),
    message: z.string(),
    history: historyStateSchema,
  })
  .meta({ id: 'BackfillQueued' });
export type BackfillResponse = z.infer<typeof backfillResponseSchema>;
