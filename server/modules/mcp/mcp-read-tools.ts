import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ACTIVITY_PAGE_MAX, activityQuerySchema, eventTypeSchema } from '#shared/schemas/activity.ts';
import { catalogueListQuerySchema } from '#shared/schemas/catalogue.ts';
import { radarQuerySchema } from '#shared/schemas/radar.ts';
import { repositoryIdParamsSchema } from '#shared/schemas/repositories.ts';
import { MIN_GREATER_THAN_MAX } from '#shared/stats.ts';
import { parseTime } from '../../lib/clock.ts';
import { presentDetail, presentListed, toolResult, untrustedStrings } from './mcp-presenter.ts';
import { compareColumn } from './repository-comparison.ts';
import { answer, type McpCaller, type McpToolDeps } from './tool-context.ts';
import { untrusted } from './untrusted-text.ts';

export const SEARCH_LIMIT_MAX = 50;
const SEARCH_LIMIT_DEFAULT = 20;
const ACTIVITY_LIMIT_DEFAULT = 50;
const COMPARE_MIN = 2;
const COMPARE_MAX = 5;
const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const repositoryId = repositoryIdParamsSchema.shape.id.describe('the repository id, owner/name');

/** The list's query (GET /repositories/), its page at most 50 rows. */
const searchInput = z
  .object({
    ...catalogueListQuerySchema.shape,
    limit: z
      .number()
      .int()
      .min(1)
      .max(SEARCH_LIMIT_MAX, `limit is at most ${SEARCH_LIMIT_MAX}`)
      .optional()
      .describe(`rows per page, 1–${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT}`),
  })
  .superRefine((value, ctx) => {
    if (value.min_stars !== undefined && value.max_stars !== undefined && value.min_stars > value.max_stars)
      ctx.addIssue({ code: 'custom', message: MIN_GREATER_THAN_MAX, path: ['min_stars'] });
  });

const sinceSchema = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .describe('ISO 8601 date or date-time: only events the catalogue recorded at or after it');

const activityInput = z.object({
  since: sinceSchema.optional(),
  types: z
    .array(eventTypeSchema)
    .min(1)
    .optional()
    .describe('only these event types (any of them); default every type'),
  tag: activityQuerySchema.shape.tag,
  repository: activityQuerySchema.shape.repository,
  limit: z
    .number()
    .int()
    .min(1)
    .max(ACTIVITY_PAGE_MAX)
    .optional()
    .describe(`events at most, 1–${ACTIVITY_PAGE_MAX}, default ${ACTIVITY_LIMIT_DEFAULT}; newest first`),
});

const compareInput = z.object({
  ids: z
    .array(repositoryId)
    .min(COMPARE_MIN, `Compare ${COMPARE_MIN} to ${COMPARE_MAX} repositories`)
    .max(COMPARE_MAX, `Compare ${COMPARE_MIN} to ${COMPARE_MAX} repositories`)
    .refine(
      (ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length,
      'Name each repository once',
    )
    .describe(`${COMPARE_MIN} to ${COMPARE_MAX} repository ids (owner/name)`),
});

/** search_repositories, get_repository, list_activity, compare_repositories, get_radar: the `read` scope. */
export function registerReadTools(server: McpServer, deps: McpToolDeps, caller: McpCaller): void {
  const { viewer } = caller;
  const { log } = deps;

  server.registerTool(
    'search_repositories',
    {
      title: 'Search the catalogue',
      description:
        'Search and filter the repositories you may see, as the catalogue list does: q (substring of name, description, tags or licence), filters (tags, topics, language, license, stars, growth, health grades, decision status, advisories, archived, gone, added_by), sort and order. Pages of at most 50: pass next_cursor back with the same filters for the next.',
      inputSchema: searchInput,
      annotations: readOnly,
    },
    (args) =>
      answer(log, 'search_repositories', async () => {
        const page = await deps.catalogueQuery.page(viewer, {
          ...args,
          limit: args.limit ?? SEARCH_LIMIT_DEFAULT,
        });
        return toolResult(
          `${page.repositories.length} of ${page.total} matching repositories${page.next_cursor ? ' (more: pass next_cursor)' : ''}.`,
          {
            repositories: page.repositories.map(presentListed),
            total: page.total,
            next_cursor: page.next_cursor,
          },
        );
      }),
  );

  server.registerTool(
    'get_repository',
    {
      title: 'One repository',
      description:
        "One repository's detail: GitHub facts, health (score, grade and every signal), the team's decision in force, the latest release, tags, notes and recent comments.",
      inputSchema: z.object({ id: repositoryId }),
      annotations: readOnly,
    },
    ({ id }) =>
      answer(log, 'get_repository', async () => {
        const repository = await deps.catalogueQuery.get(viewer, id);
        const [health, decisions] = await Promise.all([
          deps.health.health(viewer, repository.id),
          deps.decisions.decisions(viewer, repository.id),
        ]);
        return toolResult(`Repository ${repository.id}.`, {
          repository: presentDetail(repository, health, decisions),
        });
      }),
  );

  server.registerTool(
    'list_activity',
    {
      title: 'Catalogue activity',
      description:
        'What happened in the catalogue, newest first: releases, archivals, renames, licence changes, star milestones, health drops, advisories, decisions and proposals. Filter by since, types, tag or repository.',
      inputSchema: activityInput,
      annotations: readOnly,
    },
    (args) =>
      answer(log, 'list_activity', async () => {
        const limit = args.limit ?? ACTIVITY_LIMIT_DEFAULT;
        const since = args.since ? parseTime(args.since).toISOString() : null;
        const events = [];
        let cursor: string | undefined;
        let more = false;
        // The feed's pages, newest first, until an event older than `since` or one past the limit.
        for (;;) {
          const page = await deps.activity.page(viewer, {
            type: args.types?.join(','),
            tag: args.tag,
            repository: args.repository,
            limit: ACTIVITY_PAGE_MAX,
            cursor,
          });
          const fresh = page.events.filter(
            (event) => !since || (event.detected_at ?? event.occurred_at) >= since,
          );
          events.push(...fresh);
          const reachedSince = fresh.length < page.events.length;
          if (events.length > limit) more = true;
          if (more || reachedSince || !page.next_cursor) break;
          cursor = page.next_cursor;
        }
        const shown = events.slice(0, limit).map((event) => ({
          type: event.type,
          repository: event.repository.id,
          occurred_at: event.occurred_at,
          detected_at: event.detected_at,
          actor: event.actor?.name ?? null,
          data: untrustedStrings(event.data),
        }));
        return toolResult(
          `${shown.length} events${more ? ` (more: narrow the filters or raise limit)` : ''}.`,
          {
            events: shown,
            more,
          },
        );
      }),
  );

  server.registerTool(
    'compare_repositories',
    {
      title: 'Compare repositories',
      description:
        '2–5 repositories side by side: stars now and 30 and 365 days ago (from the stored history), release cadence and the latest release, health score and signals, the decision status, advisories.',
      inputSchema: compareInput,
      annotations: readOnly,
    },
    ({ ids }) =>
      answer(log, 'compare_repositories', async () => {
        const today = deps.clock.now();
        const columns = [];
        for (const id of ids) {
          const repository = await deps.catalogueQuery.get(viewer, id);
          const [metrics, health] = await Promise.all([
            deps.history.metrics(viewer, repository.id),
            deps.health.health(viewer, repository.id),
          ]);
          columns.push(compareColumn(repository, metrics.metrics, health, today));
        }
        return toolResult(`${columns.map((column) => column.id).join(' vs ')}.`, { repositories: columns });
      }),
  );

  server.registerTool(
    'get_radar',
    {
      title: 'The technology radar',
      description:
        "The team's radar: blips by quadrant and ring (adopt, trial, assess, hold) with the rationale, health grade and at-risk causes, the retired entries and reviews due. `tag` keeps repositories carrying it; `edition` shows a published edition instead.",
      inputSchema: radarQuerySchema,
      annotations: readOnly,
    },
    (args) =>
      answer(log, 'get_radar', async () => {
        const radar = await deps.radar.radar(viewer, args);
        return toolResult(
          `Radar${radar.edition ? ` edition ${radar.edition.name}` : ''}: ${radar.blips.length} blips, ${radar.retired.length} retired.`,
          {
            quadrants: radar.quadrants,
            rings: radar.rings,
            blips: radar.blips.map((blip) => ({ ...blip, rationale: untrusted(blip.rationale) })),
            retired: radar.retired.map((entry) => ({ ...entry, rationale: untrusted(entry.rationale) })),
            reviews_due: radar.reviews_due,
            edition: radar.edition,
          },
        );
      }),
  );
}
