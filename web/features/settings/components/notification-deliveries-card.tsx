import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { formatDateTime } from '#shared/format.ts';
import type { Delivery, DeliveryKind, DeliveryStatus } from '#shared/schemas/notifications.ts';
import { useNotificationChannels } from '../api/get-notification-channels.ts';
import { useNotificationDeliveries } from '../api/get-notification-deliveries.ts';
import { ListItemCard, ListSection } from './list-section.tsx';

/** Filled badges in dark shades: AA contrast for white text in both schemes. */
const STATUS: Record<DeliveryStatus, { label: string; color: string }> = {
  pending: { label: 'Sending', color: 'blue.9' },
  sent: { label: 'Sent', color: 'teal.9' },
  failed: { label: 'Failed', color: 'red.9' },
  skipped: { label: 'Skipped', color: 'gray.7' },
};

const KIND: Record<DeliveryKind, string> = {
  instant: 'Instant',
  daily: 'Daily digest',
  weekly: 'Weekly digest',
  test: 'Test',
};

function DeliveryRow({ delivery, channel }: { delivery: Delivery; channel: string }) {
  const status = STATUS[delivery.status];
  return (
    <ListItemCard>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text size="sm" fw={500} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            {delivery.summary || KIND[delivery.kind]}
          </Text>
          <Badge color={status.color} variant="filled" tt="none" style={{ flexShrink: 0 }}>
            {status.label}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {KIND[delivery.kind]} · {channel} · {formatDateTime(delivery.sent_at ?? delivery.created_at)}
          {delivery.attempts > 1 ? ` · ${delivery.attempts} attempts` : ''}
        </Text>
        {delivery.last_error && delivery.status !== 'sent' && (
          <Text size="xs" c={delivery.status === 'skipped' ? 'dimmed' : 'var(--mantine-color-error)'}>
            {delivery.status === 'pending' ? 'Retrying: ' : ''}
            {delivery.last_error}
          </Text>
        )}
      </Stack>
    </ListItemCard>
  );
}

/** The 50 most recent deliveries with their outcome, newest first. */
export function NotificationDeliveriesCard() {
  const deliveries = useNotificationDeliveries();
  const channels = useNotificationChannels();
  const channelName = (id: number | null) =>
    channels.data?.channels.find((channel) => channel.id === id)?.name ?? 'removed channel';
  return (
    <ListSection
      title="Recent deliveries"
      action={
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconRefresh size={14} aria-hidden />}
          loading={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          Refresh
        </Button>
      }
      query={deliveries}
      items={deliveries.data?.deliveries}
      loadingLabel="Loading deliveries"
      failure="Failed to load deliveries"
      empty={
        <Text size="sm" c="dimmed">
          Nothing sent yet. Messages appear here with their outcome.
        </Text>
      }
      listLabel="Deliveries"
      listGap="xs"
      renderItem={(delivery) => (
        <DeliveryRow key={delivery.id} delivery={delivery} channel={channelName(delivery.channel_id)} />
      )}
    />
  );
}
