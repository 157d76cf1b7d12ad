import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type AdminUsersResponse, adminUsersResponseSchema } from '#shared/schemas/admin.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { type AdminUsersParams, adminKeys } from './admin-keys.ts';

/** GET /auth/admin/users?page&per_page&search&is_active → `{ users, total, page, per_page }`. */
export function getAdminUsers(params: AdminUsersParams, signal?: AbortSignal): Promise<AdminUsersResponse> {
  const query = new URLSearchParams({ page: String(params.page), per_page: String(params.per_page) });
  if (params.search.trim()) query.set('search', params.search.trim());
  if (params.is_active !== undefined) query.set('is_active', String(params.is_active));
  return apiRequest(`/auth/admin/users?${query}`, adminUsersResponseSchema, { signal });
}

export function adminUsersQueryOptions(params: AdminUsersParams) {
  return queryOptions({
    queryKey: adminKeys.userList(params),
    queryFn: ({ signal }) => getAdminUsers(params, signal),
    // A new search keeps the current rows on screen until its answer arrives.
    placeholderData: keepPreviousData,
  });
}

export function useAdminUsers(params: AdminUsersParams) {
  return useQuery(adminUsersQueryOptions(params));
}
