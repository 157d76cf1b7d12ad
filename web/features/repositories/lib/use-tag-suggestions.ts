import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { RepositorySummary } from '../../../../shared/schemas/repositories.ts';
import { tagSuggestions } from '../../../../shared/tag-colors.ts';
import { useAuth } from '../../../lib/auth/auth-context.tsx';
import { repositoriesQueryOptions } from '../../../lib/repositories-query.ts';

/**
 * Up to 8 most-used tags of the member's own repositories, from the (shared)
 * repository list query.
 */
export function useTagSuggestions() {
  const { user } = useAuth();
  const userId = user?.id ?? -1;
  const select = useCallback((rows: RepositorySummary[]) => tagSuggestions(rows, userId), [userId]);
  return useQuery({ ...repositoriesQueryOptions, select });
}
