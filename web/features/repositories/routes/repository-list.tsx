import {
  Box,
  Button,
  Center,
  Container,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLayoutGrid, IconList, IconPlus, IconSearch } from '@tabler/icons-react';
import { useCallback, useDeferredValue, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { CARD_DENSITIES, DEFAULT_CARD_DENSITY, MOBILE_BREAKPOINT_PX } from '../../../../shared/constants.ts';
import type { RepositorySummary } from '../../../../shared/schemas/repositories.ts';
import { InlineMessage } from '../../../components/inline-message.tsx';
import { SectionError } from '../../../components/load-states.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useRepositories } from '../../../lib/repositories-query.ts';
import { ExportButton, useExport } from '../components/export-button.tsx';
import { RepositoryCards } from '../components/repository-cards.tsx';
import { RepositoryTable } from '../components/repository-table.tsx';
import {
  buildSearchIndex,
  DEFAULT_SORT,
  nextSort,
  type SortKey,
  searchRepositories,
  sortRepositories,
} from '../lib/list-view.ts';
import { useIncrementalCount } from '../lib/use-incremental-count.ts';

const NO_ROWS: RepositorySummary[] = [];
type View = 'table' | 'cards';

/** The repository list at #/ and #/home (docs/product.md#repository-list). */
export default function RepositoryListRoute() {
  const repositories = useRepositories();
  const exporter = useExport();
  const [search, setSearch] = useState('');
  // Typing stays instant; the list catches up in a lower-priority render.
  const deferredSearch = useDeferredValue(search);
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [view, setView] = useState<View>('table');
  const [density, setDensity] = useState<number>(DEFAULT_CARD_DENSITY);
  const densityLabelId = useId();
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`, false, {
    getInitialValueInEffect: false,
  });
  const isPhone = useMediaQuery('(max-width: 575px)', false, { getInitialValueInEffect: false });
  // At 768 px or narrower the card view is forced.
  const effectiveView: View = isMobile ? 'cards' : view;
  const columns = isPhone ? 1 : isMobile ? Math.min(2, density) : density;

  const data = repositories.data ?? NO_ROWS;
  const index = useMemo(() => buildSearchIndex(data), [data]);
  const sorted = useMemo(() => sortRepositories(data, sort), [data, sort]);
  const filtered = useMemo(
    () => searchRepositories(sorted, index, deferredSearch),
    [sorted, index, deferredSearch],
  );
  const incremental = useIncrementalCount(
    filtered.length,
    `${deferredSearch.trim().toLowerCase()}|${sort.key}|${sort.direction}`,
  );
  const shown = useMemo(() => filtered.slice(0, incremental.count), [filtered, incremental.count]);
  // Relative ages are computed against the moment the data arrived.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new "now" for each load
  const now = useMemo(() => new Date(), [repositories.dataUpdatedAt]);
  const onSort = useCallback((key: SortKey) => setSort((current) => nextSort(current, key)), []);

  return (
    <Container size="xl" py="md" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="md">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1}>Repositories</Title>
          <ExportButton exporting={exporter.exporting} onClick={exporter.start} />
        </Group>

        {exporter.message && (
          <InlineMessage kind={exporter.message.kind} onClose={exporter.clear}>
            {exporter.message.text}
          </InlineMessage>
        )}

        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label="Search repositories"
            placeholder="Name, description, id, tag or licence"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            type="search"
            style={{ flex: '1 1 260px' }}
          />
          {!isMobile && (
            <SegmentedControl
              aria-label="View"
              value={view}
              onChange={(value) => setView(value as View)}
              data={[
                {
                  value: 'table',
                  label: (
                    <Group gap={6} wrap="nowrap">
                      <IconList size={16} aria-hidden />
                      <span>List</span>
                    </Group>
                  ),
                },
                {
                  value: 'cards',
                  label: (
                    <Group gap={6} wrap="nowrap">
                      <IconLayoutGrid size={16} aria-hidden />
                      <span>Cards</span>
                    </Group>
                  ),
                },
              ]}
            />
          )}
          {effectiveView === 'cards' && !isPhone && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id={densityLabelId}>
                Cards per row
              </Text>
              <SegmentedControl
                aria-labelledby={densityLabelId}
                value={String(density)}
                onChange={(value) => setDensity(Number(value))}
                data={CARD_DENSITIES.map((count) => ({ value: String(count), label: String(count) }))}
              />
            </Stack>
          )}
        </Group>

        {repositories.isPending ? (
          <Center py="xl" role="status" aria-live="polite">
            <Group gap="sm">
              <Loader size="sm" aria-hidden />
              <Text>Loading repositories...</Text>
            </Group>
          </Center>
        ) : repositories.isError ? (
          <SectionError
            message={`Failed to load repositories: ${describeError(repositories.error, 'Request failed')}`}
            onRetry={() => void repositories.refetch()}
          />
        ) : data.length === 0 ? (
          <Stack align="center" gap="sm" py="xl" ta="center">
            <Text fw={600}>No repositories yet.</Text>
            <Text c="dimmed" size="sm">
              Add repositories from GitHub to start your catalogue.
            </Text>
            <Button component={Link} to="/add" leftSection={<IconPlus size={16} aria-hidden />}>
              Add Repositories
            </Button>
          </Stack>
        ) : (
          <>
            <Text size="sm" c="dimmed" role="status" aria-live="polite">
              Showing {shown.length} of {filtered.length} repositories
            </Text>
            {filtered.length === 0 ? (
              <Text py="lg" ta="center">
                No repositories match “{deferredSearch.trim()}”.
              </Text>
            ) : effectiveView === 'table' ? (
              <RepositoryTable rows={shown} sort={sort} onSort={onSort} now={now} />
            ) : (
              <RepositoryCards rows={shown} columns={columns} now={now} />
            )}
            <Box ref={incremental.sentinelRef} aria-hidden h={1} />
            {incremental.hasMore && (
              <Center>
                {incremental.loadingMore ? (
                  <Group gap="xs" role="status">
                    <Loader size="xs" aria-hidden />
                    <Text size="sm" c="dimmed">
                      Loading more repositories...
                    </Text>
                  </Group>
                ) : (
                  <Button variant="subtle" size="xs" onClick={incremental.showMore}>
                    Show more
                  </Button>
                )}
              </Center>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
