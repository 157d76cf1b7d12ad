import { Alert, Button, Grid, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  IconActivity,
  IconArchive,
  IconArrowLeft,
  IconChartLine,
  IconCloudOff,
  IconCompass,
  IconGitCommit,
  IconInfoCircle,
  IconMessages,
  IconPlus,
  IconShieldCheck,
  IconTags,
} from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { decodeRouteId } from '#shared/route-id.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { PageContainer } from '#web/components/page-container.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useScreenTitle } from '#web/lib/hooks/use-screen-title.ts';
import { useRepository } from '../api/get-repository.ts';
import { useVersions } from '../api/get-versions.ts';
import { BadgesCard } from '../components/detail/badges-card.tsx';
import { CommentsSection } from '../components/detail/comments-section.tsx';
import { CommitsSection } from '../components/detail/commits-section.tsx';
import { CompareSection } from '../components/detail/compare-section.tsx';
import classes from '../components/detail/detail.module.css';
import { HealthSummary } from '../components/detail/health/health-summary.tsx';
import { InformationCard } from '../components/detail/information-card.tsx';
import { MetadataCard } from '../components/detail/metadata-card.tsx';
import { MetadataEditor } from '../components/detail/metadata-editor.tsx';
import { RepositoryActions } from '../components/detail/repository-actions.tsx';
import { RepositoryHeader } from '../components/detail/repository-header.tsx';
import { StarHistorySection } from '../components/detail/star-history-section.tsx';
import { VersionsSection } from '../components/detail/versions-section.tsx';

/** The Health & security tab and its editors, loaded when the tab first opens. */
const HealthTab = lazy(() => import('../components/detail/health/health-tab.tsx'));
/** The Decision tab: the team's status, proposals and records, loaded when the tab first opens. */
const DecisionTab = lazy(() => import('../components/detail/decision/decision-tab.tsx'));

export const INVALID_ID_MESSAGE = 'Invalid repository ID.';
export const TIMED_OUT_MESSAGE = 'Connection timed out. Loading repository from local database.';

/** Cards other features add to the page, composed in web/app (features don't import each other). */
export interface RepositoryDetailSlots {
  /** The Activity tab: the repository's own events. */
  activity?: (repository: Repository) => ReactNode;
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

/** The detail page's tabs, as the address names them (`#/repo/{id}?tab=versions`). */
export const DETAIL_TABS = [
  'overview',
  'history',
  'health',
  'decision',
  'versions',
  'discussion',
  'commits',
  'activity',
] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];

function useDetailTab(available: readonly DetailTab[]) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = available.find((name) => name === requested) ?? 'overview';
  const select = (next: string | null) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (!next || next === 'overview') updated.delete('tab');
        else updated.set('tab', next);
        return updated;
      },
      { replace: true },
    );
  return [tab, select] as const;
}

/**
 * The loaded repository (docs/product.md#repository-detail): its header with the numbers and
 * actions, then tabs. A tab's content mounts when the tab opens, so the commits and the chart
 * load on first view; the open tab is in the address.
 */
function LoadedRepository({ repository, slots }: { repository: Repository; slots: RepositoryDetailSlots }) {
  const versions = useVersions(repository.id);
  // biome-ignore lint/correctness/useExhaustiveDependencies: ages are relative to the last load
  const now = useMemo(() => new Date(), [repository.updated_at]);
  const versionList = versions.data ?? repository.versions;
  const available = DETAIL_TABS.filter((name) => name !== 'activity' || slots.activity);
  const [tab, setTab] = useDetailTab(available);
  const label = (icon: ReactNode, text: string) => (
    <Group gap={6} wrap="nowrap">
      {icon}
      <span>{text}</span>
    </Group>
  );

  return (
    <>
      <RepositoryHeader
        repository={repository}
        summary={<HealthSummary repository={repository} onOpen={() => setTab('health')} />}
        actions={<RepositoryActions repository={repository} />}
      />
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
      <Tabs value={tab} onChange={setTab} keepMounted={false} variant="outline" radius="md">
        <Tabs.List className={classes.tabList}>
          <Tabs.Tab value="overview">{label(<IconInfoCircle size={16} aria-hidden />, 'Overview')}</Tabs.Tab>
          <Tabs.Tab value="history">{label(<IconChartLine size={16} aria-hidden />, 'History')}</Tabs.Tab>
          <Tabs.Tab value="health">
            {label(<IconShieldCheck size={16} aria-hidden />, 'Health & security')}
          </Tabs.Tab>
          <Tabs.Tab value="decision">{label(<IconCompass size={16} aria-hidden />, 'Decision')}</Tabs.Tab>
          <Tabs.Tab value="versions">
            {label(<IconTags size={16} aria-hidden />, `Versions (${versionList.length})`)}
          </Tabs.Tab>
          <Tabs.Tab value="discussion">
            {label(<IconMessages size={16} aria-hidden />, `Discussion (${repository.comments.length})`)}
          </Tabs.Tab>
          <Tabs.Tab value="commits">{label(<IconGitCommit size={16} aria-hidden />, 'Commits')}</Tabs.Tab>
          {slots.activity && (
            <Tabs.Tab value="activity">{label(<IconActivity size={16} aria-hidden />, 'Activity')}</Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <Stack gap="md">
            <Grid gap="md">
              <Grid.Col span={{ base: 12, md: 7 }}>
                <InformationCard repository={repository} now={now} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <MetadataCard repository={repository} />
              </Grid.Col>
            </Grid>
            <MetadataEditor key={repository.id} repository={repository} />
            <BadgesCard repository={repository} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <StarHistorySection repository={repository} />
        </Tabs.Panel>
        <Tabs.Panel value="health" pt="md">
          <Suspense fallback={<SectionLoader label="Loading health..." />}>
            <HealthTab repository={repository} versions={versionList} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="decision" pt="md">
          <Suspense fallback={<SectionLoader label="Loading decisions..." />}>
            <DecisionTab repository={repository} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="versions" pt="md">
          <Stack gap="xl">
            <VersionsSection repository={repository} versions={versionList} />
            <Stack gap="sm" component="section" aria-labelledby="compare-versions">
              <Title order={2} size="h4" id="compare-versions">
                Compare Versions
              </Title>
              <CompareSection repository={repository} versions={versionList} />
            </Stack>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="discussion" pt="md">
          <CommentsSection repository={repository} />
        </Tabs.Panel>
        <Tabs.Panel value="commits" pt="md">
          <CommitsSection repository={repository} />
        </Tabs.Panel>
        {slots.activity && (
          <Tabs.Panel value="activity" pt="md">
            {slots.activity(repository)}
          </Tabs.Panel>
        )}
      </Tabs>
    </>
  );
}
