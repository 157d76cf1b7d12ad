import { Accordion, Alert, Button, Grid, Group, Stack, Text, Title } from '@mantine/core';
import {
  IconArchive,
  IconArrowLeft,
  IconChartLine,
  IconCloudOff,
  IconGitCommit,
  IconGitCompare,
  IconMessages,
  IconPlus,
  IconTags,
} from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { decodeRouteId } from '../../../../shared/route-id.ts';
import type { Repository } from '../../../../shared/schemas/repositories.ts';
import { InlineMessage } from '../../../components/inline-message.tsx';
import { SectionError, SectionLoader } from '../../../components/load-states.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useScreenTitle } from '../../../lib/hooks/use-screen-title.ts';
import { useRepository } from '../api/get-repository.ts';
import { useVersions } from '../api/get-versions.ts';
import { CommentsSection } from '../components/detail/comments-section.tsx';
import { CommitsSection } from '../components/detail/commits-section.tsx';
import { CompareSection } from '../components/detail/compare-section.tsx';
import { InformationCard } from '../components/detail/information-card.tsx';
import { MetadataCard } from '../components/detail/metadata-card.tsx';
import { MetadataEditor } from '../components/detail/metadata-editor.tsx';
import { RepositoryActions } from '../components/detail/repository-actions.tsx';
import { RepositoryHeader } from '../components/detail/repository-header.tsx';
import { StarHistorySection } from '../components/detail/star-history-section.tsx';
import { VersionsSection } from '../components/detail/versions-section.tsx';

export const INVALID_ID_MESSAGE = 'Invalid repository ID.';
export const TIMED_OUT_MESSAGE = 'Connection timed out. Loading repository from local database.';

/** Cards other features add to the page, composed in web/app (features don't import each other). */
export interface RepositoryDetailSlots {
  /** Beside the metadata: the repository's recent activity. */
  aside?: (repository: Repository) => ReactNode;
}

/** The repository detail at #/repo/:id, base64 of the full name (docs/product.md#repository-detail). */
export default function RepositoryDetailRoute({ slots = {} }: { slots?: RepositoryDetailSlots }) {
  const { id = '' } = useParams();
  const fullName = decodeRouteId(id);
  return (
    <PageContainer>
      <Stack gap="md">
        <Group gap="sm">
          <Button
            component={Link}
            to="/"
            variant="default"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
          >
            Back to Home
          </Button>
          <Button component={Link} to="/add" variant="light" leftSection={<IconPlus size={16} aria-hidden />}>
            Add Repository
          </Button>
        </Group>
        {fullName === null ? (
          <>
            <Title order={1}>Repository Details</Title>
            <InlineMessage kind="error">{INVALID_ID_MESSAGE}</InlineMessage>
          </>
        ) : (
          <RepositoryDetail key={fullName} fullName={fullName} slots={slots} />
        )}
      </Stack>
    </PageContainer>
  );
}

function RepositoryDetail({ fullName, slots }: { fullName: string; slots: RepositoryDetailSlots }) {
  const repository = useRepository(fullName);
  useScreenTitle(fullName);

  if (repository.data) {
    return (
      <>
        {repository.isRefetchError && (
          <SectionError
            message={`Failed to fetch repository details: ${describeError(repository.error, 'Request failed')}`}
            onRetry={() => void repository.refetch()}
          />
        )}
        <LoadedRepository repository={repository.data} slots={slots} />
      </>
    );
  }
  return (
    <>
      <Title order={1}>Repository Details</Title>
      {repository.timedOut && <InlineMessage kind="warning">{TIMED_OUT_MESSAGE}</InlineMessage>}
      {repository.isError ? (
        <SectionError
          message={`Failed to load repository: ${describeError(repository.error, 'Request failed')}`}
          onRetry={() => void repository.refetch()}
        />
      ) : (
        <SectionLoader label="Loading repository..." />
      )}
    </>
  );
}

type SectionKey = 'history' | 'comments' | 'versions' | 'compare' | 'commits';

function LoadedRepository({ repository, slots }: { repository: Repository; slots: RepositoryDetailSlots }) {
  // Sections render their content only while open: commits and the chart load on first expand.
  const [open, setOpen] = useState<string[]>(['comments', 'versions', 'compare']);
  const versions = useVersions(repository.id);
  // biome-ignore lint/correctness/useExhaustiveDependencies: ages are relative to the last load
  const now = useMemo(() => new Date(), [repository.updated_at]);
  const versionList = versions.data ?? repository.versions;

  const section = (key: SectionKey, title: string, icon: ReactNode, children: () => ReactNode) => (
    <Accordion.Item value={key}>
      <Accordion.Control icon={icon}>
        <Text fw={600}>{title}</Text>
      </Accordion.Control>
      <Accordion.Panel>{open.includes(key) ? children() : null}</Accordion.Panel>
    </Accordion.Item>
  );

  return (
    <>
      <RepositoryHeader repository={repository} />
      {repository.gone && (
        <Alert color="red" variant="light" icon={<IconCloudOff size={18} aria-hidden />}>
          <Text fw={700} span>
            Gone from GitHub.
          </Text>{' '}
          GitHub no longer answers for this repository: it was deleted, made private or can no longer be read.
          The stored data is kept.
        </Alert>
      )}
      {repository.archived && (
        <Alert color="yellow" variant="light" icon={<IconArchive size={18} aria-hidden />}>
          <Text fw={700} span>
            Archived.
          </Text>{' '}
          This repository is archived on GitHub: it is read-only and no longer maintained.
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <InformationCard repository={repository} now={now} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <MetadataCard repository={repository} />
            {slots.aside?.(repository)}
          </Stack>
        </Grid.Col>
      </Grid>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <MetadataEditor key={repository.id} repository={repository} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <RepositoryActions repository={repository} />
        </Grid.Col>
      </Grid>
      <Accordion multiple value={open} onChange={setOpen} variant="separated" radius="md" order={2}>
        {section('history', 'Star Growth History', <IconChartLine size={18} aria-hidden />, () => (
          <StarHistorySection repository={repository} />
        ))}
        {section(
          'comments',
          `Comments (${repository.comments.length})`,
          <IconMessages size={18} aria-hidden />,
          () => (
            <CommentsSection repository={repository} />
          ),
        )}
        {section(
          'versions',
          `Version Tracker (${versionList.length})`,
          <IconTags size={18} aria-hidden />,
          () => (
            <VersionsSection repository={repository} versions={versionList} />
          ),
        )}
        {section('compare', 'Compare Versions', <IconGitCompare size={18} aria-hidden />, () => (
          <CompareSection repository={repository} versions={versionList} />
        ))}
        {section('commits', 'Recent Commits', <IconGitCommit size={18} aria-hidden />, () => (
          <CommitsSection repository={repository} />
        ))}
      </Accordion>
    </>
  );
}
