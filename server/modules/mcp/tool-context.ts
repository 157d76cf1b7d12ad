import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiTokenScope } from '#shared/schemas/api-tokens.ts';
import type { DecisionsBy } from '#shared/schemas/decisions.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Viewer } from '../../repository/access-policy.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { CatalogueService } from '../catalogue/catalogue.service.ts';
import type { CatalogueQueryService } from '../catalogue-query/catalogue-query.service.ts';
import type { DecisionsService } from '../decisions/decisions.service.ts';
import type { HistoryService } from '../history/history.service.ts';
import type { RadarService } from '../radar/radar.service.ts';
import type { RepositoryHealthService } from '../repository-health/repository-health.service.ts';
import { toolError } from './mcp-presenter.ts';

/** The services the tools call, exactly as the HTTP routes call them. */
export interface McpToolDeps {
  catalogueQuery: Pick<CatalogueQueryService, 'page' | 'get'>;
  catalogue: Pick<CatalogueService, 'add' | 'updateMetadata'>;
  activity: Pick<ActivityService, 'page'>;
  radar: Pick<RadarService, 'radar'>;
  decisions: Pick<DecisionsService, 'decide' | 'propose' | 'decisions'>;
  health: Pick<RepositoryHealthService, 'health'>;
  history: Pick<HistoryService, 'metrics'>;
  clock: Clock;
  decisionsBy: DecisionsBy;
  log: FastifyBaseLogger;
}

/** Who calls: the token's owner as the visibility rule sees them, and the token's scope. */
export interface McpCaller {
  viewer: Viewer;
  scope: ApiTokenScope;
}

/** The read tools need `read`; these need `write` (or `admin`) (docs/mcp.md#scopes). */
export const WRITE_TOOLS = ['add_repository', 'tag_repository', 'record_decision'] as const;
export type WriteTool = (typeof WRITE_TOOLS)[number];

export const readOnlyRefusal = (tool: WriteTool) =>
  `This API token is read-only: ${tool} changes the catalogue and needs a token with the write scope (create one in Settings → API tokens).`;

/** A call's outcome: the answer, or the service's refusal as a tool error (any other failure is logged). */
export async function answer(
  log: FastifyBaseLogger,
  tool: string,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) return toolError(error.message);
    log.error({ err: error, tool }, 'MCP tool failed');
    return toolError(`${tool} failed on the server; try again later.`);
  }
}
