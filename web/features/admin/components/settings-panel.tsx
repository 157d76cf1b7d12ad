import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';

/** Settings: a 'Coming Soon' placeholder (docs/product.md#admin-dashboard). */
export function SettingsPanel() {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack gap="sm" align="flex-start">
        <Group gap="sm">
          <Title order={2} size="h4">
            System Settings
          </Title>
          <Badge color="gray" variant="light" tt="none">
            Coming Soon
          </Badge>
        </Group>
        <Text c="dimmed">
          Instance settings will be managed here. Until then they come from the server's environment (
          <Text span ff="monospace" size="sm">
            .env
          </Text>
          ; see the README's Configuration section).
        </Text>
      </Stack>
    </Paper>
  );
}
