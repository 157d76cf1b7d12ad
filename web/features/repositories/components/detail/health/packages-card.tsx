import { Badge, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { ECOSYSTEM_LABELS, type RepositoryPackage } from '#shared/schemas/advisories.ts';

/** The editor, loaded when a member first asks to edit. */
const PackagesEditor = lazy(() => import('./packages-editor.tsx'));

/**
 * The packages the repository publishes, whose advisories GitHub's database is asked for: found
 * in its root manifests, or added by a member; "Edit packages" opens the editor.
 */
export function PackagesCard({
  fullName,
  packages,
}: {
  fullName: string;
  packages: readonly RepositoryPackage[];
}) {
  const [editing, setEditing] = useState(false);
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="packages-title"
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Title order={3} size="h4" id="packages-title">
            Packages
          </Title>
          {!editing && (
            <Button
              variant="default"
              size="xs"
              leftSection={<IconPencil size={14} aria-hidden />}
              onClick={() => setEditing(true)}
            >
              Edit packages
            </Button>
          )}
        </Group>
        {editing ? (
          <Suspense
            fallback={
              <Center py="sm">
                <Loader size="sm" aria-label="Loading the packages editor" />
              </Center>
            }
          >
            <PackagesEditor fullName={fullName} packages={packages} onDone={() => setEditing(false)} />
          </Suspense>
        ) : packages.length === 0 ? (
          <Text size="sm" c="dimmed">
            No package: only the repository’s own advisories are read. Add the packages it publishes (npm,
            PyPI, crates.io…) to read GitHub’s advisory database for them too.
          </Text>
        ) : (
          <Stack
            component="ul"
            gap={6}
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-labelledby="packages-title"
          >
            {packages.map((entry) => (
              <Group component="li" key={`${entry.ecosystem}:${entry.name}`} gap="xs" wrap="wrap">
                <Badge variant="default" tt="none" fw={500}>
                  {ECOSYSTEM_LABELS[entry.ecosystem]}
                </Badge>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {entry.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {entry.detected ? 'found in a manifest' : 'added by a member'}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
