/**
 * Bulk actions on the list's selection (docs/product.md#bulk-actions): add or remove tags, update
 * from GitHub, delete, set the team's decision status, and export the selection. Each repository
 * gets its own result.
 */
import { z } from 'zod';
import { decisionBodySchema, decisionStatusSchema } from './decisions.ts';
import { repositoryIdParamsSchema, SYNCS_PER_MEMBER, tagsSchema } from './repositories.ts';

export const BULK_MAX_ITEMS = 500;
/** The tag, update and delete actions (the selection bar's first ones). */
export const SELECTION_ACTIONS = ['add_tags', 'remove_tags', 'sync', 'delete'] as const;
export type BulkAction = (typeof SELECTION_ACTIONS)[number];
/** Every action `POST /repositories/bulk` takes: those, and set_status (the team's decision). */
export const BULK_ACTIONS = [...SELECTION_ACTIONS, 'set_status'] as const;
export type AnyBulkAction = (typeof BULK_ACTIONS)[number];

const selectionSchema = z
  .array(repositoryIdParamsSchema.shape.id, { error: 'Select at least one repository' })
  .min(1, 'Select at least one repository')
  .max(BULK_MAX_ITEMS, `At most ${BULK_MAX_ITEMS} repositories at once`);

/** A set_status body's decision, checked and read as the single decision call does. */
export const bulkDecisionSchema = z.preprocess((body) => {
  const { status, quadrant, rationale, links, review_by } = body as Record<string, unknown>;
  return { status, quadrant: quadrant ?? null, rationale, links, review_by };
}, decisionBodySchema);

export const bulkBodySchema = z
  .object({
    items: selectionSchema,
    action: z.enum(BULK_ACTIONS, { error: `action is one of ${BULK_ACTIONS.join(', ')}` }),
    tags: tagsSchema.optional().describe('comma-separated, for add_tags and remove_tags'),
    // set_status: one decision (as `PUT /repositories/{id}/decision` takes it) for every repository.
    status: decisionStatusSchema
      .nullable()
      .optional()
      .describe('set_status: the status every selected repository moves to (null: none)'),
    quadrant: z.string().nullable().optional().describe('set_status: the quadrant key'),
    rationale: z.string().optional().describe('set_status: one rationale for all (Markdown, no raw HTML)'),
    links: z.array(z.string()).optional().describe('set_status: http(s) links'),
    review_by: z.string().nullable().optional().describe('set_status: YYYY-MM-DD'),
  })
  .superRefine((body, context) => {
    if (body.action === 'set_status') {
      if (body.status === undefined)
        context.addIssue({ code: 'custom', message: 'Choose a status (null for none)', path: ['status'] });
      else
        for (const issue of bulkDecisionSchema.safeParse(body).error?.issues ?? [])
          context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    }
    const tagAction = body.action === 'add_tags' || body.action === 'remove_tags';
    if (tagAction && !body.tags?.split(',').some((tag) => tag.trim() !== '')) {
      context.addIssue({ code: 'custom', message: 'Enter at least one tag', path: ['tags'] });
    }
    // More than the whole budget of updates can never go through: invalid, not "try later".
    if (body.action === 'sync' && distinctRepositories(body.items) > SYNCS_PER_MEMBER) {
      context.addIssue({
        code: 'custom',
        message: `Update at most ${SYNCS_PER_MEMBER} repositories from GitHub at once`,
        path: ['items'],
      });
    }
  });
export type BulkBody = z.input<typeof bulkBodySchema>;

/** How many repositories a selection names: the same name in any case is one. */
export function distinctRepositories(items: readonly string[]): number {
  return new Set(items.map((item) => item.toLowerCase())).size;
}

/** `queued`: an update the sync engine runs within GitHub's pace. */
export const bulkResultSchema = z.object({
  id: z.string(),
  ok: z.boolean(),
  status: z.enum(['done', 'queued', 'failed']),
  error: z.string().optional(),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

export const bulkResponseSchema = z
  .object({
    results: z.array(bulkResultSchema),
    succeeded: z.number().int(),
    failed: z.number().int(),
  })
  .meta({ id: 'BulkResponse' });
export type BulkResponse = z.infer<typeof bulkResponseSchema>;

export const exportSelectionBodySchema = z.object({ items: selectionSchema });
