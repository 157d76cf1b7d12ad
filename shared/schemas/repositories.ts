import { z } from 'zod';
import { COMMITS_REQUESTED } from '../constants.ts';
import { normalizeTags, TAGS_MAX_LENGTH, TAGS_TOO_LONG, tagsError } from '../repository-input.ts';
import { openAdvisoriesSchema } from './advisories.ts';
import { requiredString } from './auth.ts';
import { decisionStatusSchema } from './decisions.ts';
import { HEALTH_GRADES } from './health.ts';
import { historyStateSchema } from './history.ts';
import { releaseTrackingSchema, VERSION_SOURCES } from './releases.ts';

// ---------------------------------------------------------------------------------------------
// Entities (docs/product.md#entities)
// ---------------------------------------------------------------------------------------------

/**
 * A number, "1000+" when GitHub refuses to count (the contributor list is too large), or null
 * while the sync engine is still counting after an import (the screens say "counting…").
 */
export const contributorsSchema = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d+\+$/)])
  .nullable();

export const commentSchema = z
  .object({
    id: z.number().int(),
    author: z.string(),
    comment: z.string(),
    created_at: z.string(),
    user_id: z.number().int().nullable(),
  })
  .meta({ id: 'Comment' });
export type Comment = z.infer<typeof commentSchema>;

export const versionSchema = z
  .object({
    id: z.number().int(),
    version_number: z.string(),
    release_date: z.string().nullable(),
    description: z.string().nullable(),
    created_at: z.string(),
    source: z.enum(VERSION_SOURCES).describe("'manual' (recorded by a member) or 'release' (from GitHub)"),
    release_url: z.string().nullable().describe('the GitHub release (or tag) it was made from or linked to'),
  })
  .meta({ id: 'Version' });
export type Version = z.infer<typeof versionSchema>;

export const commitSchema = z
  .object({ date: z.string(), sha: z.string(), author: z.string(), message: z.string() })
  .meta({ id: 'Commit' });
export type Commit = z.infer<typeof commitSchema>;

/**
 * Stars gained in the last 7 and 30 days, by the stored daily history and the star-history
 * backfill: the latest stored day's stars minus those of the latest stored day at or before 7
 * (30) days earlier; null when no stored day is that old.
 */
export const repositoryGrowthSchema = z
  .object({
    stars_7d: z.number().int().nullable(),
    stars_30d: z.number().int().nullable(),
  })
  .meta({ id: 'RepositoryGrowth' });
export type RepositoryGrowth = z.infer<typeof repositoryGrowthSchema>;

/** The health score and grade (docs/health.md); grade `unknown` and no score before the first assessment. */
export const repositoryHealthSummarySchema = z
  .object({
    score: z.number().int().nullable(),
    grade: z.enum(HEALTH_GRADES),
  })
  .meta({ id: 'RepositoryHealthSummary' });

/**
 * The team's current decision (docs/product.md#team-decisions): status and quadrant key (null
 * when the status was cleared with its quadrant); the field is null when the repository has no status.
 */
export const repositoryDecisionSummarySchema = z
  .object({
    status: decisionStatusSchema,
    quadrant: z.string().nullable(),
  })
  .nullable()
  .meta({ id: 'RepositoryDecisionSummary' });
export type RepositoryDecisionSummary = z.infer<typeof repositoryDecisionSummarySchema>;

/** A repository as lists show it: every field but the nested collections. */
export const repositorySummarySchema = z
  .object({
    id: z.string().describe('GitHub full name, owner/name'),
    user_id: z.number().int().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    url: z.string(),
    license: z.string().describe('SPDX id, or "" when none'),
    topics: z.string(),
    tags: z.string(),
    notes: z.string(),
    stars: z.number().int(),
    forks: z.number().int(),
    issues: z.number().int().describe('open issues plus open pull requests'),
    commits: z.number().int(),
    total_commits: z.number().int(),
    contributors: contributorsSchema,
    last_commit: z.string().nullable(),
    last_synced: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    language: z.string().nullable(),
    archived: z.boolean(),
    private: z.boolean(),
    gone: z.boolean().describe('404 on the last sync: deleted on GitHub or access lost'),
    default_branch: z.string().nullable(),
    github_id: z.number().int(),
    comment_count: z.number().int(),
    version_count: z.number().int(),
    growth: repositoryGrowthSchema,
    health: repositoryHealthSummarySchema,
    decision: repositoryDecisionSummarySchema.describe('the current status and quadrant; null: no status'),
    /** Open security advisories by severity (docs/product.md#advisories). */
    open_advisories: openAdvisoriesSchema,
  })
  .meta({ id: 'RepositorySummary' });
export type RepositorySummary = z.infer<typeof repositorySummarySchema>;

export const repositorySchema = repositorySummarySchema
  .extend({
    comments: z.array(commentSchema),
    versions: z.array(versionSchema),
    recent_commits: z.array(commitSchema),
    release_tracking: releaseTrackingSchema,
  })
  .meta({ id: 'Repository' });
export type Repository = z.infer<typeof repositorySchema>;

/**
 * One day of a repository's history: recorded by the app (every metric), or rebuilt from
 * GitHub's star history (stars only, the others null).
 */
export const metricPointSchema = z
  .object({
    day: z.string(),
    stars: z.number().int(),
    forks: z.number().int().nullable(),
    issues: z.number().int().nullable(),
    commits: z.number().int().nullable(),
    contributors: z.number().int().nullable(),
    /** The health score that day (docs/health.md); null before it was assessed. */
    health_score: z.number().int().nullable(),
  })
  .meta({ id: 'MetricPoint' });
export type MetricPoint = z.infer<typeof metricPointSchema>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** A second version of the same number (trimmed, any case) on one repository: 409. */
export const versionExistsMessage = (versionNumber: string) =>
  `Version ${versionNumber.trim()} already exists.`;

export const INVALID_REPOSITORY_FORMAT = 'Invalid repository format. Use github.com/user/repo or owner/repo.';

/** Route parameter: the full name, URL-encoded on the way in (`owner%2Fname`). */
export const repositoryIdParamsSchema = z.object({
  id: z
    .string()
    .min(3)
    .max(201)
    .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'Invalid repository ID.'),
});

/**
 * Comma-separated tags, checked by the one tags rule on what would be stored (trimmed, without
 * duplicates): `tagsError` in shared/repository-input.ts.
 */
export const tagsSchema = z
  .string()
  .refine((value) => tagsError(normalizeTags(value)) === null, { error: TAGS_TOO_LONG })
  .describe(`comma-separated; at most ${TAGS_MAX_LENGTH} characters once trimmed and without duplicates`);

const tagsField = tagsSchema.optional();

/** One add line: a URL or an owner/name id (docs/product.md#add-repositories), plus the shared options. */
export const addRepositoryBodySchema = z
  .object({
    url: z.string().trim().min(1).max(500).optional(),
    id: z.string().trim().min(1).max(201).optional(),
    tags: tagsField,
    notify_slack: z.boolean().optional().default(false),
  })
  .refine((body) => (body.url === undefined) !== (body.id === undefined), {
    message: 'Send either url or id',
    path: ['url'],
  });
export type AddRepositoryBody = z.input<typeof addRepositoryBodySchema>;

export const batchItemSchema = z.union([
  z.object({ url: z.string().max(500) }).strict(),
  z.object({ id: z.string().max(201) }).strict(),
]);

export const BATCH_MAX_ITEMS = 1000;

/**
 * Updates from GitHub a member may ask for per window (docs/product.md#rate-limits): one at a
 * time ("Update") and in bulk spend from this one budget, counted in repositories, so one member
 * can't spend the shared GitHub quota.
 */
export const SYNCS_PER_MEMBER = 30;
export const SYNC_LIMIT_WINDOW_MS = 15 * 60 * 1000;

export const batchBodySchema = z.object({
  items: z
    .array(batchItemSchema)
    .min(1, '❌ Please enter at least one repository.')
    .max(BATCH_MAX_ITEMS, `A batch takes at most ${BATCH_MAX_ITEMS} repositories`),
  tags: tagsField,
  notify_slack: z.boolean().optional().default(false),
});
export type BatchBody = z.input<typeof batchBodySchema>;

export const GITHUB_LOGIN_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

/** Import a whole list from GitHub: a user's stars, or a user's or organisation's repositories. */
export const importBodySchema = z.object({
  source: z.enum(['starred', 'owner'], {
    error: 'Choose what to import: starred repositories or an owner’s repositories.',
  }),
  login: z
    .string({ error: 'Enter a GitHub user or organisation name.' })
    .trim()
    .regex(GITHUB_LOGIN_PATTERN, 'Enter a GitHub user or organisation name.'),
  tags: tagsField,
  notify_slack: z.boolean().optional().default(false),
});
export type ImportBody = z.input<typeof importBodySchema>;

export const metadataBodySchema = z.object({
  tags: tagsField,
  notes: z.string().max(20_000, 'Notes are too long (20,000 characters at most)').optional(),
});
export type MetadataBody = z.input<typeof metadataBodySchema>;

export const commentBodySchema = z.object({
  comment: requiredString('Please enter a comment.').max(5000, 'A comment is at most 5,000 characters'),
  author: z
    .string()
    .trim()
    .max(100, 'The author name is at most 100 characters')
    .optional()
    .transform((value) => (value ? value : 'Anonymous')),
});
export type CommentBody = z.input<typeof commentBodySchema>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Release date must be a date (YYYY-MM-DD)');

export const versionBodySchema = z.object({
  version_number: requiredString('Please enter a version number.').max(
    100,
    'A version number is at most 100 characters',
  ),
  release_date: z
    .union([isoDate, z.literal(''), z.null()])
    .optional()
    .transform((value) => (value ? value : null)),
  description: z
    .string()
    .trim()
    .max(2000, 'A description is at most 2,000 characters')
    .nullable()
    .optional()
    .transform((value) => (value ? value : null)),
});
export type VersionBody = z.input<typeof versionBodySchema>;

export const commitsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(COMMITS_REQUESTED),
});

export const versionsQuerySchema = z.object({ repo_id: z.string().min(3).max(201) });

export const compareQuerySchema = z.object({
  repo_id: z.string().min(3).max(201),
  version1_id: z.coerce.number({ error: 'Please select two versions to compare.' }).int(),
  version2_id: z.coerce.number({ error: 'Please select two versions to compare.' }).int(),
});

// ---------------------------------------------------------------------------------------------
// Responses (docs/product.md#repositories-api)
// ---------------------------------------------------------------------------------------------

export const repositoryListResponseSchema = z
  .object({ repositories: z.array(repositorySummarySchema) })
  .meta({ id: 'RepositoryList' });
export const repositoryResponseSchema = z
  .object({ repository: repositorySchema })
  .meta({ id: 'RepositoryResponse' });
/**
 * What became of an add's Slack notification: queued (sent after the answer, with retries), or
 * not sent because the member has no webhook.
 */
export const addNotificationSchema = z.union([
  z.object({ queued: z.literal(true) }),
  z.object({ sent: z.literal(false), error: z.string() }),
]);
export type AddNotification = z.infer<typeof addNotificationSchema>;
export const addRepositoryResponseSchema = repositoryResponseSchema.extend({
  notification: addNotificationSchema.optional(),
});
export type AddRepositoryResponse = z.infer<typeof addRepositoryResponseSchema>;
/**
 * 202: GitHub's pace for the caller's token is used up for longer than an interactive call
 * waits (docs/product.md#github-pace); the work is queued and finishes in the background.
 */
export const queuedResponseSchema = z
  .object({ queued: z.literal(true), eta: z.string(), message: z.string() })
  .meta({ id: 'Queued' });
export type QueuedResponse = z.infer<typeof queuedResponseSchema>;
export const existsResponseSchema = z.object({ exists: z.boolean() });
export const commentResponseSchema = z.object({ comment: commentSchema });
export const versionResponseSchema = z.object({ version: versionSchema });
export const versionsResponseSchema = z.object({ versions: z.array(versionSchema) });
export const commitsResponseSchema = z.array(commitSchema);
export const metricsResponseSchema = z.object({
  metrics: z.array(metricPointSchema),
  history: historyStateSchema,
});

export const COMPARED_FIELDS = [
  'description',
  'stars',
  'forks',
  'commits',
  'issues',
  'contributors',
  'license',
  'topics',
] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

const comparedValue = z.union([z.string(), z.number(), z.null()]);
export const differenceSchema = z.object({
  changed: z.boolean(),
  diff: z.array(z.string()).describe("'-old' and '+new' lines"),
  old: comparedValue,
  new: comparedValue,
});
export const compareResponseSchema = z
  .object({ differences: z.record(z.enum(COMPARED_FIELDS), differenceSchema) })
  .meta({ id: 'VersionComparison' });
export type CompareResponse = z.infer<typeof compareResponseSchema>;

/**
 * What happened to a line (docs/product.md#batch-statuses): `added` by this request, `skipped`
 * (already in the catalogue and visible to the caller), `queued` (GitHub's pace or quota is
 * spent for now; `eta` says when it will be added) or `failed` (GitHub refused it, or the line
 * is malformed). `ok` stays "added by this request".
 */
export const BATCH_STATUSES = ['added', 'skipped', 'queued', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
export const batchResultItemSchema = z.object({
  index: z.number().int(),
  input: z.string(),
  ok: z.boolean(),
  status: z.enum(BATCH_STATUSES),
  repository: repositorySummarySchema.optional(),
  error: z.string().optional(),
  eta: z.string().optional(),
});
export type BatchResultItem = z.infer<typeof batchResultItemSchema>;
const batchCounts = {
  /** Added by this request. */
  succeeded: z.number().int(),
  /** Only `failed` lines. */
  failed: z.number().int(),
  skipped: z.number().int(),
  queued: z.number().int(),
};
export const batchResponseSchema = z
  .object({ results: z.array(batchResultItemSchema), ...batchCounts })
  .meta({ id: 'BatchResult' });
export const batchDoneLineSchema = z.object({ done: z.literal(true), ...batchCounts });
export type BatchCounts = { succeeded: number; failed: number; skipped: number; queued: number };

/** The done line's counts from the items. */
export function countBatch(items: readonly Pick<BatchResultItem, 'status'>[]): BatchCounts {
  const counts: BatchCounts = { succeeded: 0, failed: 0, skipped: 0, queued: 0 };
  for (const item of items) {
    if (item.status === 'added') counts.succeeded += 1;
    else counts[item.status] += 1;
  }
  return counts;
}

export const adminRepositoryListResponseSchema = z
  .object({ repositories: z.array(repositorySummarySchema), total: z.number().int() })
  .meta({ id: 'AdminRepositoryList' });
