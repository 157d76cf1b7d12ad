import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';

export interface LoadErrorProps {
  message: string;
  onRetry: () => void;
  retrying?: boolean;
}

/** A failed load with its SPEC §8 text and a Retry (every error offers Retry). */
export function LoadError({ message, onRetry, retrying = false }: LoadErrorProps) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />} role="alert">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">{message}</Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} aria-hidden />}
          onClick={onRetry}
          loading={retrying}
        >
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
