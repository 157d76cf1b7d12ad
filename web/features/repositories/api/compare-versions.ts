import { useMutation } from '@tanstack/react-query';
import { type CompareResponse, compareResponseSchema } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export interface CompareVariables {
  first: number;
  second: number;
}

/** GET /api/compare-versions?repo_id=&version1_id=&version2_id= → {differences}. */
export async function compareVersions(
  fullName: string,
  { first, second }: CompareVariables,
): Promise<CompareResponse['differences']> {
  const query = new URLSearchParams({
    repo_id: fullName,
    version1_id: String(first),
    version2_id: String(second),
  });
  const { differences } = await apiRequest(`/api/compare-versions?${query}`, compareResponseSchema);
  return differences;
}

/** A read, but made on demand by the Compare button ('Comparing...' while pending). */
export function useCompareVersions(fullName: string) {
  return useMutation({ mutationFn: (variables: CompareVariables) => compareVersions(fullName, variables) });
}
