import { EVENT_TYPES, type EventType } from '#shared/schemas/activity.ts';
import { DEFAULT_MIN_SEVERITY } from '#shared/schemas/advisories.ts';
import type { Cadence, Channel, Delivery, Rule } from '#shared/schemas/notifications.ts';
import type { UserRow } from '../../db/schema.ts';
import { parseList } from './notification-rows.ts';
import type { ChannelRow, DeliveryRow, RuleRow } from './notifications.queries.ts';

/**
 * A member's notification settings as stored and as answered: rule input normalised for
 * storage, and rows presented without their secrets (a channel shows where it sends, never the
 * URL).
 */

/** Every type listed is the same as all: stored as null, so types added later are included. */
export function storedTypes(types: readonly EventType[] | null): string | null {
  if (types === null) return null;
  const unique = EVENT_TYPES.filter((type) => types.includes(type));
  return unique.length === EVENT_TYPES.length ? null : JSON.stringify(unique);
}

/** Tags as the member spelled them, one per lower-cased key. */
export function storedTags(tags: readonly string[] | null): string | null {
  if (tags === null) return null;
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const tag of tags.map((value) => value.trim())) {
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    kept.push(tag);
  }
  return JSON.stringify(kept);
}

/** The host and the last four characters: enough to recognise a URL, never enough to use it. */
export function urlHint(url: URL): string {
  return `${url.host} …${url.href.slice(-4)}`;
}

export function presentChannel(row: ChannelRow, user: UserRow): Channel {
  const target =
    row.kind === 'email'
      ? user.email
      : row.kind === 'slack'
        ? user.slack_webhook_enc !== null
          ? 'Your Slack webhook (GitHub Access)'
          : null
        : row.url_hint;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    target,
    enabled: row.enabled === 1,
    failures: row.failures,
    last_error: row.last_error,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    last_sent_at: row.last_sent_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentRule(row: RuleRow): Rule {
  return {
    id: row.id,
    channel_id: row.channel_id,
    event_types: parseList(row.event_types) as EventType[] | null,
    tags: parseList(row.tags),
    min_severity: row.min_severity ?? DEFAULT_MIN_SEVERITY,
    cadence: row.cadence as Cadence,
    enabled: row.enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    channel_id: row.channel_id,
    rule_id: row.rule_id,
    kind: row.kind,
    status: row.status,
    event_count: row.event_count,
    summary: row.summary,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at,
    sent_at: row.sent_at,
  };
}
