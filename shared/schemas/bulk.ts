/**
 * Bulk actions on the list's selection (docs/product.md#bulk-actions): add or remove tags, update
 * from GitHub, delete, and export the selection. Each repository gets its own result.
 */
import { z } from 'zod';
import { repositoryIdParamsSchema, SYNCS_PER_MEMBER, tagsSchema } from './repositories.ts';

export const BULK_MAX_ITEMS = 500;
export const BULK_ACTIONS = ['add_tags', 'remove_tags', 'sync', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

const selectionSchema = z
  .array(repositoryIdParamsSchema.shape.id, { error: 'Select at least one repository' })
  .min(1, 'Select at least one repository')
  .max(BULK_MAX_ITEMS, `At most ${BULK_MAX_ITEMS} repositories at once`);

export const bulkBodySchema = z
  .object({
    items: selectionSchema,
    action: z.enum(BULK_ACTIONS, { error: `action is one of ${BULK_ACTIONS.join(', ')}` }),
    tags: tagsSchema.optional().describe('comma-separated, for add_tags and remove_tags'),
  })
  .superRefine((body, context) => {
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
