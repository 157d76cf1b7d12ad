import {
  Badge,
  Button,
  CloseButton,
  Container,
  Group,
  Loader,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconActivity, IconFilterOff } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { EVENT_TYPES, type EventType, parseEventTypes } from '#shared/schemas/activity.ts';
import { useTags } from '#web/catalogue/get-tags.ts';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { type ActivityFilters, useActivityPages } from '../api/get-activity.ts';
import { EventRows } from '../components/event-rows.tsx';
import { EVENT_PRESENTATION } from '../lib/event-presentation.ts';

const TYPE_OPTIONS = EVENT_TYPES.map((type) => ({ value: type, label: EVENT_PRESENTATION[type].label }));

/** The filters in the address bar (`?type=archived,gone&tag=ui&repository=owner/name`), so a view can be linked. */
function useActivityFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => {
    const types = parseEventTypes(params.get('type') ?? undefined) ?? [];
    return {
      types,
      tag: params.get('tag')?.trim() || null,
      repository: params.get('repository')?.trim() || null,
    };
  }, [params]);
  const update = useCallback(
    (patch: Partial<{ types: EventType[]; tag: string | null; repository: string | null }>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const set = (key: string, value: string | null | undefined) => {
            if (value) next.set(key, value);
            else next.delete(key);
          };
          if (patch.types !== undefined) set('type', patch.types.join(','));
          if (patch.tag !== undefined) set('tag', patch.tag);
          if (patch.repository !== undefined) set('repository', patch.repository);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { filters, update };
}

/** The Activity screen at #/activity (docs/product.md#activity-screen): what changed, newest first. */
export default function ActivityRoute() {
  const { filters, update } = useActivityFilters();
  const query: ActivityFilters = {
    type: filters.types.length > 0 ? filters.types.join(',') : undefined,
    tag: filters.tag ?? undefined,
    repository: filters.repository ?? undefined,
  };
  const pages = useActivityPages(query);
  const tags = useTags();
  // biome-ignore lint/correctness/useExhaustiveDependencies: ages are relative to the last load
  const now = useMemo(() => new Date(), [pages.dataUpdatedAt]);
  const events = useMemo(() => pages.data?.pages.flatMap((page) => page.events) ?? [], [pages.data]);
  // A failed next page keeps the pages already shown (TanStack reports it as the query's error).
  const moreError = pages.isFetchNextPageError ? describeError(pages.error, 'Request failed') : null;
  const filtered = filters.types.length > 0 || filters.tag !== null || filters.repository !== null;

  const tagOptions = useMemo(() => {
    const names = (tags.data?.tags ?? []).map((tag) => tag.name);
    // A tag from a link that no visible repository carries still shows as chosen.
    if (filters.tag && !names.some((name) => name.toLowerCase() === filters.tag?.toLowerCase()))
      names.unshift(filters.tag);
    return names;
  }, [tags.data, filters.tag]);

  return (
    <Container size="md" py="md" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="md">
        <div>
          <Title order={1}>Activity</Title>
          <Text c="dimmed">
            What changed in the catalogue, newest first: additions, releases, renames, licences, milestones
            and more.
          </Text>
        </div>

        <Paper withBorder radius="md" p="sm">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <MultiSelect
              label="Event types"
              placeholder={filters.types.length === 0 ? 'All types' : undefined}
              data={TYPE_OPTIONS}
              value={filters.types}
              onChange={(value) => update({ types: value as EventType[] })}
              clearable
              searchable
              style={{ flex: '2 1 16rem' }}
            />
            <Select
              label="Tag"
              placeholder="All tags"
              data={tagOptions}
              value={filters.tag}
              onChange={(value) => update({ tag: value })}
              clearable
              searchable
              nothingFoundMessage="No such tag"
              style={{ flex: '1 1 12rem' }}
            />
          </Group>
          {filters.repository && (
            <Group gap="xs" mt="sm">
              <Badge
                variant="light"
                tt="none"
                size="lg"
                rightSection={
                  <CloseButton
                    size="xs"
                    aria-label={`Show every repository, not only ${filters.repository}`}
                    onClick={() => update({ repository: null })}
                  />
                }
              >
                Repository: {filters.repository}
              </Badge>
            </Group>
          )}
        </Paper>

        {pages.isPending ? (
          <SectionLoader label="Loading activity..." />
        ) : !pages.data ? (
          <SectionError
            title="The activity could not be loaded."
            message={describeError(pages.error, 'Request failed')}
            onRetry={() => void pages.refetch()}
            retrying={pages.isRefetching}
          />
        ) : events.length === 0 ? (
          <EmptyActivity
            filtered={filtered}
            onClear={() => update({ types: [], tag: null, repository: null })}
          />
        ) : (
          <Paper withBorder radius="md" px="md" py="xs">
            <Stack
              component="ul"
              gap={0}
              aria-label="Events"
              style={{ listStyle: 'none', margin: 0, padding: 0 }}
            >
              <EventRows events={events} now={now} />
            </Stack>
            <MorePages
              hasNext={pages.hasNextPage}
              loading={pages.isFetchingNextPage}
              error={moreError}
              onMore={() => void pages.fetchNextPage()}
            />
          </Paper>
        )}
      </Stack>
    </Container>
  );
}

function EmptyActivity({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconActivity size={26} aria-hidden />
        </ThemeIcon>
        <Title order={2} size="h4">
          {filtered ? 'No events match these filters' : 'Nothing has happened yet'}
        </Title>
        <Text c="dimmed" size="sm" maw={460}>
          {filtered
            ? 'Try other event types or another tag.'
            : 'Events appear here when repositories are added, and when the scheduled sync sees something change on GitHub: releases, renames, archiving, licences, star milestones.'}
        </Text>
        {filtered && (
          <Button variant="light" leftSection={<IconFilterOff size={16} aria-hidden />} onClick={onClear}>
            Clear filters
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The next page loads as the end of the list scrolls into view (infinite scroll), or with the
 * button, which keyboards and browsers without IntersectionObserver use.
 */
function MorePages({
  hasNext,
  loading,
  error,
  onMore,
}: {
  hasNext: boolean;
  loading: boolean;
  error: string | null;
  onMore: () => void;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const latest = useRef({ hasNext, loading, error, onMore });
  latest.current = { hasNext, loading, error, onMore };
  useEffect(() => {
    const element = sentinel.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        const state = latest.current;
        if (entries.some((entry) => entry.isIntersecting) && state.hasNext && !state.loading && !state.error)
          state.onMore();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={sentinel}>
      {error ? (
        <SectionError title="More events could not be loaded." message={error} onRetry={onMore} />
      ) : hasNext ? (
        <Group justify="center" py="sm">
          {loading ? (
            <Loader size="sm" aria-label="Loading more events" />
          ) : (
            <Button variant="subtle" onClick={onMore}>
              Load more
            </Button>
          )}
        </Group>
      ) : (
        <Text size="xs" c="dimmed" ta="center" py="sm">
          That is everything.
        </Text>
      )}
    </div>
  );
}
