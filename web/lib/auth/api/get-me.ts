import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, schemaFromGuard } from '../../api-client.ts';
import { isUser, type User } from '../user.ts';

const userResponseSchema = schemaFromGuard((data: unknown): data is { user: User } =>
  isUser((data as { user?: unknown } | null)?.user),
);

/** GET /auth/me: the signed-in user (`{ user }`). */
export async function getMe(signal?: AbortSignal): Promise<User> {
  const { user } = await apiRequest('/auth/me', userResponseSchema, { signal });
  return user;
}

export const meQueryKey = ['auth', 'me'] as const;

export const meQueryOptions = queryOptions({
  queryKey: meQueryKey,
  queryFn: ({ signal }) => getMe(signal),
});

export function useMe() {
  return useQuery(meQueryOptions);
}
