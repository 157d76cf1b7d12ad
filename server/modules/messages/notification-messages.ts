import { batchLabel, describeBatchAction, isBatchedType } from '#shared/event-text.ts';
import { type EventType, eventDataSchemas } from '#shared/schemas/activity.ts';
import { EVENT_TYPE_LABELS } from '#shared/schemas/notifications.ts';
import type { MailMessage } from './mail-transport.ts';

/**
 * What a notification says, per channel (docs/product.md#notification-messages): one wording
 * of each event, rendered as Slack blocks, Discord embeds, the generic webhook's JSON body or an
 * e-mail's text. Pure: the delivery job has already picked the events the recipient may see.
 */

/** One event as the messages show it. */
export interface NotifiedEvent {
  id: number;
  type: EventType;
  occurred_at: string;
  /** When it was recorded: the releases and milestones of one sync share it. */
  detected_at?: string;
  /** The type's details (shared/schemas/activity.ts), as stored. */
  data: unknown;
  repository: { id: string; url: string };
}

export type MessageKind = 'instant' | 'daily' | 'weekly' | 'test';

export interface MessageInput {
  kind: MessageKind;
  appName: string;
  /** The app's base URL, for links back. */
  publicUrl: string;
  events: NotifiedEvent[];
}

/** Repositories and lines listed in one message; the rest is counted ("…and 3 more"). */
export const MAX_REPOSITORIES_LISTED = 25;
export const MAX_EVENTS_PER_REPOSITORY = 10;
/** Discord allows 10 embeds, 2,000 characters of content and 4,096 of description. */
const DISCORD_EMBEDS = 10;
const DISCORD_CONTENT_MAX = 2000;
const DISCORD_DESCRIPTION_MAX = 4000;
/** Slack's section text is at most 3,000 characters and a message at most 50 blocks. */
const SLACK_SECTION_MAX = 2900;

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** What happened, after the repository's name: 'published release v19.0.0'. */
export function describeEvent(event: Pick<NotifiedEvent, 'type' | 'data'>): string {
  const parsed = eventDataSchemas[event.type]?.safeParse(event.data);
  if (!parsed?.success) return EVENT_TYPE_LABELS[event.type] ?? event.type;
  const data = parsed.data as Record<string, unknown>;
  switch (event.type) {
    case 'repository_added':
      return 'was added to the catalogue';
    case 'release_published': {
      const tag = String(data.tag);
      const name =
        typeof data.name === 'string' && data.name.trim() && data.name !== tag ? ` (${data.name})` : '';
      return `published ${data.prerelease ? 'pre-release' : 'release'} ${tag}${name}`;
    }
    case 'archived':
      return 'was archived';
    case 'unarchived':
      return 'was unarchived';
    case 'license_changed':
      return `changed its licence from ${data.from || 'none'} to ${data.to || 'none'}`;
    case 'renamed':
      return `was renamed from ${data.from} to ${data.to}`;
    case 'gone':
      return 'is gone from GitHub';
    case 'description_changed':
      return typeof data.to === 'string' && data.to.trim()
        ? `changed its description to “${truncate(data.to.trim(), 200)}”`
        : 'removed its description';
    case 'topics_changed': {
      const added = (data.added as string[]).map((topic) => `+${topic}`);
      const removed = (data.removed as string[]).map((topic) => `−${topic}`);
      return `changed its topics (${[...added, ...removed].join(', ') || 'reordered'})`;
    }
    case 'star_milestone':
      return `passed ${compact.format(Number(data.milestone))} stars`;
    case 'stale':
      return `has had no commit for ${data.days} days`;
    case 'health_dropped':
      return `fell in health from ${String(data.from).replace('_', ' ')} to ${String(data.to).replace('_', ' ')}${typeof data.score === 'number' ? ` (score ${data.score})` : ''}`;
    case 'advisory_published': {
      const affected = data.package as { ecosystem: string; name: string } | null;
      const about = affected ? ` for ${affected.name} (${affected.ecosystem})` : '';
      return `has a ${data.severity === 'unknown' ? 'unrated' : String(data.severity)} security advisory ${data.ghsa_id}${about}: ${truncate(String(data.summary), 200)}${data.open ? '' : ' (fixed in a tracked release)'}`;
    }
    case 'decision_changed':
      return data.to_status === null
        ? 'has no decision status any more'
        : `was moved to ${String(data.to_status)}${data.to_quadrant ? ` (${String(data.to_quadrant)})` : ''}`;
    case 'proposal_opened':
      return `has a proposal to move it to ${data.status === null ? 'no status' : String(data.status)}`;
    case 'proposal_accepted':
      return `was moved to ${data.status === null ? 'no status' : String(data.status)} (proposal accepted)`;
    case 'proposal_declined':
      return `had a proposal declined: ${truncate(String(data.reason), 200)}`;
    case 'review_due':
      return `is due for a decision review (${String(data.review_by)})`;
    case 'adopted_at_risk':
      return `is in ${String(data.status)} but at risk (${String(data.cause).replace('_', ' ')})`;
  }
}

/** 'facebook/react published release v19.0.0' */
export function eventLine(event: NotifiedEvent): string {
  return `${event.repository.id} ${describeEvent(event)}`;
}

export interface RepositoryGroup {
  repository: NotifiedEvent['repository'];
  events: NotifiedEvent[];
}

/** Events grouped by repository: repositories in the order of their first event, events oldest first. */
export function groupByRepository(events: NotifiedEvent[]): RepositoryGroup[] {
  const groups = new Map<string, RepositoryGroup>();
  for (const event of [...events].sort((a, b) => a.id - b.id)) {
    const group = groups.get(event.repository.id) ?? { repository: event.repository, events: [] };
    group.events.push(event);
    groups.set(event.repository.id, group);
  }
  return [...groups.values()];
}

/**
 * What a repository's events say, a line each; in a digest the releases (and star milestones)
 * of one sync are one line, 'published 4 releases, v1.0 … v1.3'.
 */
export function repositoryLines(events: NotifiedEvent[], kind: MessageKind): string[] {
  return kind === 'daily' || kind === 'weekly' ? batchLines(events) : events.map(describeEvent);
}

/** Events oldest first, the batched ones of one sync and type joined into one line. */
function batchLines(events: NotifiedEvent[]): string[] {
  const lines: { key: string | null; events: NotifiedEvent[] }[] = [];
  for (const event of events) {
    const key = isBatchedType(event.type) && event.detected_at ? `${event.type} ${event.detected_at}` : null;
    const same = key === null ? undefined : lines.find((line) => line.key === key);
    if (same) same.events.push(event);
    else lines.push({ key, events: [event] });
  }
  return lines.map(({ events: batch }) => {
    const first = batch[0] as NotifiedEvent;
    if (batch.length === 1 || !isBatchedType(first.type)) return describeEvent(first);
    const type = first.type;
    // Milestones as the single lines word them ('10K').
    const label = (event: NotifiedEvent) =>
      type === 'star_milestone'
        ? compact.format(Number((event.data as { milestone?: unknown }).milestone))
        : batchLabel(type, event.data);
    return describeBatchAction(type, batch.map(label));
  });
}

/** A repository's lines, at most MAX_EVENTS_PER_REPOSITORY and then '…and N more'. */
function shownLines(events: NotifiedEvent[], kind: MessageKind): string[] {
  const lines = repositoryLines(events, kind);
  const shown = lines.slice(0, MAX_EVENTS_PER_REPOSITORY);
  if (lines.length > MAX_EVENTS_PER_REPOSITORY)
    shown.push(`…and ${lines.length - MAX_EVENTS_PER_REPOSITORY} more`);
  return shown;
}

/** The message's first line, also the delivery's summary in Settings. */
export function headline(input: MessageInput): string {
  const { kind, appName, events } = input;
  if (kind === 'test') return `Test message from ${appName}: this channel works.`;
  if (kind === 'instant' && events.length === 1 && events[0]) return eventLine(events[0]);
  const groups = groupByRepository(events);
  const only = groups.length === 1 ? groups[0] : undefined;
  if (kind === 'instant' && only && only.events.every((event) => isBatchedType(event.type)))
    return `${only.repository.id} ${batchLines(only.events).join(' and ')}`;
  const repositories = groups.length;
  const word = kind === 'instant' ? 'activity' : `${kind} digest`;
  return `${appName} ${word}: ${plural(events.length, 'event')} in ${plural(repositories, 'repository', 'repositories')}`;
}

/** The body as plain text: the headline, then each repository with its events. */
export function plainText(input: MessageInput): string {
  if (input.kind === 'test')
    return `${headline(input)}\nNotifications matching your rules will arrive here.\n${input.publicUrl}/#/settings?tab=notifications`;
  const lines = [headline(input)];
  if (input.kind !== 'instant' || input.events.length > 1) {
    const { shown, hidden } = listed(input.events);
    for (const group of shown) {
      lines.push('', `${group.repository.id} (${group.repository.url})`);
      for (const line of shownLines(group.events, input.kind)) lines.push(`  • ${line}`);
    }
    if (hidden > 0) lines.push('', `…and ${plural(hidden, 'more repository', 'more repositories')}.`);
  } else if (input.events[0]) {
    lines.push(input.events[0].repository.url);
  }
  lines.push('', `Manage these notifications: ${input.publicUrl}/#/settings?tab=notifications`);
  return lines.join('\n');
}

function listed(events: NotifiedEvent[]) {
  const groups = groupByRepository(events);
  return {
    shown: groups.slice(0, MAX_REPOSITORIES_LISTED),
    hidden: Math.max(0, groups.length - MAX_REPOSITORIES_LISTED),
  };
}

/** Slack: `text` (the notification's fallback) plus blocks, one section per repository. */
export function slackPayload(input: MessageInput) {
  const title = headline(input);
  const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(title)}*` } }];
  if (input.kind !== 'test') {
    const { shown, hidden } = listed(input.events);
    for (const group of shown) {
      const lines = shownLines(group.events, input.kind).map((line) => `• ${slackEscape(line)}`);
      const link = `<${group.repository.url}|${slackEscape(group.repository.id)}>`;
      blocks.push({
        type: 'section',
        text: { type: 'mrkdwn', text: truncate(`*${link}*\n${lines.join('\n')}`, SLACK_SECTION_MAX) },
      });
    }
    if (hidden > 0)
      blocks.push({
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: `…and ${plural(hidden, 'more repository', 'more repositories')}` },
        ],
      });
  }
  return { text: title, blocks };
}

/** Discord: `content` with the headline, an embed per repository, and no mentions ever pinged. */
export function discordPayload(input: MessageInput) {
  const title = headline(input);
  const embeds: unknown[] = [];
  let more = 0;
  if (input.kind !== 'test') {
    const groups = groupByRepository(input.events);
    for (const group of groups.slice(0, DISCORD_EMBEDS)) {
      const lines = shownLines(group.events, input.kind).map((line) => `• ${line}`);
      embeds.push({
        title: truncate(group.repository.id, 256),
        url: group.repository.url,
        description: truncate(lines.join('\n'), DISCORD_DESCRIPTION_MAX),
      });
    }
    more = Math.max(0, groups.length - DISCORD_EMBEDS);
  }
  const suffix = more > 0 ? `\n…and ${plural(more, 'more repository', 'more repositories')}.` : '';
  return {
    content: truncate(`${title}${suffix}`, DISCORD_CONTENT_MAX),
    embeds,
    // A repository description could say @everyone: nothing in a notification pings anyone.
    allowed_mentions: { parse: [] },
  };
}

/**
 * The generic webhook's body (docs/product.md#notification-messages):
 * `{ type, kind, app, text, events: [{ id, type, occurred_at, detected_at, data, text, repository }],
 * repositories: [{ id, url, event_ids }] }`, plus `event` and `repository` for an instant message
 * of one event (an instant message of one sync's releases lists them in `events` only).
 */
export function webhookPayload(input: MessageInput) {
  const events = [...input.events]
    .sort((a, b) => a.id - b.id)
    .map((event) => ({
      id: event.id,
      type: event.type,
      occurred_at: event.occurred_at,
      ...(event.detected_at ? { detected_at: event.detected_at } : {}),
      data: event.data,
      text: eventLine(event),
      repository: event.repository,
    }));
  const repositories = groupByRepository(input.events).map((group) => ({
    ...group.repository,
    event_ids: group.events.map((event) => event.id),
  }));
  const single = input.kind === 'instant' && events.length === 1 ? events[0] : undefined;
  return {
    type: input.kind === 'test' ? 'test' : 'notification',
    kind: input.kind,
    app: input.appName,
    text: headline(input),
    ...(single ? { event: single, repository: single.repository } : {}),
    events,
    repositories,
  };
}

export function emailMessage(input: MessageInput, to: string): MailMessage {
  const text = plainText(input);
  return {
    to,
    subject: truncate(`[${input.appName}] ${headline(input)}`, 200),
    text,
    html: `<!doctype html><html><body><pre style="font-family:sans-serif;white-space:pre-wrap">${escapeHtml(text)}</pre></body></html>`,
  };
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function truncate(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

/** Slack's mrkdwn control characters; repository names and texts are shown as written. */
function slackEscape(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
