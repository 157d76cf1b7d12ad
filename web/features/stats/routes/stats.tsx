import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type Dispatch, lazy, type SetStateAction, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '#shared/constants.ts';
import { formatAverage, formatCount } from '#shared/format.ts';
import { type CatalogueStats, catalogueSearchParams } from '#shared/schemas/catalogue.ts';
import { checkStarRange, EMPTY_FILTERS, INVALID_RANGE_HINT, type StatsFilters } from '#shared/stats.ts';
import { type StatsQuery, useStats } from '#web/catalogue/get-catalogue-stats.ts';
import { FilterChipRow } from '#web/components/filter-chip-row.tsx';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { PageContainer } from '#web/components/page-container.tsx';
import { StatCard } from '#web/components/stat-card.tsx';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { DecisionOverview } from '../components/decision-overview.tsx';
import { FastestGrowing } from '../components/fastest-growing.tsx';
import { HealthOverview } from '../components/health-overview.tsx';
import classes from '../components/stats.module.css';
import { filterChips, removeChip } from '../lib/filter-chips.ts';

const StatsCharts = lazy(() => import('../components/stats-charts.tsx'));

export const LOAD_FAILED = 'Failed to load statistics. Please try again.';
export const NO_USER = 'User information not available. Please try refreshing the page.';

/** The statistics page at #/stats (docs/product.md#statistics-page). */
export default function StatsRoute() {
  const { user } = useAuth();

  return (
    <PageContainer>
      <Stack gap="md">
        <Title order={1}>Statistics</Title>
        {!user ? <SectionError message={NO_USER} onRetry={() => window.location.reload()} /> : <Statistics />}
      </Stack>
    </PageContainer>
  );
}

function toNumber(value: string | number): number | null {
  if (value === '' || value === '-') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

/**
 * Nothing to count: zero cards, '0.0', 'N/A' and an empty chart grid said less than one sentence
 * with the way out (docs/product.md#statistics).
 */
function NoStatistics({ catalogueEmpty }: { catalogueEmpty: boolean }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="sm" ta="center">
        <Title order={2} size="h3">
          {catalogueEmpty ? 'No repositories yet' : 'No repositories match these filters'}
        </Title>
        <Text c="dimmed" size="sm">
          {catalogueEmpty
            ? 'Statistics appear once the catalogue has repositories.'
            : 'Change the filters above, or clear them, to see statistics.'}
        </Text>
        {catalogueEmpty && (
          <Button component={Link} to="/add">
            Add Repositories
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

function joinList(values: readonly string[]): string | undefined {
  const list = values.map((value) => value.trim()).filter(Boolean);
  return list.length > 0 ? list.join(',') : undefined;
}

/**
 * The filters as the server takes them. An invalid star range is left out of the request, so it
 * is ignored in filtering (its message still shows).
 */
function statsQuery(filters: StatsFilters): StatsQuery {
  const range = checkStarRange(filters.minStars, filters.maxStars);
  return {
    tags: joinList(filters.tags),
    topics: joinList(filters.topics),
    license: filters.license.trim() || undefined,
    min_stars: range.valid ? (filters.minStars ?? undefined) : undefined,
    max_stars: range.valid ? (filters.maxStars ?? undefined) : undefined,
  };
}

function Statistics() {
  const [filters, setFilters] = useState<StatsFilters>(EMPTY_FILTERS);
  // Typing a star count or a tag asks the server once the input pauses.
  const [requestKey] = useDebouncedValue(JSON.stringify(statsQuery(filters)), SEARCH_DEBOUNCE_MS);
  const request = useMemo(() => JSON.parse(requestKey) as StatsQuery, [requestKey]);
  const stats = useStats(request);

  if (stats.isPending) return <SectionLoader label="Loading statistics..." />;
  if (stats.isError && !stats.data)
    return <SectionError message={LOAD_FAILED} onRetry={() => void stats.refetch()} />;
  return (
    <StatisticsView
      answer={stats.data}
      request={request}
      filters={filters}
      setFilters={setFilters}
      refreshing={stats.isPlaceholderData}
    />
  );
}

function StatisticsView({
  answer,
  request,
  filters,
  setFilters,
  refreshing,
}: {
  answer: CatalogueStats;
  request: StatsQuery;
  filters: StatsFilters;
  setFilters: Dispatch<SetStateAction<StatsFilters>>;
  refreshing: boolean;
}) {
  const choices = answer.options;
  const range = checkStarRange(filters.minStars, filters.maxStars);
  const stats = answer.cards;
  const charts = useMemo(
    () => ({
      licenses: answer.licenses,
      topics: answer.top_topics,
      stars: answer.star_buckets.map((bucket) => ({ range: bucket.label, count: bucket.count })),
    }),
    [answer],
  );
  const chips = filterChips(filters);
  const set = (patch: Partial<StatsFilters>) => setFilters((current) => ({ ...current, ...patch }));
  const listParams = catalogueSearchParams(request).toString();
  const listLink = listParams ? `/home?${listParams}` : '/home';

  return (
    <>
      <Paper
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-labelledby="stats-filters"
      >
        <Stack gap="md">
          <Title order={2} size="h3" id="stats-filters">
            Filters
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            <TagsInput
              label="Tags"
              description="Every tag must be present"
              placeholder={filters.tags.length === 0 ? 'e.g. frontend, react' : undefined}
              data={choices.tags}
              value={[...filters.tags]}
              onChange={(tags) => set({ tags })}
              splitChars={[',']}
              acceptValueOnBlur
            />
            <TagsInput
              label="Topics"
              description="Every topic must be present"
              placeholder={filters.topics.length === 0 ? 'e.g. typescript' : undefined}
              data={choices.topics}
              value={[...filters.topics]}
              onChange={(topics) => set({ topics })}
              splitChars={[',']}
              acceptValueOnBlur
            />
            <Select
              label="License"
              description="Exact match"
              placeholder="Any license"
              data={choices.licenses}
              value={filters.license || null}
              onChange={(license) => set({ license: license ?? '' })}
              searchable
              clearable
              clearButtonProps={{ 'aria-label': 'Clear license filter' }}
            />
            <NumberInput
              label="Minimum stars"
              value={filters.minStars ?? ''}
              onChange={(value) => set({ minStars: toNumber(value) })}
              allowDecimal={false}
              thousandSeparator=","
              error={range.min ?? range.range}
              classNames={{ error: classes.error, input: classes.input }}
            />
            <NumberInput
              label="Maximum stars"
              value={filters.maxStars ?? ''}
              onChange={(value) => set({ maxStars: toNumber(value) })}
              allowDecimal={false}
              thousandSeparator=","
              error={range.max}
              classNames={{ error: classes.error, input: classes.input }}
            />
          </SimpleGrid>
          {!range.valid && (
            <Alert color="yellow" variant="light" py="xs" icon={<IconAlertTriangle size={18} aria-hidden />}>
              {INVALID_RANGE_HINT}
            </Alert>
          )}
          <FilterChipRow
            chips={chips}
            chipKey={(chip) => `${chip.type}:${chip.value}`}
            onRemove={(chip) => setFilters((current) => removeChip(current, chip))}
            onClear={() => setFilters(EMPTY_FILTERS)}
          />
        </Stack>
      </Paper>

      <Group gap="sm" justify="space-between" wrap="wrap">
        <Group gap="xs" wrap="nowrap" aria-busy={refreshing}>
          <Text size="sm" c="dimmed" role="status" aria-live="polite">
            {`Showing statistics for ${formatCount(stats.total_repositories)} of ${formatCount(answer.catalogue_total)} repositories`}
          </Text>
          {refreshing && <Loader size="xs" aria-label="Updating statistics" />}
        </Group>
        <Anchor component={Link} to={listLink} size="sm">
          Show these repositories in the list
        </Anchor>
      </Group>

      {stats.total_repositories === 0 ? (
        <NoStatistics catalogueEmpty={answer.catalogue_total === 0} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
            <StatCard label="Total repositories" value={formatCount(stats.total_repositories)} />
            <StatCard label="Total stars" value={formatCount(stats.total_stars)} />
            <StatCard label="Average stars" value={formatAverage(stats.average_stars)} />
            <StatCard label="Total forks" value={formatCount(stats.total_forks)} />
            <StatCard
              label="Recently updated"
              value={formatCount(stats.recently_updated)}
              hint="A commit in the last 30 days"
            />
            <StatCard
              label="License coverage"
              value={`${stats.license_coverage}%`}
              hint={`${formatCount(stats.with_license)} of ${formatCount(stats.total_repositories)} have a license`}
            />
            <StatCard
              label="Most common license"
              value={stats.most_common_license?.name ?? 'N/A'}
              hint={
                stats.most_common_license
                  ? `${formatCount(stats.most_common_license.count)} repositories`
                  : undefined
              }
            />
            <StatCard
              label="Contributors"
              value={formatCount(stats.total_contributors)}
              hint="Each repository counts at most 1,000"
            />
          </SimpleGrid>

          <FastestGrowing repositories={answer.fastest_growing} />

          <HealthOverview
            grades={answer.health_grades}
            advisories={answer.open_advisories}
            listParams={listParams}
          />

          <DecisionOverview statuses={answer.decision_statuses} listParams={listParams} />

          <Stack gap="sm" component="section" aria-labelledby="stats-charts">
            <Title order={2} size="h3" id="stats-charts">
              Charts
            </Title>
            <Suspense
              fallback={
                <Center py="xl" role="status">
                  <Loader size="sm" aria-label="Loading charts" />
                </Center>
              }
            >
              <StatsCharts licenses={charts.licenses} topics={charts.topics} stars={charts.stars} />
            </Suspense>
          </Stack>
        </>
      )}
    </>
  );
}
