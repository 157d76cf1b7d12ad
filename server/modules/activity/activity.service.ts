import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  ACTIVITY_PAGE_DEFAULT,
  type ActivityEvent,
  type ActivityPage,
  type ActivityQuery,
  type EventType,
  FEED_ENTRIES,
  type FeedTokenCreated,
  type FeedTokenStatus,
  parseEventTypes,
} from '#shared/schemas/activity.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { CURSOR_ID_MAX, decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { hashToken, randomToken } from '../../lib/secret-box.ts';
import { resolveVisible, type Viewer, visibleTo } from '../../repository/access-policy.ts';
import { labelKey } from '../../repository/repository-labels.ts';
import { buildAtomFeed } from './atom-feed.ts';
import { presentEvent } from './event-presenter.ts';
import * as queries from './events.queries.ts';

type Db = Kysely<Database>;

export interface ActivityDeps {
  db: Db;
  clock: Clock;
  config: Pick<AppConfig, 'appName' | 'publicUrl'>;
}

/** What a public page's Atom carries: what GitHub did (and the health it implies), nothing members did. */
export const PUBLIC_EVENT_TYPES: readonly EventType[] = [
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
];

/** The one answer to a feed token that is missing, wrong or revoked: no hint which. */
export const FEED_TOKEN_INVALID = 'This feed address is not valid (its token may have been revoked).';

/**
 * The activity feed (docs/product.md#activity): `GET /activity`, a repository's own events, the
 * Atom feed and its per-member token. Every read applies the catalogue's visibility rule.
 */
export class ActivityService {
  readonly #deps: ActivityDeps;

  constructor(deps: ActivityDeps) {
    this.#deps = deps;
  }

  /** One page, newest first. */
  async page(viewer: Viewer, query: ActivityQuery): Promise<ActivityPage> {
    const limit = query.limit ?? ACTIVITY_PAGE_DEFAULT;
    const beforeId = query.cursor ? decodeCursor(query.cursor, feedCursorSchema).i : null;
    const repositoryId = query.repository
      ? (await resolveVisible(this.#deps.db, viewer, query.repository)).id
      : null;
    const events = await this.#list(viewer, {
      types: parseEventTypes(query.type),
      tag: tagKey(query.tag),
      repositoryId,
      beforeId,
      limit: limit + 1,
    });
    const page = events.slice(0, limit);
    const last = page.at(-1);
    return { events: page, next_cursor: events.length > limit && last ? encodeCursor({ i: last.id }) : null };
  }

  async #list(viewer: Viewer, filters: queries.EventFilters): Promise<ActivityEvent[]> {
    const visible = visibleTo(this.#deps.db.selectFrom('repositories'), viewer);
    const rows = await queries.listEvents(visible, filters);
    return rows.flatMap((row) => {
      const event = presentEvent(row);
      return event ? [event] : [];
    });
  }

  // ---- the Atom feed ---------------------------------------------------------------------------

  /**
   * A published view's Atom (docs/product.md#public-pages): what GitHub did in these public
   * repositories, newest first — never what members wrote or decided, nor who added what.
   */
  async publicAtom(
    repositoryIds: readonly number[],
    feed: { id: string; title: string; self: string; alternate: string; now: string },
  ): Promise<string> {
    const { db, config } = this.#deps;
    const rows = await queries.listPublicEvents(db, repositoryIds, PUBLIC_EVENT_TYPES, FEED_ENTRIES);
    const events = rows.flatMap((row) => {
      const event = presentEvent(row);
      return event ? [{ ...event, actor: undefined }] : [];
    });
    return buildAtomFeed({
      appName: config.appName,
      publicUrl: config.publicUrl,
      tag: null,
      events,
      now: feed.now,
      feed: {
        ...feed,
        // Readers of a public page are not members: entries link to GitHub, not into the app.
        entryLink: (event) => `https://github.com/${event.repository.id}`,
      },
    });
  }

  /** `GET /feeds/activity.atom`: the token owner's view of the activity, as Atom. */
  async atomFeed(token: string, tag: string | undefined): Promise<string> {
    const { db, clock, config } = this.#deps;
    const hash = hashToken(token);
    const owner = await queries.findFeedTokenOwner(db, hash);
    // Unknown, revoked, or its member deactivated: one answer.
    if (owner?.is_active !== 1) throw invalidFeedToken();
    const viewer: Viewer = { id: owner.user_id, is_admin: owner.is_admin === 1 };
    const events = await this.#list(viewer, {
      types: null,
      tag: tagKey(tag),
      repositoryId: null,
      beforeId: null,
      limit: FEED_ENTRIES,
    });
    const now = isoNow(clock);
    await queries.touchFeedToken(db, hash, now);
    return buildAtomFeed({
      appName: config.appName,
      publicUrl: config.publicUrl,
      tag: tag?.trim() ? tag.trim() : null,
      events,
      now,
    });
  }

  async feedTokenStatus(userId: number): Promise<FeedTokenStatus> {
    const row = await queries.findFeedToken(this.#deps.db, userId);
    return {
      exists: row !== undefined,
      created_at: row?.created_at ?? null,
      last_used_at: row?.last_used_at ?? null,
    };
  }

  /** A new token (the old one stops working at once); shown this once, only its hash is kept. */
  async createFeedToken(userId: number): Promise<FeedTokenCreated> {
    const token = randomToken(32);
    const now = isoNow(this.#deps.clock);
    await queries.replaceFeedToken(this.#deps.db, userId, hashToken(token), now);
    return {
      token,
      feed_url: `${this.#deps.config.publicUrl}/feeds/activity.atom?token=${encodeURIComponent(token)}`,
      created_at: now,
    };
  }

  /**
   * The feed address stops working at once. `db` is the caller's transaction when the revocation
   * belongs to a larger change ("sign out everywhere", docs/security.md#c7).
   */
  async revokeFeedToken(userId: number, db: Kysely<Database> = this.#deps.db): Promise<FeedTokenStatus> {
    await queries.deleteFeedToken(db, userId);
    return { exists: false, created_at: null, last_used_at: null };
  }
}

function tagKey(tag: string | undefined): string | null {
  const key = tag === undefined ? '' : labelKey(tag);
  return key === '' ? null : key;
}

const feedCursorSchema = z.object({ i: z.number().int().min(1).max(CURSOR_ID_MAX) });

function invalidFeedToken(): AppError {
  return new AppError(401, 'unauthorized', FEED_TOKEN_INVALID);
}
