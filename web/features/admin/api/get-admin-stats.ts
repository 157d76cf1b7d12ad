import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AdminStats, adminStatsSchema } from '#shared/schemas/admin.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { adminKeys } from './admin-keys.ts';

/** GET /auth/admin/stats → the user and repository counts. */
export function getAdminStats(signal?: AbortSignal): Promise<AdminStats> {
  return apiRequest('/auth/admin/stats', adminStatsSchema, { signal });
}

export const adminStatsQueryOptions = queryOptions({
  queryKey: adminKeys.stats,
  queryFn: ({ signal }) => getAdminStats(signal),
});

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions);
}
