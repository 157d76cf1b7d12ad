import type { Selectable } from 'kysely';
import { type NewEvent, STAR_MILESTONES } from '#shared/schemas/activity.ts';
import type { RepositoriesTable } from '../../db/schema.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';

/**
 * Event detection (docs/product.md#activity) as pure functions of two states: the stored row
 * before a write and what GitHub says now. The callers (the catalogue's add path, applySnapshot
 * and markGone) record the result with `insertEvents` in the transaction that writes the change.
 * `release_published` is the releases module's; nothing here detects it.
 */

/** The stored columns detection compares. */
export type StoredRepository = Pick<
  Selectable<RepositoriesTable>,
  | 'id'
  | 'full_name'
  | 'description'
  | 'license'
  | 'topics'
  | 'stars'
  | 'archived'
  | 'gone'
  | 'last_commit'
  | 'created_at'
>;

/**
 * What was already fired for a repository, read from its own events: milestones fire once each,
 * stale once per quiet spell (see `detectSnapshotEvents`). Keeping this in the events (instead of
 * a column) means a restored backup remembers it too.
 */
export interface EventHistory {
  /** Star milestones recorded so far. */
  milestonesFired: readonly number[];
  /** The newest stale event's `last_commit`; undefined when the repository was never stale. */
  lastStaleCommit: string | null | undefined;
}

export interface DetectionContext {
  now: Date;
  /** STALE_AFTER_DAYS. */
  staleAfterDays: number;
  history: EventHistory;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** An add, by the member who added it (every add path ends in the catalogue's one insert). */
export function detectAddEvents(repositoryId: number, userId: number): NewEvent[] {
  return [{ type: 'repository_added', repository_id: repositoryId, user_id: userId, data: {} }];
}

/** Flagged gone: an event the first time only, not on every sync that finds it still missing. */
export function detectGoneEvents(before: Pick<StoredRepository, 'id' | 'gone'>): NewEvent[] {
  return before.gone === 0 ? [{ type: 'gone', repository_id: before.id, data: {} }] : [];
}

/** Milestones strictly above `from` and at most `to`: the ones a move from `from` to `to` crosses upward. */
export function milestonesCrossed(from: number, to: number): number[] {
  return STAR_MILESTONES.filter((milestone) => from < milestone && to >= milestone);
}

/**
 * When the repository's current quiet spell makes it stale: its last commit plus
 * STALE_AFTER_DAYS, counted from when it was added for a repository without commits. Null when
 * it can't become stale: archived (archiving says more than staleness), or the moment is not
 * after the add — a repository already quiet when it was added is not news until it has a new
 * commit and goes quiet again.
 */
export function staleMoment(
  before: Pick<StoredRepository, 'created_at'>,
  after: Pick<RepositorySnapshot, 'lastCommit' | 'archived'>,
  staleAfterDays: number,
): number | null {
  if (after.archived) return null;
  const reference = Date.parse(after.lastCommit ?? before.created_at);
  if (Number.isNaN(reference)) return null;
  const moment = reference + staleAfterDays * DAY_MS;
  return moment > Date.parse(before.created_at) ? moment : null;
}

/**
 * Which parts of the history detection needs for this pair of states: the service reads a
 * repository's past events only when a milestone is crossed or the repository is stale now, so
 * an ordinary sync costs no extra query.
 */
export function historyNeeded(
  before: StoredRepository,
  after: RepositorySnapshot,
  now: Date,
  staleAfterDays: number,
): { milestones: boolean; stale: boolean } {
  const moment = staleMoment(before, after, staleAfterDays);
  return {
    milestones: milestonesCrossed(before.stars, after.stars).length > 0,
    stale: moment !== null && now.getTime() >= moment,
  };
}

/**
 * Everything a sync can see change between the stored row and GitHub's snapshot, in the order
 * it is recorded: renamed or transferred, archived or unarchived, licence, description, topics,
 * star milestones (each crossed upward, lowest first, at most once per repository: a drop and a
 * new crossing don't fire again), stale (once per quiet spell: again only after a new commit and
 * another STALE_AFTER_DAYS without one).
 */
export function detectSnapshotEvents(
  before: StoredRepository,
  after: RepositorySnapshot,
  context: DetectionContext,
): NewEvent[] {
  const repository_id = before.id;
  const events: NewEvent[] = [];
  if (after.fullName !== before.full_name)
    events.push({ type: 'renamed', repository_id, data: { from: before.full_name, to: after.fullName } });
  if (before.archived === 0 && after.archived) events.push({ type: 'archived', repository_id, data: {} });
  if (before.archived === 1 && !after.archived) events.push({ type: 'unarchived', repository_id, data: {} });
  if (before.license !== after.license)
    events.push({
      type: 'license_changed',
      repository_id,
      data: { from: before.license, to: after.license },
    });
  const fromDescription = emptyAsNull(before.description);
  const toDescription = emptyAsNull(after.description);
  if (fromDescription !== toDescription)
    events.push({
      type: 'description_changed',
      repository_id,
      data: { from: fromDescription, to: toDescription },
    });
  const topicsBefore = before.topics ? before.topics.split(',').filter(Boolean) : [];
  const added = after.topics.filter((topic) => !topicsBefore.includes(topic));
  const removed = topicsBefore.filter((topic) => !after.topics.includes(topic));
  if (added.length > 0 || removed.length > 0)
    events.push({ type: 'topics_changed', repository_id, data: { added, removed } });
  for (const milestone of milestonesCrossed(before.stars, after.stars)) {
    if (context.history.milestonesFired.includes(milestone)) continue;
    events.push({ type: 'star_milestone', repository_id, data: { milestone, stars: after.stars } });
  }
  const moment = staleMoment(before, after, context.staleAfterDays);
  const alreadyFired =
    context.history.lastStaleCommit !== undefined && context.history.lastStaleCommit === after.lastCommit;
  if (moment !== null && context.now.getTime() >= moment && !alreadyFired) {
    const since = Date.parse(after.lastCommit ?? before.created_at);
    events.push({
      type: 'stale',
      repository_id,
      data: { last_commit: after.lastCommit, days: Math.floor((context.now.getTime() - since) / DAY_MS) },
    });
  }
  return events;
}

function emptyAsNull(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : value;
}
