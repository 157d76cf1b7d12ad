import { Paper, Stack, Title } from '@mantine/core';
import { formatDateTime } from '#shared/format.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { DefinitionList } from './definition-list.tsx';

/** The metadata card: full id, created, updated, last synced, comment and version counts. */
export function MetadataCard({ repository }: { repository: Repository }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} h="100%">
      <Stack gap="md">
        <Title order={2} size="h3">
          Metadata
        </Title>
        <DefinitionList
          items={[
            { term: 'Full ID', value: repository.id },
            { term: 'Created', value: formatDateTime(repository.created_at) },
            { term: 'Updated', value: formatDateTime(repository.updated_at) },
            { term: 'Last synced', value: formatDateTime(repository.last_synced, { missing: 'Never' }) },
            { term: 'Comments', value: String(repository.comment_count) },
            { term: 'Versions', value: String(repository.version_count) },
          ]}
        />
      </Stack>
    </Paper>
  );
}
