import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { formatDateTime } from '../../../../shared/format.ts';
import type { Delivery, DeliveryKind, DeliveryStatus } from '../../../../shared/schemas/notifications.ts';
import { SectionError, SectionLoader } from '../../../components/load-states.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useNotificationChannels } from '../api/get-notification-channels.ts';
import { useNotificationDeliveries } from '../api/get-notification-deliveries.ts';

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
    <Paper component="li" withBorder radius="md" p="sm">
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
    </Paper>
  );
}

/** The 50 most recent deliveries with their outcome, newest first. */
export function NotificationDeliveriesCard() {
  const deliveries = useNotificationDeliveries();
  const channels = useNotificationChannels();
  const channelName = (id: number | null) =>
    channels.data?.channels.find((channel) => channel.id === id)?.name ?? 'removed channel';
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="deliveries-title"
    >
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id="deliveries-title">
            Recent deliveries
          </Title>
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconRefresh size={14} aria-hidden />}
            loading={deliveries.isFetching}
            onClick={() => void deliveries.refetch()}
          >
            Refresh
          </Button>
        </Group>
        {deliveries.isPending && <SectionLoader label="Loading deliveries" />}
        {deliveries.isError && (
          <SectionError
            title="Failed to load deliveries"
            message={describeError(deliveries.error, 'Failed to load deliveries')}
            onRetry={() => void deliveries.refetch()}
          />
        )}
        {deliveries.isSuccess && deliveries.data.deliveries.length === 0 && (
          <Text size="sm" c="dimmed">
            Nothing sent yet. Messages appear here with their outcome.
          </Text>
        )}
        {deliveries.isSuccess && deliveries.data.deliveries.length > 0 && (
          <Stack
            gap="xs"
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label="Deliveries"
          >
            {deliveries.data.deliveries.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} channel={channelName(delivery.channel_id)} />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
