/**
 * Notification channels, rules and deliveries (docs/product.md#notification-rules): the requests
 * and answers of `/auth/me/notifications/…`, validated by the server and used by the Settings →
 * Notifications forms.
 */
import { z } from 'zod';
import { EVENT_TYPES, eventTypeSchema } from './activity.ts';
import { ADVISORY_SEVERITIES, advisorySeveritySchema, DEFAULT_MIN_SEVERITY } from './advisories.ts';

export const CHANNEL_KINDS = ['slack', 'webhook', 'discord', 'email'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const CADENCES = ['instant', 'daily', 'weekly'] as const;
export type Cadence = (typeof CADENCES)[number];

export const DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What a delivery carried: one event, a digest, or a "Send test". */
export const DELIVERY_KINDS = ['instant', 'daily', 'weekly', 'test'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** A channel failing this many times in a row is turned off until its owner turns it on again. */
export const CHANNEL_FAILURE_LIMIT = 5;
export const CHANNELS_PER_MEMBER_MAX = 20;
export const RULES_PER_MEMBER_MAX = 50;
export const CHANNEL_NAME_MAX = 100;
export const CHANNEL_URL_MAX = 2048;
export const RULE_TAGS_MAX = 50;
export const RULE_TAG_MAX_LENGTH = 100;
/** Recent deliveries shown in Settings. */
export const DELIVERIES_LISTED = 50;

const POSITIVE_ID_MESSAGE = 'Id must be a positive whole number';
/** Ids in paths: PostgreSQL's integer range, so junk is a 400 and never reaches the database. */
export const notificationIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: POSITIVE_ID_MESSAGE })
    .int(POSITIVE_ID_MESSAGE)
    .positive(POSITIVE_ID_MESSAGE)
    .max(2_147_483_647, POSITIVE_ID_MESSAGE),
});

export const CHANNEL_KIND_LABELS: Record<ChannelKind, string> = {
  slack: 'Slack',
  webhook: 'Webhook',
  discord: 'Discord',
  email: 'E-mail',
};

/** Event types as the rule form and the messages name them. */
export const EVENT_TYPE_LABELS: Record<(typeof EVENT_TYPES)[number], string> = {
  repository_added: 'Repository added',
  release_published: 'Release published',
  archived: 'Archived',
  unarchived: 'Unarchived',
  license_changed: 'Licence changed',
  renamed: 'Renamed or transferred',
  gone: 'Gone from GitHub',
  description_changed: 'Description changed',
  topics_changed: 'Topics changed',
  star_milestone: 'Star milestone',
  stale: 'Stale',
  health_dropped: 'Health dropped',
  advisory_published: 'Security advisory',
  decision_changed: 'Decision changed',
  proposal_opened: 'Proposal opened',
  proposal_accepted: 'Proposal accepted',
  proposal_declined: 'Proposal declined',
  review_due: 'Decision review due',
  adopted_at_risk: 'Adopted but at risk',
};

export const CADENCE_LABELS: Record<Cadence, string> = {
  instant: 'Instantly',
  daily: 'Daily digest',
  weekly: 'Weekly digest',
};

// ---------------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------------

export const channelSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(CHANNEL_KINDS),
    name: z.string(),
    /**
     * Where it goes, never the secret: a webhook's host and the last four characters of its
     * URL, the member's own e-mail address, or the stored Slack webhook's host.
     */
    target: z.string().nullable(),
    enabled: z.boolean(),
    /** Failed sends in a row; the channel turns off at CHANNEL_FAILURE_LIMIT. */
    failures: z.number().int(),
    last_error: z.string().nullable(),
    disabled_reason: z.string().nullable(),
    disabled_at: z.string().nullable(),
    last_sent_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'NotificationChannel' });
export type Channel = z.infer<typeof channelSchema>;

export const channelsResponseSchema = z
  .object({ channels: z.array(channelSchema) })
  .meta({ id: 'NotificationChannels' });
export type ChannelsResponse = z.infer<typeof channelsResponseSchema>;

const channelName = z
  .string({ error: 'Channel name is required' })
  .trim()
  .min(1, 'Channel name is required')
  .max(CHANNEL_NAME_MAX, `Channel name must be at most ${CHANNEL_NAME_MAX} characters`);

const channelUrl = z
  .string({ error: 'Webhook URL is required' })
  .trim()
  .min(1, 'Webhook URL is required')
  .max(CHANNEL_URL_MAX, `Webhook URL must be at most ${CHANNEL_URL_MAX} characters`);

/** Which kinds carry their own URL (the Slack kind uses the member's stored webhook). */
export function kindHasUrl(kind: ChannelKind): boolean {
  return kind === 'webhook' || kind === 'discord';
}

export const createChannelBodySchema = z
  .object({
    kind: z.enum(CHANNEL_KINDS, { error: 'Choose Slack, Webhook, Discord or E-mail' }),
    name: channelName,
    /** Required for webhook and Discord channels; refused for Slack and e-mail ones. */
    url: channelUrl.optional(),
  })
  .superRefine((body, context) => {
    if (kindHasUrl(body.kind) && !body.url)
      context.addIssue({ code: 'custom', path: ['url'], message: 'Webhook URL is required' });
    if (!kindHasUrl(body.kind) && body.url !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['url'],
        message: `${CHANNEL_KIND_LABELS[body.kind]} channels have no URL of their own`,
      });
  })
  .meta({ id: 'CreateNotificationChannel' });
export type CreateChannelBody = z.infer<typeof createChannelBodySchema>;

export const updateChannelBodySchema = z
  .object({
    name: channelName.optional(),
    /** A new URL (webhook and Discord channels): checked again, and clears the failures. */
    url: channelUrl.optional(),
  })
  .refine((body) => body.name !== undefined || body.url !== undefined, {
    message: 'Send a new name or URL',
    path: ['name'],
  })
  .meta({ id: 'UpdateNotificationChannel' });
export type UpdateChannelBody = z.infer<typeof updateChannelBodySchema>;

export const testChannelResponseSchema = z
  .object({
    sent: z.boolean(),
    /** 'Test message sent', 'Test e-mail queued', or why it failed. */
    message: z.string(),
  })
  .meta({ id: 'NotificationTestResult' });
export type TestChannelResponse = z.infer<typeof testChannelResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

export const ruleSchema = z
  .object({
    id: z.number().int(),
    channel_id: z.number().int(),
    /** null: every event type. */
    event_types: z.array(eventTypeSchema).nullable(),
    /** null: repositories with any tag or none; otherwise those with at least one of these tags. */
    tags: z.array(z.string()).nullable(),
    /** The least severe `advisory_published` event it sends; other types are not filtered by it. */
    min_severity: advisorySeveritySchema,
    cadence: z.enum(CADENCES),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'NotificationRule' });
export type Rule = z.infer<typeof ruleSchema>;

export const rulesResponseSchema = z.object({ rules: z.array(ruleSchema) }).meta({ id: 'NotificationRules' });
export type RulesResponse = z.infer<typeof rulesResponseSchema>;

const ruleEventTypes = z
  .array(eventTypeSchema, { error: 'Choose event types, or all' })
  .min(1, 'Choose at least one event type, or all')
  .max(EVENT_TYPES.length)
  .nullable();

const ruleTags = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'Tags must not be empty')
      .max(RULE_TAG_MAX_LENGTH, `Tags must be at most ${RULE_TAG_MAX_LENGTH} characters`)
      .refine((tag) => !tag.includes(','), 'Tags must not contain commas'),
    { error: 'Choose tags, or all' },
  )
  .min(1, 'Choose at least one tag, or all')
  .max(RULE_TAGS_MAX, `At most ${RULE_TAGS_MAX} tags per rule`)
  .nullable();

const ruleMinSeverity = z.enum(ADVISORY_SEVERITIES, {
  error: `min_severity must be one of ${ADVISORY_SEVERITIES.join(', ')}`,
});

const ruleChannelId = z
  .number({ error: 'Choose a channel' })
  .int('Choose a channel')
  .positive('Choose a channel')
  .max(2_147_483_647, 'Choose a channel');

export const createRuleBodySchema = z
  .object({
    channel_id: ruleChannelId,
    event_types: ruleEventTypes,
    tags: ruleTags,
    min_severity: ruleMinSeverity.default(DEFAULT_MIN_SEVERITY),
    cadence: z.enum(CADENCES, { error: 'Choose instantly, daily or weekly' }),
    enabled: z.boolean().default(true),
  })
  .meta({ id: 'CreateNotificationRule' });
export type CreateRuleBody = z.input<typeof createRuleBodySchema>;

export const updateRuleBodySchema = z
  .object({
    channel_id: ruleChannelId.optional(),
    event_types: ruleEventTypes.optional(),
    tags: ruleTags.optional(),
    min_severity: ruleMinSeverity.optional(),
    cadence: z.enum(CADENCES, { error: 'Choose instantly, daily or weekly' }).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Send at least one change',
    path: ['cadence'],
  })
  .meta({ id: 'UpdateNotificationRule' });
export type UpdateRuleBody = z.infer<typeof updateRuleBodySchema>;

// ---------------------------------------------------------------------------------------------
// Deliveries
// ---------------------------------------------------------------------------------------------

export const deliverySchema = z
  .object({
    id: z.number().int(),
    channel_id: z.number().int().nullable(),
    rule_id: z.number().int().nullable(),
    kind: z.enum(DELIVERY_KINDS),
    status: z.enum(DELIVERY_STATUSES),
    /** How many events it covers. */
    event_count: z.number().int(),
    /** What it said, in a line ('facebook/react published v19.0.0', 'Daily digest: 12 events'). */
    summary: z.string(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    sent_at: z.string().nullable(),
  })
  .meta({ id: 'NotificationDelivery' });
export type Delivery = z.infer<typeof deliverySchema>;

export const deliveriesResponseSchema = z
  .object({ deliveries: z.array(deliverySchema) })
  .meta({ id: 'NotificationDeliveries' });
export type DeliveriesResponse = z.infer<typeof deliveriesResponseSchema>;

export const notificationMessageSchema = z
  .object({ message: z.string() })
  .meta({ id: 'NotificationMessage' });
