import { Button, Grid, Group, Paper, Select, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconRadar } from '@tabler/icons-react';
import { type RefObject, useCallback, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDate } from '#shared/format.ts';
import type { Radar, RadarQuery } from '#shared/schemas/radar.ts';
import { useTags } from '#web/catalogue/get-tags.ts';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { PageContainer } from '#web/components/page-container.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { usePublicPagesEnabled } from '../api/publish-edition-page.ts';
import { useRadar, useRadarEditions } from '../api/radar.ts';
import { PublishEditionPageButton } from '../components/edition-page.tsx';
import { CompareEditions, editionOptions, PublishEditionButton } from '../components/editions.tsx';
import classes from '../components/radar.module.css';
import { RadarChart, RadarKey } from '../components/radar-chart.tsx';
import { AtRiskPanel, QuadrantLegends, RetiredList, ReviewsDuePanel } from '../components/radar-lists.tsx';
import { QuadrantsEditor, RadarDownloads } from '../components/radar-tools.tsx';

const CURRENT = 'current';

/** `?tag=…&edition=…` in the address bar, so a radar can be linked. */
function useRadarFilters() {
  const [params, setParams] = useSearchParams();
  const tag = params.get('tag')?.trim() || null;
  const rawEdition = Number(params.get('edition'));
  const edition = Number.isInteger(rawEdition) && rawEdition > 0 ? rawEdition : null;
  const update = useCallback(
    (patch: { tag?: string | null; edition?: number | null }) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(patch)) {
            if (value === null || value === undefined || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { tag, edition, update };
}

/** The Radar screen at #/radar (docs/product.md#radar-screen). */
export default function RadarRoute() {
  const { tag, edition, update } = useRadarFilters();
  const query: RadarQuery = { tag: tag ?? undefined, edition: edition ?? undefined };
  const radar = useRadar(query);
  const editions = useRadarEditions();
  const tags = useTags();
  const isAdmin = useAuth().user?.is_admin === true;
  const publicPages = usePublicPagesEnabled();
  const svg = useRef<SVGSVGElement>(null);
  const [comparing, setComparing] = useState(false);

  const tagOptions = useMemo(() => {
    const names = (tags.data?.tags ?? []).map((entry) => entry.name);
    if (tag && !names.some((name) => name.toLowerCase() === tag.toLowerCase())) names.unshift(tag);
    return names;
  }, [tags.data, tag]);
  const editionList = editions.data ?? [];
  const shownEdition = edition === null ? undefined : editionList.find((entry) => entry.id === edition);
  const editionData = [{ value: CURRENT, label: 'Current radar' }, ...editionOptions(editionList)];

  return (
    <PageContainer>
      <Stack gap="md">
        <div>
          <Title order={1}>Radar</Title>
          <Text c="dimmed">
            The team's decisions as a technology radar: Adopt at the centre, then Trial, Assess and Hold.
          </Text>
        </div>

        <Paper withBorder radius="md" p="sm" className={classes.noPrint}>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label="Tag"
              placeholder="All tags"
              data={tagOptions}
              value={tag}
              onChange={(value) => update({ tag: value })}
              clearable
              searchable
              nothingFoundMessage="No such tag"
              style={{ flex: '1 1 12rem' }}
            />
            <Select
              label="Edition"
              data={editionData}
              value={edition === null ? CURRENT : String(edition)}
              onChange={(value) => update({ edition: value && value !== CURRENT ? Number(value) : null })}
              allowDeselect={false}
              style={{ flex: '1 1 14rem' }}
            />
            <Group gap="sm">
              {isAdmin && <PublishEditionButton onPublished={() => update({ edition: null })} />}
              {isAdmin && publicPages && shownEdition && <PublishEditionPageButton edition={shownEdition} />}
              <Button
                variant="default"
                onClick={() => setComparing((open) => !open)}
                aria-expanded={comparing}
              >
                Compare editions
              </Button>
            </Group>
          </Group>
        </Paper>

        {comparing && (
          <div className={classes.noPrint}>
            <CompareEditions editions={editionList} quadrants={radar.data?.quadrants ?? []} />
          </div>
        )}

        {radar.isPending ? (
          <SectionLoader label="Loading the radar..." />
        ) : !radar.data ? (
          <SectionError
            title="The radar could not be loaded."
            message={describeError(radar.error, 'Request failed')}
            onRetry={() => void radar.refetch()}
            retrying={radar.isRefetching}
          />
        ) : (
          <RadarBody
            radar={radar.data}
            svg={svg}
            query={query}
            filtered={tag !== null}
            onClear={() => update({ tag: null })}
          />
        )}

        {isAdmin && (
          <div className={classes.noPrint}>
            <QuadrantsEditor />
          </div>
        )}
      </Stack>
    </PageContainer>
  );
}

function RadarBody({
  radar,
  svg,
  query,
  filtered,
  onClear,
}: {
  radar: Radar;
  svg: RefObject<SVGSVGElement | null>;
  query: RadarQuery;
  filtered: boolean;
  onClear: () => void;
}) {
  const title = radar.edition ? `Radar ${radar.edition.name}` : 'Radar';
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {radar.edition
          ? `Edition ${radar.edition.name}, published ${formatDate(radar.edition.published_at)} by ${radar.edition.published_by.username}.`
          : 'The current radar.'}{' '}
        {radar.previous_edition
          ? `Moves are measured against ${radar.previous_edition.name}.`
          : 'No earlier edition to measure moves against.'}
      </Text>
      {radar.blips.length === 0 ? (
        <EmptyRadar filtered={filtered} onClear={onClear} />
      ) : (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: 8 }} className={classes.printFull}>
            <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
              <Stack gap="sm">
                <RadarChart radar={radar} ref={svg} />
                <RadarKey />
              </Stack>
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }} className={classes.printFull}>
            <Stack gap="md">
              <AtRiskPanel radar={radar} />
              <ReviewsDuePanel radar={radar} />
            </Stack>
          </Grid.Col>
        </Grid>
      )}
      {radar.blips.length > 0 && <QuadrantLegends radar={radar} />}
      <RetiredList radar={radar} />
      {radar.blips.length === 0 && <ReviewsDuePanel radar={radar} />}
      {radar.blips.length > 0 && (
        <div className={classes.noPrint}>
          <RadarDownloads svg={svg} query={query} title={title} />
        </div>
      )}
    </Stack>
  );
}

function EmptyRadar({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconRadar size={26} aria-hidden />
        </ThemeIcon>
        <Title order={2} size="h4">
          {filtered ? 'No repository with this tag is on the radar' : 'The radar is empty'}
        </Title>
        <Text c="dimmed" size="sm" maw={480}>
          {filtered
            ? 'Try another tag, or show every repository.'
            : "A repository appears here once the team decides on it: open the repository's page, go to its Decision tab and set a status (Adopt, Trial, Assess or Hold) and a quadrant."}
        </Text>
        {filtered && (
          <Button variant="light" onClick={onClear}>
            Show every tag
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
