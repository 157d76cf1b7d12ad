import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type UpdateProfileBody, userResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { meQueryKey } from '#web/lib/auth/api/get-me.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import type { User } from '#web/lib/auth/user.ts';

/** PATCH /auth/me `{ first_name, last_name }` → `{ user }`. */
export async function patchProfile(body: UpdateProfileBody): Promise<User> {
  const { user } = await apiRequest('/auth/me', userResponseSchema, { method: 'PATCH', body });
  return user;
}

/** Saves the names; the signed-in user (sidebar, stored copy) and the profile query follow. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: patchProfile,
    onSuccess: (user) => {
      queryClient.setQueryData(meQueryKey, user);
      updateUser(user);
    },
  });
}
