import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type AdminUser,
  type AdminUserFlag,
  type AdminUsersResponse,
  adminUserResponseSchema,
} from '#shared/schemas/admin.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { adminKeys } from './admin-keys.ts';

export interface UpdateAdminUserInput {
  id: number;
  flag: AdminUserFlag;
  value: boolean;
}

/** PATCH /auth/admin/users/{id} with one flag → `{ user }`. */
export async function patchAdminUser({ id, flag, value }: UpdateAdminUserInput): Promise<AdminUser> {
  const { user } = await apiRequest(`/auth/admin/users/${id}`, adminUserResponseSchema, {
    method: 'PATCH',
    body: { [flag]: value },
  });
  return user;
}

/**
 * After a successful call the flag flips in every loaded page of the
 * users table (no reload), and the overview statistics reload.
 */
export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: patchAdminUser,
    onSuccess: (user) => {
      queryClient.setQueriesData<AdminUsersResponse>({ queryKey: adminKeys.users }, (page) =>
        page ? { ...page, users: page.users.map((row) => (row.id === user.id ? user : row)) } : page,
      );
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}
