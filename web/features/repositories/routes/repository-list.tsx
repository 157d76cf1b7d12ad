import {
  Box,
  Button,
  Center,
  Chip,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconLayoutGrid, IconList, IconPlus, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  CARD_DENSITIES,
  LIST_PAGE_SIZE,
  MOBILE_BREAKPOINT_PX,
  SEARCH_DEBOUNCE_MS,
} from '#shared/constants.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { useRepositoryPages } from '#web/catalogue/get-repository-pages.ts';
import { FilterChipRow } from '#web/components/filter-chip-row.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError } from '#web/components/load-states.tsx';
import { PageContainer } from '#web/components/page-container.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useKeyboardShortcuts } from '#web/lib/keyboard.ts';
import { ExportButton, useExport } from '../components/export-button.tsx';
import { FilterMenu } from '../components/filter-menu.tsx';
import { RepositoryCards } from '../components/repository-cards.tsx';
import { RepositoryTable } from '../components/repository-table.tsx';
import { SavedViewControls } from '../components/saved-view-controls.tsx';
import {
  type FilterChip,
  filterChips,
  type ListLayout,
  type ListView,
  listQuery,
  nextSort,
  readListView,
  removeFilter,
  type SortKey,
  writeListView,
} from '../lib/list-view.ts';
import { useIncrementalCount } from '../lib/use-incremental-count.ts';

// Loaded when first shown (docs/architecture.md#web-app): the selection bar once something is
// selected, the sort select in the cards view. Both render Mantine's Combobox (TagsInput,
// Select), which the table's first screen does not show.
const SelectionBar = lazy(() =>
  import('../components/selection-bar.tsx').then((module) => ({ default: module.SelectionBar })),
);
const SortControl = lazy(() =>
  import('../components/sort-control.tsx').then((module) => ({ default: module.SortControl })),
);

const NO_ROWS: RepositorySummary[] = [];

/**
 * The view in the address bar (docs/product.md#repository-list): every change replaces the
 * history entry, so Back leaves the list instead of stepping through its sorts.
 */
function useListView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readListView(params), [params]);
  const update = useCallback(
    (patch: Partial<ListView>) => setParams((current) => writeListView(current, patch), { replace: true }),
    [setParams],
  );
  return { view, update, addressQuery: params.toString() };
}

/**
 * The search box's text, sent to the address bar (and so to the server) once typing pauses for
 * 150 ms; an address changed from outside (Back, a shared link) refills the box.
 */
function useDebouncedSearch(committed: string, commit: (search: string) => void) {
  const [search, setSearch] = useState(committed);
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const debouncedRef = useRef(debounced);
  debouncedRef.current = debounced;

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled search is committed
  useEffect(() => {
    if (debounced !== committed) commit(debounced);
  }, [debounced]);

  useEffect(() => {
    if (committed !== debouncedRef.current) setSearch(committed);
  }, [committed]);

  return [search, setSearch] as const;
}

function LoadingMore() {
  return (
    <Group gap="xs" role="status">
      <Loader size="xs" aria-hidden />
      <Text size="sm" c="dimmed">
        Loading more repositories...
      </Text>
    </Group>
  );
}

/** The repository list at #/home (docs/product.md#repository-list). */
export default function RepositoryListRoute() {
  const { view, update, addressQuery } = useListView();
  const [search, setSearch] = useDebouncedSearch(view.search, (value) => update({ search: value }));
  const query = useMemo(() => listQuery(view.search, view), [view]);
  const repositories = useRepositoryPages(query, { keepPrevious: true });
  const exporter = useExport();
  const densityLabelId = useId();
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`, false, {
    getInitialValueInEffect: false,
  });
  const isPhone = useMediaQuery('(max-width: 575px)', false, { getInitialValueInEffect: false });
  // At 768 px or narrower the card view is forced.
  const effectiveView: ListLayout = isMobile ? 'cards' : view.layout;
  const columns = isPhone ? 1 : isMobile ? Math.min(2, view.density) : view.density;

  const { data, hasNextPage, isFetching, isFetchingNextPage, fetchNextPage } = repositories;
  const rows = useMemo(() => data?.pages.flatMap((page) => page.repositories) ?? NO_ROWS, [data]);
  // Every matching row, counted by the server (the newest page's count).
  const total = data?.pages.at(-1)?.total ?? 0;
  // Rows are revealed 10 at a time out of the pages loaded so far; a new search or sort starts again.
  const incremental = useIncrementalCount(rows.length, JSON.stringify(query));
  const shown = useMemo(() => rows.slice(0, incremental.count), [rows, incremental.count]);
  const nextPageFailed = repositories.isFetchNextPageError;
  // The previous rows stay on screen while a new search, sort or filter loads.
  const refreshing = repositories.isPlaceholderData;

  // The next 50 are asked for while the last step of 10 loaded rows is still to be revealed, so
  // scrolling rarely waits for the network. Never during another fetch: asking for a page
  // cancels a first page or a refresh under way.
  useEffect(() => {
    if (!hasNextPage || isFetching || refreshing || nextPageFailed) return;
    if (incremental.count + LIST_PAGE_SIZE >= rows.length) void fetchNextPage();
  }, [hasNextPage, isFetching, refreshing, nextPageFailed, incremental.count, rows.length, fetchNextPage]);

  // Relative ages are computed against the moment the data arrived.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new "now" for each load
  const now = useMemo(() => new Date(), [repositories.dataUpdatedAt]);
  const onSort = useCallback(
    (key: SortKey) => update({ sort: nextSort(view.sort, key) }),
    [update, view.sort],
  );
  // j / k move a highlight through the shown rows, Enter opens it (docs/product.md#keyboard-shortcuts).
  const navigate = useNavigate();
  const [active, setActive] = useState<number | null>(null);
  // The selection for bulk actions (docs/product.md#bulk-actions), by full name.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // Once shown, the bar stays mounted, so that it leaves with its transition.
  const [selectionBarWanted, setSelectionBarWanted] = useState(false);
  if (selected.size > 0 && !selectionBarWanted) setSelectionBarWanted(true);
  const onSelect = useCallback((ids: string[], on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search, sort or filter starts again
  useEffect(() => {
    setActive(null);
    setSelected(new Set());
  }, [JSON.stringify(query)]);
  const open = useCallback(
    (repository: RepositorySummary) => navigate(`/repo/${encodeRouteId(repository.id)}`),
    [navigate],
  );
  useKeyboardShortcuts((key, event) => {
    if (shown.length === 0) return false;
    // Enter on a focused link or button is theirs.
    if (key === 'Enter' && event.target instanceof Element && event.target.closest('a, button')) return false;
    if (key === 'j' || key === 'k') {
      const step = key === 'j' ? 1 : -1;
      setActive((current) =>
        current === null ? 0 : Math.min(Math.max(current + step, 0), shown.length - 1),
      );
      return true;
    }
    const selected = active === null ? undefined : shown[active];
    if (key === 'Enter' && selected) {
      open(selected);
      return true;
    }
    return false;
  });

  const chips = filterChips(view.filters).filter((chip) => chip.key !== 'added_by');
  const onRemoveChip = (chip: FilterChip) => update({ filters: removeFilter(view.filters, chip.key) });
  const searched = view.search.trim();
  const filtered = searched !== '' || Object.keys(view.filters).length > 0;

  return (
    <PageContainer>
      <Stack gap="md">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1}>Repositories</Title>
          <Group gap="sm">
            <SavedViewControls query={addressQuery} />
            <ExportButton exporting={exporter.exporting} onClick={() => exporter.start(query)} />
          </Group>
        </Group>

        {exporter.message && (
          <InlineMessage kind={exporter.message.kind} onClose={exporter.clear}>
            {exporter.message.text}
          </InlineMessage>
        )}

        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label="Search repositories"
            placeholder="Name, description, id, tag or license"
            leftSection={<IconSearch size={16} aria-hidden />}
            rightSection={refreshing ? <Loader size="xs" aria-label="Updating the list" /> : undefined}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            type="search"
            style={{ flex: '1 1 260px' }}
            data-shortcut="search"
            aria-keyshortcuts="/"
          />
          <FilterMenu filters={view.filters} onChange={(filters) => update({ filters })} />
          <Chip
            checked={view.filters.added_by === 'me'}
            onChange={(checked) =>
              update({ filters: { ...view.filters, added_by: checked ? 'me' : undefined } })
            }
            variant="outline"
            mb={4}
          >
            Added by me
          </Chip>
          {!isMobile && (
            <SegmentedControl
              aria-label="View"
              value={view.layout}
              onChange={(value) => update({ layout: value as ListLayout })}
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
          {effectiveView === 'cards' && (
            <Suspense fallback={<Box w={200} h={59} />}>
              <SortControl sort={view.sort} onChange={(sort) => update({ sort })} />
            </Suspense>
          )}
          {effectiveView === 'cards' && !isPhone && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id={densityLabelId}>
                Cards per row
              </Text>
              <SegmentedControl
                aria-labelledby={densityLabelId}
                value={String(view.density)}
                onChange={(value) => update({ density: Number(value) })}
                data={CARD_DENSITIES.map((count) => ({ value: String(count), label: String(count) }))}
              />
            </Stack>
          )}
        </Group>

        <FilterChipRow
          chips={chips}
          chipKey={(chip) => chip.key}
          onRemove={onRemoveChip}
          onClear={() => update({ filters: {} })}
        />

        {repositories.isPending ? (
          <Center py="xl" role="status" aria-live="polite">
            <Group gap="sm">
              <Loader size="sm" aria-hidden />
              <Text>Loading repositories...</Text>
            </Group>
          </Center>
        ) : repositories.isError && !data ? (
          <SectionError
            message={`Failed to load repositories: ${describeError(repositories.error, 'Request failed')}`}
            onRetry={() => void repositories.refetch()}
          />
        ) : total === 0 && !filtered ? (
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
          <Stack gap="md" aria-busy={refreshing}>
            <Text size="sm" c="dimmed" role="status" aria-live="polite">
              Showing {shown.length} of {total} repositories
            </Text>
            {total === 0 ? (
              <Text py="lg" ta="center">
                {searched ? `No repositories match “${searched}”.` : 'No repositories match these filters.'}
              </Text>
            ) : effectiveView === 'table' ? (
              <RepositoryTable
                rows={shown}
                sort={view.sort}
                onSort={onSort}
                now={now}
                activeIndex={active}
                onOpen={open}
                selected={selected}
                onSelect={onSelect}
              />
            ) : (
              <RepositoryCards
                rows={shown}
                columns={columns}
                now={now}
                activeIndex={active}
                selected={selected}
                onSelect={onSelect}
              />
            )}
            <Box ref={incremental.sentinelRef} aria-hidden h={1} />
            {incremental.hasMore ? (
              <Center>
                {incremental.loadingMore ? (
                  <LoadingMore />
                ) : (
                  <Button variant="subtle" size="xs" onClick={incremental.showMore}>
                    Show more
                  </Button>
                )}
              </Center>
            ) : nextPageFailed ? (
              <SectionError
                message={`Failed to load repositories: ${describeError(repositories.error, 'Request failed')}`}
                onRetry={() => void fetchNextPage()}
              />
            ) : hasNextPage ? (
              // Every loaded row is shown and the next page is still on its way.
              <Center>
                {isFetchingNextPage ? (
                  <LoadingMore />
                ) : (
                  <Button variant="subtle" size="xs" onClick={() => void fetchNextPage()}>
                    Show more
                  </Button>
                )}
              </Center>
            ) : null}
          </Stack>
        )}
      </Stack>
      {selectionBarWanted && (
        <Suspense fallback={null}>
          <SelectionBar selected={[...selected]} onClear={() => setSelected(new Set())} compact={isPhone} />
        </Suspense>
      )}
    </PageContainer>
  );
}
