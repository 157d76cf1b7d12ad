import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';

/** In-page wait for a screen's own data, saying what is loading ('Loading tags...'). */
export function SectionLoader({ label }: { label: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text>{label}</Text>
      </Group>
    </Center>
  );
}

export interface SectionErrorProps {
  message: string;
  onRetry: () => void;
  /** A heading above the message, when the message is the detail. */
  title?: string;
  /** The retry is under way: the button spins. */
  retrying?: boolean;
}

/**
 * Every failed load of a screen or a section, with Retry (docs/product.md#client-error-texts).
 * No coloured title: Mantine's shade 6 text fails AA on the tint.
 */
export function SectionError({ message, onRetry, title, retrying = false }: SectionErrorProps) {
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      title={title}
      icon={<IconAlertCircle size={18} aria-hidden />}
    >
      <Stack gap="sm" align="flex-start">
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
      </Stack>
    </Alert>
  );
}
