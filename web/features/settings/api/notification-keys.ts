import type { QueryClient } from '@tanstack/react-query';
import { meQueryKey } from '#web/lib/auth/api/get-me.ts';

/** Under the user's key: signing out or in as someone else drops them with the user. */
export const notificationKeys = {
  all: [...meQueryKey, 'notifications'] as const,
  channels: [...meQueryKey, 'notifications', 'channels'] as const,
  rules: [...meQueryKey, 'notifications', 'rules'] as const,
  deliveries: [...meQueryKey, 'notifications', 'deliveries'] as const,
};

/** After any change: channels, rules and the delivery record all show the new state. */
export function refreshNotifications(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: notificationKeys.all });
}
