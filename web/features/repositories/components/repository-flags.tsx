import { Badge, Group } from '@mantine/core';
import { IconArchive, IconCloudOff, IconLock } from '@tabler/icons-react';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import tones from './tones.module.css';

/** Private, archived and gone (deleted on GitHub) must be plain to see. */
export function RepositoryFlags({
  repository,
  size = 'sm',
}: {
  repository: Pick<RepositorySummary, 'private' | 'archived' | 'gone'>;
  size?: 'xs' | 'sm' | 'md';
}) {
  if (!repository.private && !repository.archived && !repository.gone) return null;
  return (
    <Group gap={6} wrap="wrap">
      {repository.gone && (
        <Badge
          size={size}
          variant="outline"
          className={`${tones.flag} ${tones.flagGone}`}
          leftSection={<IconCloudOff size={12} aria-hidden />}
        >
          Gone from GitHub
        </Badge>
      )}
      {repository.archived && (
        <Badge
          size={size}
          variant="outline"
          className={`${tones.flag} ${tones.flagArchived}`}
          leftSection={<IconArchive size={12} aria-hidden />}
        >
          Archived
        </Badge>
      )}
      {repository.private && (
        <Badge
          size={size}
          variant="outline"
          className={`${tones.flag} ${tones.flagPrivate}`}
          leftSection={<IconLock size={12} aria-hidden />}
        >
          Private
        </Badge>
      )}
    </Group>
  );
}
