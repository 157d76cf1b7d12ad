import { meQueryKey } from '#web/lib/auth/api/get-me.ts';

/** Under the user's key: a sign-out or another account drops the list with the user. */
export const apiTokensQueryKey = [...meQueryKey, 'api-tokens'] as const;
