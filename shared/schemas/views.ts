/**
 * Saved views of the repository list (docs/product.md#saved-views): a name and the list's address
 * query (search, filters, sort, layout), private to a member or shared with the team.
 */
import { z } from 'zod';
import { CARD_DENSITIES, SAVED_VIEWS_PER_MEMBER_MAX } from '../constants.ts';
import { catalogueExportQuerySchema } from './catalogue.ts';

export const SAVED_VIEW_NAME_MAX = 60;
export const SAVED_VIEW_QUERY_MAX = 2_000;
/** A member at SAVED_VIEWS_PER_MEMBER_MAX saving another (400 `bad_request`). */
export const SAVED_VIEWS_FULL_MESSAGE = `You have ${SAVED_VIEWS_PER_MEMBER_MAX} saved views, the most one member can keep. Delete one to save another.`;

/** What a saved view may hold besides the export's filters and sort: the search and the layout. */
const listAddressSchema = z
  .object({
    q: z.string().max(200, 'Search is at most 200 characters').optional(),
    view: z.enum(['cards'], { error: "view takes only 'cards'" }).optional(),
    per_row: z
      .enum(CARD_DENSITIES.map(String) as [string, ...string[]], { error: 'per_row is 2, 3 or 4' })
      .optional(),
  })
  .strict();

const SHAPE_KEYS = new Set([
  ...Object.keys(catalogueExportQuerySchema.shape),
  ...Object.keys(listAddressSchema.shape),
]);

/**
 * The list's address query (`tags=web&sort=stars&view=cards`): only what the list understands,
 * each value as the list call and the export would accept it. Stored as sent, minus empty values.
 */
export const savedViewQuerySchema = z
  .string({ error: 'A view needs the list’s query' })
  .max(SAVED_VIEW_QUERY_MAX, `A view's query is at most ${SAVED_VIEW_QUERY_MAX} characters`)
  .transform((value, context) => {
    const params = new URLSearchParams(value.startsWith('?') ? value.slice(1) : value);
    const record: Record<string, string> = {};
    for (const [key, entry] of params) {
      if (!SHAPE_KEYS.has(key)) {
        context.addIssue({ code: 'custom', message: `Unknown list parameter: ${key}` });
        return z.NEVER;
      }
      if (entry !== '') record[key] = entry;
    }
    const { q, view, per_row, ...filters } = record;
    const address = listAddressSchema.safeParse({ q, view, per_row });
    const catalogue = catalogueExportQuerySchema.safeParse(filters);
    const issue = address.error?.issues[0] ?? catalogue.error?.issues[0];
    if (issue) {
      context.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    }
    return new URLSearchParams(record).toString();
  });

const savedViewName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(SAVED_VIEW_NAME_MAX, `Name is at most ${SAVED_VIEW_NAME_MAX} characters`);

export const createSavedViewBodySchema = z.object({
  name: savedViewName,
  query: savedViewQuerySchema,
  shared: z.boolean().default(false),
});
export type CreateSavedViewBody = z.input<typeof createSavedViewBodySchema>;

export const updateSavedViewBodySchema = z
  .object({ name: savedViewName, query: savedViewQuerySchema, shared: z.boolean() })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to change' });
export type UpdateSavedViewBody = z.input<typeof updateSavedViewBodySchema>;

export const savedViewIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Invalid view id' })
    .int('Invalid view id')
    .min(1, 'Invalid view id')
    .max(2_147_483_647, 'Invalid view id'),
});

export const savedViewSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    query: z.string(),
    shared: z.boolean(),
    owner: z.object({ id: z.number().int(), username: z.string() }),
    /** The caller may rename, change or delete it: its owner, or an admin for a shared view. */
    can_edit: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SavedView' });
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewResponseSchema = z.object({ view: savedViewSchema });
export const savedViewsResponseSchema = z.object({ views: z.array(savedViewSchema) });
