import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Backup, backupListResponseSchema } from '#shared/schemas/admin.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { adminKeys } from './admin-keys.ts';

/** GET /health/backups → every backup, newest first. */
export async function getBackups(signal?: AbortSignal): Promise<Backup[]> {
  const { backups } = await apiRequest('/health/backups', backupListResponseSchema, { signal });
  return backups;
}

export const backupsQueryOptions = queryOptions({
  queryKey: adminKeys.backups,
  queryFn: ({ signal }) => getBackups(signal),
});

export function useBackups() {
  return useQuery(backupsQueryOptions);
}
