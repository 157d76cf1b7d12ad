import { Stack } from '@mantine/core';
import { NotificationChannelsCard } from './notification-channels-card.tsx';
import { NotificationDeliveriesCard } from './notification-deliveries-card.tsx';
import { NotificationRulesCard } from './notification-rules-card.tsx';

/** Settings → Notifications (docs/product.md#settings): channels, rules, and what was sent. */
export function NotificationsTab() {
  return (
    <Stack gap="lg">
      <NotificationChannelsCard />
      <NotificationRulesCard />
      <NotificationDeliveriesCard />
    </Stack>
  );
}
