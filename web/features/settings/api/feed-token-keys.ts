import { meQueryKey } from '#web/lib/auth/api/get-me.ts';

/** Under the user's key: a sign-out or another account drops the status with the user. */
export const feedTokenQueryKey = [...meQueryKey, 'feed-token'] as const;
