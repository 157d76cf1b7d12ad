import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { decisionBodySchema } from '#shared/schemas/decisions.ts';
import {
  addRepositoryBodySchema,
  repositoryIdParamsSchema,
  tagsSchema,
} from '#shared/schemas/repositories.ts';
import { addTags, removeTags } from '../catalogue/bulk.service.ts';
import { presentDecision, presentListed, toolError, toolResult } from './mcp-presenter.ts';
import { answer, type McpCaller, type McpToolDeps, readOnlyRefusal, type WriteTool } from './tool-context.ts';
import { untrusted, untrustedList } from './untrusted-text.ts';

const repositoryId = repositoryIdParamsSchema.shape.id.describe('the repository id, owner/name');
const writes = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

const tagInput = z
  .object({
    id: repositoryId,
    add: tagsSchema.optional().describe('comma-separated tags to add'),
    remove: z.string().max(2000).optional().describe('comma-separated tags to remove (any case)'),
  })
  .refine((value) => Boolean(value.add?.trim() || value.remove?.trim()), {
    message: 'Send tags to add or to remove',
    path: ['add'],
  });

const decisionInput = decisionBodySchema.safeExtend({ id: repositoryId });

/** add_repository, tag_repository, record_decision: the `write` scope (or `admin`). */
export function registerWriteTools(server: McpServer, deps: McpToolDeps, caller: McpCaller): void {
  const { viewer } = caller;
  const { log } = deps;
  /** A read token's call of a write tool: refused before anything runs. */
  const write = (tool: WriteTool, run: () => ReturnType<typeof answer>) =>
    caller.scope === 'read' ? Promise.resolve(toolError(readOnlyRefusal(tool))) : answer(log, tool, run);

  server.registerTool(
    'add_repository',
    {
      title: 'Add a repository',
      description:
        'Add a GitHub repository to the catalogue by URL (https://github.com/owner/name) or id (owner/name), optionally with tags. A private repository needs your own GitHub token in Settings. When GitHub’s pace is spent the add is queued and finishes in the background.',
      inputSchema: addRepositoryBodySchema,
      annotations: { ...writes, openWorldHint: true },
    },
    (args) =>
      write('add_repository', async () => {
        const added = await deps.catalogue.add(viewer, { url: args.url, id: args.id, tags: args.tags });
        if ('queued' in added)
          return toolResult(added.message, { queued: true, eta: added.eta, message: added.message });
        return toolResult(`Added ${added.repository.id}.`, { repository: presentListed(added.repository) });
      }),
  );

  server.registerTool(
    'tag_repository',
    {
      title: 'Tag a repository',
      description: 'Add tags to a repository, remove tags from it, or both (comma-separated).',
      inputSchema: tagInput,
      annotations: writes,
    },
    (args) =>
      write('tag_repository', async () => {
        const current = await deps.catalogueQuery.get(viewer, args.id);
        let tags = current.tags;
        if (args.add) tags = addTags(tags, args.add);
        if (args.remove) tags = removeTags(tags, args.remove);
        const repository =
          tags === current.tags ? current : await deps.catalogue.updateMetadata(viewer, args.id, { tags });
        return toolResult(`Tags of ${repository.id}: ${repository.tags ? 'see tags' : 'none'}.`, {
          id: repository.id,
          tags: untrustedList(repository.tags),
        });
      }),
  );

  server.registerTool(
    'record_decision',
    {
      title: "Record the team's decision",
      description:
        'Move a repository to a status (assess, trial, adopt, hold, retired; null clears it) in a radar quadrant, with a Markdown rationale (required for adopt, hold and retired), links and an optional review date. Where decisions are made by admins (DECISIONS_BY=admins) a member’s call opens a proposal instead, for an admin to accept or decline.',
      inputSchema: decisionInput,
      annotations: writes,
    },
    ({ id, ...body }) =>
      write('record_decision', async () => {
        if (deps.decisionsBy === 'admins' && !viewer.is_admin) {
          const proposal = await deps.decisions.propose(viewer, id, body);
          return toolResult(
            `Proposed for ${proposal.full_name}: decisions are made by admins here (DECISIONS_BY=admins), so an admin accepts or declines it.`,
            {
              outcome: 'proposed',
              proposal: {
                id: proposal.id,
                repository: proposal.repository_id,
                state: proposal.state,
                status: proposal.status,
                quadrant: proposal.quadrant,
                rationale: untrusted(proposal.rationale),
                review_by: proposal.review_by,
              },
            },
          );
        }
        const decision = await deps.decisions.decide(viewer, id, body);
        return toolResult(`Recorded for ${decision.repository_id}: ${decision.to_status ?? 'no status'}.`, {
          outcome: 'recorded',
          repository: decision.repository_id,
          decision: presentDecision(decision),
        });
      }),
  );
}
