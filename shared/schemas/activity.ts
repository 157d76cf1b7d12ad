/**
 * What changed in the catalogue (docs/product.md#activity): the event types the sync engine and
 * the add path record, and the details each carries. Read by the activity feed, the Atom feed
 * and the notification rules.
 */
import { z } from 'zod';
import { advisorySeveritySchema, packageRefSchema } from './advisories.ts';
import { decisionStatusSchema } from './decisions.ts';
import { HEALTH_GRADES } from './health.ts';
import { atRiskCauseSchema, radarRingSchema } from './radar.ts';

export const EVENT_TYPES = [
  'repository_added',
  'release_published',
  'archived',
  'unarchived',
  'license_changed',
  'renamed',
  'gone',
  'description_changed',
  'topics_changed',
  'star_milestone',
  'stale',
  'health_dropped',
  'advisory_published',
  'decision_changed',
  'proposal_opened',
  'proposal_accepted',
  'proposal_declined',
  'review_due',
  'adopted_at_risk',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const eventTypeSchema = z.enum(EVENT_TYPES);

/** Star counts whose crossing (after the repository was added) is an event. */
export const STAR_MILESTONES = [
  1_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
] as const;

/** The details of each type, stored as JSON in `repository_events.data`. */
export const eventDataSchemas = {
  repository_added: z.object({}),
  release_published: z.object({
    tag: z.string(),
    name: z.string().nullable(),
    url: z.string().nullable(),
    prerelease: z.boolean(),
  }),
  archived: z.object({}),
  unarchived: z.object({}),
  license_changed: z.object({ from: z.string(), to: z.string() }),
  renamed: z.object({ from: z.string(), to: z.string() }),
  gone: z.object({}),
  description_changed: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  topics_changed: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }),
  star_milestone: z.object({ milestone: z.number().int(), stars: z.number().int() }),
  stale: z.object({ last_commit: z.string().nullable(), days: z.number().int() }),
  /** The health grade fell (docs/health.md): healthy → watch → at_risk. */
  health_dropped: z.object({
    from: z.enum(['healthy', 'watch', 'at_risk']),
    to: z.enum(['healthy', 'watch', 'at_risk']),
    score: z.number().int().nullable(),
  }),
  /** A security advisory newly found for the repository or one of its packages (docs/product.md#advisories). */
  advisory_published: z.object({
    ghsa_id: z.string(),
    cve_id: z.string().nullable(),
    severity: advisorySeveritySchema,
    summary: z.string(),
    url: z.string(),
    package: packageRefSchema.nullable(),
    /** Whether it is open for the latest tracked release (false: a tracked release already fixes it). */
    open: z.boolean(),
  }),
  /** A decision record: the repository's status and quadrant moved (docs/product.md#team-decisions). */
  decision_changed: z.object({
    decision_id: z.number().int(),
    from_status: decisionStatusSchema.nullable(),
    to_status: decisionStatusSchema.nullable(),
    from_quadrant: z.string().nullable(),
    to_quadrant: z.string().nullable(),
    proposal_id: z.number().int().nullable(),
  }),
  /** A member proposed a move (DECISIONS_BY=admins). */
  proposal_opened: z.object({
    proposal_id: z.number().int(),
    status: decisionStatusSchema.nullable(),
    quadrant: z.string().nullable(),
  }),
  /** An admin accepted a proposal: its decision record was written. */
  proposal_accepted: z.object({
    proposal_id: z.number().int(),
    decision_id: z.number().int(),
    status: decisionStatusSchema.nullable(),
    quadrant: z.string().nullable(),
  }),
  proposal_declined: z.object({ proposal_id: z.number().int(), reason: z.string() }),
  /** The current decision's review date came. */
  review_due: z.object({
    decision_id: z.number().int(),
    review_by: z.string(),
    status: decisionStatusSchema.nullable(),
  }),
  /**
   * A repository in adopt or trial became at risk for this cause (docs/product.md#the-radar):
   * once per repository and cause until the cause goes away.
   */
  adopted_at_risk: z.object({
    cause: atRiskCauseSchema,
    status: radarRingSchema,
    health_grade: z.enum(HEALTH_GRADES).nullable(),
    /** The open high and critical advisories, for the `advisory` cause. */
    advisory_ids: z.array(z.string()).optional(),
  }),
} satisfies Record<EventType, z.ZodType>;

export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;

/** An event to record: the type with its details. */
export type NewEvent = {
  [T in EventType]: {
    type: T;
    repository_id: number;
    data: EventData<T>;
    occurred_at?: string;
    user_id?: number | null;
  };
}[EventType];

// ---------------------------------------------------------------------------------------------
// GET /activity (docs/product.md#activity)
// ---------------------------------------------------------------------------------------------

export const ACTIVITY_PAGE_DEFAULT = 50;
export const ACTIVITY_PAGE_MAX = 100;
/** How many of its own events the repository detail page shows. */
export const REPOSITORY_EVENTS_SHOWN = 10;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${ACTIVITY_PAGE_MAX}`;
export const UNKNOWN_EVENT_TYPE = `type must be one or a comma-separated list of: ${EVENT_TYPES.join(', ')}`;

/** `type=archived,gone` as a list of known types; null when the parameter names none. */
export function parseEventTypes(value: string | undefined): EventType[] | null {
  if (value === undefined) return null;
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) return null;
  return [...new Set(parts)].filter((part): part is EventType =>
    (EVENT_TYPES as readonly string[]).includes(part),
  );
}

function isEventTypeList(value: string): boolean {
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.every((part) => (EVENT_TYPES as readonly string[]).includes(part));
}

export const activityQuerySchema = z.object({
  type: z
    .string()
    .max(400, UNKNOWN_EVENT_TYPE)
    .refine(isEventTypeList, UNKNOWN_EVENT_TYPE)
    .optional()
    .describe(`one or a comma-separated list of: ${EVENT_TYPES.join(', ')}`),
  tag: z
    .string()
    .max(100, 'tag must be at most 100 characters')
    .optional()
    .describe('only repositories carrying this tag (case-insensitive)'),
  repository: z
    .string()
    .max(201, 'Invalid repository ID.')
    .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'Invalid repository ID.')
    .optional()
    .describe('only this repository: its id (owner/name, a former name works too)'),
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(ACTIVITY_PAGE_MAX, LIMIT_MESSAGE)
    .optional()
    .describe(`events per page, default ${ACTIVITY_PAGE_DEFAULT}`),
  cursor: z.string().max(200, 'Invalid cursor').optional().describe('next_cursor of the previous page'),
});
export type ActivityQuery = z.output<typeof activityQuerySchema>;

const eventRepositorySchema = z.object({
  id: z.string().describe('the repository id the other calls take (owner/name)'),
  full_name: z.string(),
  name: z.string(),
});

const eventActorSchema = z
  .object({ id: z.number().int(), name: z.string() })
  .describe('the member whose action it was (an add); absent for what the sync engine saw');

function eventItem<T extends EventType>(type: T) {
  return z.object({
    id: z.number().int(),
    type: z.literal(type),
    occurred_at: z
      .string()
      .describe('when it happened: a release when it was published, anything else when the sync saw it'),
    detected_at: z
      .string()
      .optional()
      .describe(
        'when the catalogue recorded it (the sync or add that found it); the feed is in this order. Always sent by this server',
      ),
    repository: eventRepositorySchema,
    data: eventDataSchemas[type],
    actor: eventActorSchema.optional(),
  });
}

/** One event as the API answers it; `data` depends on `type` (eventDataSchemas). */
export const activityEventSchema = z
  .discriminatedUnion('type', [
    eventItem('repository_added'),
    eventItem('release_published'),
    eventItem('archived'),
    eventItem('unarchived'),
    eventItem('license_changed'),
    eventItem('renamed'),
    eventItem('gone'),
    eventItem('description_changed'),
    eventItem('topics_changed'),
    eventItem('star_milestone'),
    eventItem('stale'),
    eventItem('health_dropped'),
    eventItem('advisory_published'),
    eventItem('decision_changed'),
    eventItem('proposal_opened'),
    eventItem('proposal_accepted'),
    eventItem('proposal_declined'),
    eventItem('review_due'),
    eventItem('adopted_at_risk'),
  ])
  .meta({ id: 'ActivityEvent' });
export type ActivityEvent = z.infer<typeof activityEventSchema>;

export const activityPageSchema = z
  .object({
    events: z.array(activityEventSchema),
    next_cursor: z.string().nullable().describe('null on the last page'),
  })
  .meta({ id: 'ActivityPage' });
export type ActivityPage = z.infer<typeof activityPageSchema>;

// ---------------------------------------------------------------------------------------------
// The Atom feed and its token (docs/product.md#activity-feed)
// ---------------------------------------------------------------------------------------------

/** Entries in one Atom document: feed readers poll, so the newest are enough. */
export const FEED_ENTRIES = 50;

export const FEED_TOKEN_REQUIRED = 'The feed address needs its token: copy it again from Settings.';

export const feedQuerySchema = z.object({
  // Required: a call without one is malformed (400); a wrong or revoked one is refused (401).
  token: z
    .string({ error: FEED_TOKEN_REQUIRED })
    .min(1, FEED_TOKEN_REQUIRED)
    .max(200, 'Invalid feed token.')
    .describe('the feed token from Settings'),
  tag: activityQuerySchema.shape.tag,
});

export const feedTokenStatusSchema = z.object({
  exists: z.boolean(),
  created_at: z.string().nullable(),
  last_used_at: z.string().nullable().describe('when a feed reader last fetched the feed with it'),
});
export type FeedTokenStatus = z.infer<typeof feedTokenStatusSchema>;

/** The new token, shown once: only its hash is kept. */
export const feedTokenCreatedSchema = z.object({
  token: z.string(),
  feed_url: z.string().describe('the whole feed address, token included, to paste into a feed reader'),
  created_at: z.string(),
});
export type FeedTokenCreated = z.infer<typeof feedTokenCreatedSchema>;
