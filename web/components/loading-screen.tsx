import { Center, Loader, Stack, Text } from '@mantine/core';

/** Full-page wait, e.g. 'Initializing...' while the session is restored. */
export function LoadingScreen({ label }: { label: string }) {
  return (
    <Center mih="100dvh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader aria-hidden />
        <Text c="dimmed">{label}</Text>
      </Stack>
    </Center>
  );
}

/** In-page wait while a lazily loaded screen arrives. */
export function ScreenLoader() {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader aria-label="Loading page" />
    </Center>
  );
}
