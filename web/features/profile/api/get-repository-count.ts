import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** Only what the count needs, so the rest of a repository row may evolve freely. */
const repositoryOwnersSchema = z.object({ repositories: z.array(z.object({ user_id: z.number() })) });

/**
 * The member's own repositories are the rows of GET /repositories/ whose user_id is
 * theirs (the list holds the whole team catalogue).
 */
export async function getRepositoryCount(userId: number, signal?: AbortSignal): Promise<number> {
  const { repositories } = await apiRequest('/repositories/', repositoryOwnersSchema, { signal });
  return repositories.filter((repository) => repository.user_id === userId).length;
}

/** Under the `repositories` key, so anything that changes the catalogue refreshes the count too. */
export function repositoryCountQueryOptions(userId: number) {
  return queryOptions({
    queryKey: ['repositories', 'count', userId],
    queryFn: ({ signal }) => getRepositoryCount(userId, signal),
    retry: false,
  });
}

export function useRepositoryCount(userId: number) {
  return useQuery(repositoryCountQueryOptions(userId));
}
