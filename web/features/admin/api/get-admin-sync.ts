import { useQuery } from '@tanstack/react-query';
import { type AdminSync, adminSyncSchema } from '#shared/schemas/admin.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { adminKeys } from './admin-keys.ts';

/** How often the overview reads the sync engine again while it is open. */
export const ADMIN_SYNC_REFRESH_MS = 30_000;

/** GET /auth/admin/sync → the sync engine's state: due and running work, tokens, failures. */
export function getAdminSync(signal?: AbortSignal): Promise<AdminSync> {
  return apiRequest('/auth/admin/sync', adminSyncSchema, { signal });
}

export function useAdminSync() {
  return useQuery({
    queryKey: adminKeys.sync,
    queryFn: ({ signal }) => getAdminSync(signal),
    refetchInterval: ADMIN_SYNC_REFRESH_MS,
  });
}
