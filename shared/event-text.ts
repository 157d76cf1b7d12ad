import { displayLicense, formatCount, formatStars } from './format.ts';
import type { ActivityEvent } from './schemas/activity.ts';

/** 'was moved to Adopt (tools)', 'has no status any more'. */
function decisionWords(status: string | null, quadrant: string | null): string {
  if (status === null) return 'has no status any more';
  return `was moved to ${status[0]?.toUpperCase()}${status.slice(1)}${quadrant ? ` (${quadrant})` : ''}`;
}

/** Why an adopted or trialled repository is at risk, as the sentence ends. */
function atRiskWords(cause: 'health_at_risk' | 'archived' | 'advisory'): string {
  if (cause === 'archived') return 'it was archived';
  if (cause === 'advisory') return 'it has an open high or critical security advisory';
  return 'its health is at risk';
}

function proposalWords(status: string | null): string {
  return status === null ? 'clear its status' : `move it to ${status[0]?.toUpperCase()}${status.slice(1)}`;
}

/** Some fields of an event, still discriminated by `type`. */
export type EventParts<K extends keyof ActivityEvent> = ActivityEvent extends infer E
  ? E extends ActivityEvent
    ? Pick<E, K>
    : never
  : never;

/**
 * Events as sentences (docs/product.md#activity): one wording for the Activity screen, the
 * repository page and the Atom feed. `subject` is how the repository is named at the start of the
 * sentence (its full name by default; the repository page passes "This repository").
 */
export function describeEvent(
  event: EventParts<'type' | 'data' | 'repository' | 'actor'>,
  subject: string = event.repository.full_name,
): string {
  switch (event.type) {
    case 'repository_added':
      return event.actor
        ? `${subject} was added to the catalogue by ${event.actor.name}`
        : `${subject} was added to the catalogue`;
    case 'release_published': {
      const { tag, name, prerelease } = event.data;
      const label = name && name !== tag ? `${tag} (${name})` : tag;
      return `${subject} published ${prerelease ? 'pre-release' : 'release'} ${label}`;
    }
    case 'archived':
      return `${subject} was archived on GitHub`;
    case 'unarchived':
      return `${subject} is no longer archived`;
    case 'license_changed':
      return `${subject} changed its licence from ${licence(event.data.from)} to ${licence(event.data.to)}`;
    case 'renamed': {
      const { from, to } = event.data;
      const owner = (name: string) => name.split('/')[0]?.toLowerCase();
      return owner(from) === owner(to) ? `${from} was renamed to ${to}` : `${from} was transferred to ${to}`;
    }
    case 'gone':
      return `${subject} is gone from GitHub (deleted, or no longer readable)`;
    case 'description_changed':
      if (event.data.from === null) return `${subject} got a description`;
      if (event.data.to === null) return `${subject} removed its description`;
      return `${subject} changed its description`;
    case 'topics_changed': {
      const { added, removed } = event.data;
      const parts = [
        added.length > 0 ? `added ${plural(added.length, 'topic')} ${list(added)}` : null,
        removed.length > 0 ? `removed ${plural(removed.length, 'topic')} ${list(removed)}` : null,
      ].filter(Boolean);
      return `${subject} ${parts.join(' and ')}`;
    }
    case 'star_milestone':
      return `${subject} passed ${formatMilestone(event.data.milestone)} stars`;
    case 'health_dropped':
      return `${subject}’s health fell from ${gradeWords(event.data.from)} to ${gradeWords(event.data.to)}`;
    case 'advisory_published': {
      const { severity, ghsa_id, package: affected } = event.data;
      const about = affected ? ` for ${affected.name} (${affected.ecosystem})` : '';
      return `${subject}: ${severityWords(severity)} security advisory ${ghsa_id}${about}`;
    }
    case 'decision_changed':
      return `${subject} ${decisionWords(event.data.to_status, event.data.to_quadrant)}`;
    case 'proposal_opened':
      return `${subject}: proposed to ${proposalWords(event.data.status)}`;
    case 'proposal_accepted':
      return `${subject}: the proposal to ${proposalWords(event.data.status)} was accepted`;
    case 'proposal_declined':
      return `${subject}: the proposal #${event.data.proposal_id} was declined`;
    case 'review_due':
      return `${subject}: its decision is due for review (${event.data.review_by})`;
    case 'adopted_at_risk':
      return `${subject} is in ${event.data.status[0]?.toUpperCase()}${event.data.status.slice(1)} but at risk: ${atRiskWords(event.data.cause)}`;
    case 'stale':
      return event.data.last_commit
        ? `${subject} has had no commit for ${formatCount(event.data.days)} days`
        : `${subject} has shown no commit for ${formatCount(event.data.days)} days`;
  }
}

/** The detail under the sentence, where there is one worth showing (the new description…). */
export function describeEventDetail(event: EventParts<'type' | 'data'>): string | null {
  switch (event.type) {
    case 'description_changed':
      return event.data.to;
    case 'star_milestone':
      return `${formatCount(event.data.stars)} stars when seen`;
    case 'release_published':
      return event.data.url;
    case 'advisory_published':
      return event.data.open ? event.data.summary : `${event.data.summary} (a tracked release fixes it)`;
    case 'proposal_declined':
      return event.data.reason;
    default:
      return null;
  }
}

/**
 * Events one sync records several of for one repository (docs/product.md#activity): each stays
 * an event of its own, but the Activity screen, instant messages and digests show the ones of one
 * repository and one sync as one line.
 */
export const BATCHED_EVENT_TYPES = ['release_published', 'star_milestone'] as const;
export type BatchedEventType = (typeof BATCHED_EVENT_TYPES)[number];

export function isBatchedType(type: string): type is BatchedEventType {
  return (BATCHED_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * What several events of one sync did, after the repository's name, from their labels oldest
 * first (release tags, or milestones as '10k'): 'published 4 releases, v1.0 … v1.3' (two:
 * 'v1.0 and v1.1'), 'passed 1k, 5k and 10k stars' (at most nine milestones: each is named).
 */
export function describeBatchAction(type: BatchedEventType, labels: readonly string[]): string {
  const first = labels[0] ?? '';
  const last = labels.at(-1) ?? '';
  if (type === 'star_milestone')
    return `passed ${labels.length <= 1 ? first : `${labels.slice(0, -1).join(', ')} and ${last}`} stars`;
  const span =
    labels.length <= 1 ? first : labels.length === 2 ? `${first} and ${last}` : `${first} … ${last}`;
  return `published ${labels.length} ${labels.length === 1 ? 'release' : 'releases'}, ${span}`;
}

/** An event's label within its batch: the release's tag, or the milestone ('10k'). */
export function batchLabel(type: BatchedEventType, data: unknown): string {
  const fields = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  return type === 'release_published' ? String(fields.tag ?? '') : formatMilestone(Number(fields.milestone));
}

/** 1,000 → "1k", 25,000 → "25k", 1,000,000 → "1M": milestones are round. */
export function formatMilestone(milestone: number): string {
  if (milestone >= 1_000_000 && milestone % 1_000_000 === 0) return `${milestone / 1_000_000}M`;
  if (milestone >= 1000 && milestone % 1000 === 0) return `${milestone / 1000}k`;
  return formatStars(milestone);
}

function licence(value: string): string {
  const shown = displayLicense(value);
  return shown === displayLicense('') ? 'none' : shown;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

function list(items: readonly string[]): string {
  return items.join(', ');
}

/** A health grade as a sentence names it. */
function gradeWords(grade: 'healthy' | 'watch' | 'at_risk'): string {
  return grade === 'at_risk' ? 'at risk' : grade === 'watch' ? 'watch' : 'healthy';
}

/** 'a critical', 'an unrated': the severity as the sentence names it. */
function severityWords(severity: 'critical' | 'high' | 'medium' | 'low' | 'unknown'): string {
  switch (severity) {
    case 'unknown':
      return 'an unrated';
    default:
      return `a ${severity}`;
  }
}
