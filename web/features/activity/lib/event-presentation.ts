import {
  IconAlertTriangle,
  IconArchive,
  IconArchiveOff,
  IconArrowsExchange,
  IconBulb,
  IconCalendarDue,
  IconCircleCheck,
  IconCircleX,
  IconCloudOff,
  IconFileDescription,
  IconGavel,
  IconHash,
  IconHeartbeat,
  IconLicense,
  IconPlus,
  IconShieldExclamation,
  IconStar,
  IconTag,
  IconZzz,
  type TablerIcon,
} from '@tabler/icons-react';
import { describeRelativeAge, formatTime } from '#shared/format.ts';
import type { EventType } from '#shared/schemas/activity.ts';

/** Each type's icon, colour and the name the type filter shows. */
export const EVENT_PRESENTATION: Record<EventType, { icon: TablerIcon; color: string; label: string }> = {
  repository_added: { icon: IconPlus, color: 'blue', label: 'Added' },
  release_published: { icon: IconTag, color: 'grape', label: 'Release published' },
  archived: { icon: IconArchive, color: 'yellow', label: 'Archived' },
  unarchived: { icon: IconArchiveOff, color: 'teal', label: 'Unarchived' },
  license_changed: { icon: IconLicense, color: 'orange', label: 'Licence changed' },
  renamed: { icon: IconArrowsExchange, color: 'indigo', label: 'Renamed or transferred' },
  gone: { icon: IconCloudOff, color: 'red', label: 'Gone from GitHub' },
  description_changed: { icon: IconFileDescription, color: 'cyan', label: 'Description changed' },
  topics_changed: { icon: IconHash, color: 'lime', label: 'Topics changed' },
  star_milestone: { icon: IconStar, color: 'yellow', label: 'Star milestone' },
  stale: { icon: IconZzz, color: 'gray', label: 'Stale' },
  health_dropped: { icon: IconHeartbeat, color: 'red', label: 'Health dropped' },
  advisory_published: { icon: IconShieldExclamation, color: 'red', label: 'Security advisory' },
  decision_changed: { icon: IconGavel, color: 'violet', label: 'Decision recorded' },
  proposal_opened: { icon: IconBulb, color: 'blue', label: 'Proposal opened' },
  proposal_accepted: { icon: IconCircleCheck, color: 'teal', label: 'Proposal accepted' },
  proposal_declined: { icon: IconCircleX, color: 'gray', label: 'Proposal declined' },
  review_due: { icon: IconCalendarDue, color: 'orange', label: 'Review due' },
  adopted_at_risk: { icon: IconAlertTriangle, color: 'red', label: 'Adopted but at risk' },
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When an event happened, as the feed shows it: the time for today's ('Today, 14:05'), else the
 * age in words ('3 days ago'), from the shared formatting helpers.
 */
export function eventAge(occurredAt: string, now: Date = new Date()): string {
  const at = Date.parse(occurredAt);
  if (!Number.isNaN(at) && now.getTime() - at < DAY_MS && new Date(at).getDate() === now.getDate())
    return `Today, ${formatTime(occurredAt)}`;
  return describeRelativeAge(occurredAt, now);
}

/**
 * The sentence split around the repository's name, so the name can be a link: `before`, the
 * name, `after`; `name` is null when the sentence doesn't contain it (a renamed repository's
 * old event names its former name).
 */
export function splitSentence(
  sentence: string,
  fullName: string,
): { before: string; name: string | null; after: string } {
  const index = sentence.indexOf(fullName);
  if (index < 0) return { before: sentence, name: null, after: '' };
  return { before: sentence.slice(0, index), name: fullName, after: sentence.slice(index + fullName.length) };
}

function sameDay(a: string, b: string): boolean {
  const first = new Date(a);
  const second = new Date(b);
  return first.toDateString() === second.toDateString();
}

/** An age inside a sentence: 'today', else '4 months ago'. */
function dayAge(at: string, now: Date): string {
  const age = describeRelativeAge(at, now);
  return age === 'Today' || sameDay(at, now.toISOString()) ? 'today' : age;
}

/**
 * When, as the feed shows it (docs/product.md#activity-screen): the feed is in the order the
 * catalogue found events, so when an event happened on another day than it was found both are
 * said, 'published 4 months ago · found today'; otherwise its age as `eventAge` words it.
 */
export function eventWhen(
  event: { type: EventType; occurred_at: string; detected_at?: string | undefined },
  now: Date = new Date(),
): string {
  const found = event.detected_at;
  if (!found || Number.isNaN(Date.parse(found)) || sameDay(event.occurred_at, found))
    return eventAge(event.occurred_at, now);
  const verb = event.type === 'release_published' ? 'published' : 'happened';
  return `${verb} ${dayAge(event.occurred_at, now)} · found ${dayAge(found, now)}`;
}
