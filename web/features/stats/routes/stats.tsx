import {
  Alert,
  Center,
  Container,
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
import { IconAlertTriangle } from '@tabler/icons-react';
import { lazy, Suspense, useDeferredValue, useMemo, useState } from 'react';
import { formatCount } from '../../../../shared/format.ts';
import type { RepositorySummary } from '../../../../shared/schemas/repositories.ts';
import {
  checkStarRange,
  computeStats,
  distinctValues,
  EMPTY_FILTERS,
  filterRepositories,
  INVALID_RANGE_HINT,
  licenseDistribution,
  type StatsFilters,
  starDistribution,
  topTopics,
} from '../../../../shared/stats.ts';
import { SectionError, SectionLoader } from '../../../components/load-states.tsx';
import { StatCard } from '../../../components/stat-card.tsx';
import { useAuth } from '../../../lib/auth/auth-context.tsx';
import { useRepositories } from '../../../lib/repositories-query.ts';
import { FilterChips, filterChips, removeChip } from '../components/filter-chips.tsx';
import classes from '../components/stats.module.css';

const StatsCharts = lazy(() => import('../components/stats-charts.tsx'));

export const LOAD_FAILED = 'Failed to load statistics. Please try again.';
export const NO_USER = 'User information not available. Please try refreshing the page.';

/** The statistics page at #/stats (docs/product.md#statistics-page). */
export default function StatsRoute() {
  const { user } = useAuth();
  const repositories = useRepositories();

  return (
    <Container size="xl" py="md" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="md">
        <Title order={1}>Statistics</Title>
        {!user ? (
          <SectionError message={NO_USER} onRetry={() => window.location.reload()} />
        ) : repositories.isPending ? (
          <SectionLoader label="Loading statistics..." />
        ) : repositories.isError ? (
          <SectionError message={LOAD_FAILED} onRetry={() => void repositories.refetch()} />
        ) : (
          <Statistics rows={repositories.data} />
        )}
      </Stack>
    </Container>
  );
}

function toNumber(value: string | number): number | null {
  if (value === '' || value === '-') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

function Statistics({ rows }: { rows: RepositorySummary[] }) {
  const [filters, setFilters] = useState<StatsFilters>(EMPTY_FILTERS);
  const deferred = useDeferredValue(filters);
  const choices = useMemo(() => distinctValues(rows), [rows]);
  const range = checkStarRange(filters.minStars, filters.maxStars);
  const filtered = useMemo(() => filterRepositories(rows, deferred), [rows, deferred]);
  const stats = useMemo(() => computeStats(filtered), [filtered]);
  const charts = useMemo(
    () => ({
      licenses: licenseDistribution(filtered),
      topics: topTopics(filtered, 10),
      stars: starDistribution(filtered),
    }),
    [filtered],
  );
  const chips = filterChips(filters);
  const set = (patch: Partial<StatsFilters>) => setFilters((current) => ({ ...current, ...patch }));

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
              placeholder="Any licence"
              data={choices.licenses}
              value={filters.license || null}
              onChange={(license) => set({ license: license ?? '' })}
              searchable
              clearable
              clearButtonProps={{ 'aria-label': 'Clear licence filter' }}
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
          <FilterChips
            chips={chips}
            onRemove={(chip) => setFilters((current) => removeChip(current, chip))}
            onClear={() => setFilters(EMPTY_FILTERS)}
          />
        </Stack>
      </Paper>

      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {`Showing statistics for ${formatCount(filtered.length)} of ${formatCount(rows.length)} repositories`}
      </Text>

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
        <StatCard label="Total repositories" value={formatCount(stats.totalRepositories)} />
        <StatCard label="Total stars" value={formatCount(stats.totalStars)} />
        <StatCard
          label="Average stars"
          value={stats.averageStars.toLocaleString('en-US', {
            maximumFractionDigits: 1,
            minimumFractionDigits: 1,
          })}
        />
        <StatCard label="Total forks" value={formatCount(stats.totalForks)} />
        <StatCard
          label="Recently updated"
          value={formatCount(stats.recentlyUpdated)}
          hint="A commit in the last 30 days"
        />
        <StatCard
          label="License coverage"
          value={`${stats.licenseCoverage}%`}
          hint={`${formatCount(stats.withLicense)} of ${formatCount(stats.totalRepositories)} have a licence`}
        />
        <StatCard
          label="Most common license"
          value={stats.mostCommonLicense?.name ?? 'N/A'}
          hint={
            stats.mostCommonLicense ? `${formatCount(stats.mostCommonLicense.count)} repositories` : undefined
          }
        />
        <StatCard
          label="Contributors"
          value={formatCount(stats.totalContributors)}
          hint="Each repository counts at most 1,000"
        />
      </SimpleGrid>

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
  );
}
