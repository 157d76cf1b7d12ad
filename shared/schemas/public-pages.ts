/**
 * Public pages (docs/product.md#public-pages): a shared view or a radar edition published at an
 * unguessable address anyone may open, read-only, with the fields its publisher chose.
 */
import { z } from 'zod';

/** What a published view may show besides each repository's name and link; `notes` only when ticked. */
export const PUBLIC_PAGE_FIELDS = [
  'description',
  'stars',
  'growth',
  'health',
  'status',
  'release',
  'tags',
  'notes',
] as const;
export type PublicPageField = (typeof PUBLIC_PAGE_FIELDS)[number];
/** Ticked when a member first publishes a view. */
export const DEFAULT_PUBLIC_PAGE_FIELDS: readonly PublicPageField[] = [
  'description',
  'stars',
  'growth',
  'health',
  'release',
];
/** Rows a published view's page shows: its first page, in the view's order. */
export const PUBLIC_PAGE_ROWS = 100;
/** How long a reader's browser or a proxy may keep a page. */
export const PUBLIC_PAGE_MAX_AGE_SECONDS = 300;

export const PUBLIC_PAGES_OFF_MESSAGE = 'Public pages are turned off on this instance (PUBLIC_PAGES=off).';
export const PUBLISH_PRIVATE_VIEW_MESSAGE = 'Share this view with the team before publishing it.';

export const publishViewBodySchema = z
  .object({
    fields: z
      .array(z.enum(PUBLIC_PAGE_FIELDS, { error: `Fields are ${PUBLIC_PAGE_FIELDS.join(', ')}` }), {
        error: 'fields is a list of field names',
      })
      .max(PUBLIC_PAGE_FIELDS.length, 'Each field at most once')
      .refine((fields) => new Set(fields).size === fields.length, 'Each field at most once'),
  })
  .strict();
export type PublishViewBody = z.infer<typeof publishViewBodySchema>;

export const publishEditionBodySchema = z
  .object({ include_rationales: z.boolean({ error: 'include_rationales is true or false' }).default(false) })
  .strict();
export type PublishEditionBody = z.infer<typeof publishEditionBodySchema>;

/** Where a published page is, and what it shows. */
export const publicationSchema = z
  .object({
    url: z.string().describe('the page’s address (PUBLIC_URL + /p/{slug} or /p/radar/{slug})'),
    fields: z.array(z.enum(PUBLIC_PAGE_FIELDS)).describe('a view’s fields; [] for an edition'),
    include_rationales: z.boolean(),
    published_at: z.string(),
  })
  .meta({ id: 'Publication' });
export type Publication = z.infer<typeof publicationSchema>;

export const publicationResponseSchema = z.object({ publication: publicationSchema.nullable() });

/** `GET /public-pages`: everything published, for admins. */
export const publicPageListItemSchema = publicationSchema
  .extend({
    id: z.number().int(),
    kind: z.enum(['view', 'radar']),
    /** The view's or the edition's id and name. */
    target_id: z.number().int(),
    title: z.string(),
    published_by: z.string().describe('the publisher’s username'),
  })
  .meta({ id: 'PublicPage' });
export const publicPageListSchema = z.object({ pages: z.array(publicPageListItemSchema) });
export type PublicPageListItem = z.infer<typeof publicPageListItemSchema>;

export const publicPageIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Invalid id' })
    .int('Invalid id')
    .min(1, 'Invalid id')
    .max(2_147_483_647, 'Invalid id'),
});

/** `/p/{slug}` and `/p/radar/{slug}`: 43 characters of base64url (32 random bytes), checked by the route. */
export const publicSlugParamsSchema = z.object({
  slug: z.string().max(64, 'Page not found').describe('43 characters of base64url, then `.json` or `.atom`'),
});

/** One repository of a published view, as `/p/{slug}.json` gives it: only the chosen fields. */
export const publicPageRowSchema = z
  .object({
    name: z.string().describe('owner/name'),
    url: z.string(),
    description: z.string().nullable().optional(),
    stars: z.number().int().optional(),
    stars_30d: z.number().int().nullable().optional(),
    health: z.object({ grade: z.string(), score: z.number().int().nullable() }).optional(),
    status: z.string().nullable().optional(),
    release: z.object({ version: z.string(), date: z.string().nullable() }).nullable().optional(),
    tags: z.array(z.string()).optional(),
    notes: z.string().optional(),
  })
  .meta({ id: 'PublicPageRow' });
export type PublicPageRow = z.infer<typeof publicPageRowSchema>;

export const publicViewPageSchema = z
  .object({
    title: z.string(),
    published_at: z.string(),
    fields: z.array(z.enum(PUBLIC_PAGE_FIELDS)),
    total: z.number().int().describe('public repositories the view matches'),
    repositories: z.array(publicPageRowSchema).describe(`its first ${PUBLIC_PAGE_ROWS}`),
  })
  .meta({ id: 'PublicViewPage' });
export type PublicViewPage = z.infer<typeof publicViewPageSchema>;

export const publicRadarBlipSchema = z.object({
  number: z.number().int(),
  name: z.string(),
  url: z.string().nullable(),
  quadrant: z.string(),
  ring: z.string(),
  rationale: z.string().optional(),
});
export const publicRadarPageSchema = z
  .object({
    title: z.string(),
    published_at: z.string(),
    quadrants: z.array(z.object({ key: z.string(), name: z.string() })),
    blips: z.array(publicRadarBlipSchema),
  })
  .meta({ id: 'PublicRadarPage' });
export type PublicRadarPage = z.infer<typeof publicRadarPageSchema>;
