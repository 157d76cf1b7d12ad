import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type DecisionBody,
  decisionListSchema,
  decisionResponseSchema,
  type ProposalCommentBody,
  proposalCommentListSchema,
  proposalCommentResponseSchema,
  proposalPageSchema,
  proposalResponseSchema,
  quadrantsSchema,
} from '#shared/schemas/decisions.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/**
 * A repository's team decision (docs/product.md#team-decisions): its records, its open
 * proposals, the quadrants and who decides. A change reads the repository (its badge), its
 * records, its proposals and the list (Status column, filters, statistics) again.
 */
export const decisionKeys = {
  quadrants: ['decisions', 'quadrants'] as const,
  records: (fullName: string) => [...repositoryKeys.detail(fullName), 'decisions'] as const,
  proposals: (fullName: string) => [...repositoryKeys.detail(fullName), 'proposals'] as const,
};

/** GET /radar/quadrants: the four quadrants and `decisions_by`; they change rarely. */
export function useQuadrants() {
  return useQuery(
    queryOptions({
      queryKey: decisionKeys.quadrants,
      queryFn: ({ signal }) => apiRequest('/radar/quadrants', quadrantsSchema, { signal }),
      staleTime: 5 * 60_000,
    }),
  );
}

/** GET /repositories/{id}/decisions: every record, oldest first. */
export function useDecisions(fullName: string) {
  return useQuery({
    queryKey: decisionKeys.records(fullName),
    queryFn: async ({ signal }) =>
      (await apiRequest(`${repositoryPath(fullName)}/decisions`, decisionListSchema, { signal })).decisions,
  });
}

/** GET /proposals?repository=: the repository's open proposals, newest first. */
export function useOpenProposals(fullName: string) {
  return useQuery({
    queryKey: decisionKeys.proposals(fullName),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(
          `/proposals?state=open&repository=${encodeURIComponent(fullName)}`,
          proposalPageSchema,
          { signal },
        )
      ).proposals,
  });
}

function useDecisionChange<Variables, Result>(
  fullName: string,
  call: (variables: Variables) => Promise<Result>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: repositoryKeys.detail(fullName) }),
        queryClient.invalidateQueries({ queryKey: repositoryKeys.list() }),
      ]);
    },
  });
}

/** PUT /repositories/{id}/decision: a new record (admins only when DECISIONS_BY=admins). */
export function useRecordDecision(fullName: string) {
  return useDecisionChange(
    fullName,
    async (body: DecisionBody) =>
      (
        await apiRequest(`${repositoryPath(fullName)}/decision`, decisionResponseSchema, {
          method: 'PUT',
          body,
        })
      ).decision,
  );
}

/** POST /repositories/{id}/proposals: a member proposes the move (DECISIONS_BY=admins). */
export function usePropose(fullName: string) {
  return useDecisionChange(
    fullName,
    async (body: DecisionBody) =>
      (
        await apiRequest(`${repositoryPath(fullName)}/proposals`, proposalResponseSchema, {
          method: 'POST',
          body,
        })
      ).proposal,
  );
}

/** PUT /proposals/{id}/vote, POST …/accept and …/decline, for one repository's proposals. */
export function useProposalActions(fullName: string) {
  const vote = useDecisionChange(fullName, ({ id, value }: { id: number; value: 1 | -1 }) =>
    apiRequest(`/proposals/${id}/vote`, proposalResponseSchema, { method: 'PUT', body: { value } }),
  );
  const accept = useDecisionChange(fullName, (id: number) =>
    apiRequest(`/proposals/${id}/accept`, proposalResponseSchema, { method: 'POST' }),
  );
  const decline = useDecisionChange(fullName, ({ id, reason }: { id: number; reason: string }) =>
    apiRequest(`/proposals/${id}/decline`, proposalResponseSchema, { method: 'POST', body: { reason } }),
  );
  return { vote, accept, decline };
}

/** GET /proposals/{id}/comments: the discussion of one proposal, oldest first. */
export function useProposalComments(fullName: string, proposalId: number) {
  return useQuery({
    queryKey: [...decisionKeys.proposals(fullName), proposalId, 'comments'] as const,
    queryFn: async ({ signal }) =>
      (await apiRequest(`/proposals/${proposalId}/comments`, proposalCommentListSchema, { signal })).comments,
  });
}

/** POST /proposals/{id}/comments: a member's comment (Markdown without raw HTML); not an activity event. */
export function useAddProposalComment(fullName: string, proposalId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ProposalCommentBody) =>
      (
        await apiRequest(`/proposals/${proposalId}/comments`, proposalCommentResponseSchema, {
          method: 'POST',
          body,
        })
      ).comment,
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: [...decisionKeys.proposals(fullName), proposalId, 'comments'],
      }),
  });
}
