import { Anchor, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconList, IconPlus, IconStar } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { displayLicense, formatCount, formatStars } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { NameCount } from '#shared/schemas/catalogue.ts';
import { useRepositoryPages } from '#web/catalogue/get-repository-pages.ts';
import { useTags } from '#web/catalogue/get-tags.ts';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { PageContainer } from '#web/components/page-container.tsx';
import { tagChipClass, tagChipStyle } from '#web/components/tag-chip.tsx';
import classes from '../components/tag-link.module.css';

export const LOAD_FAILED = 'Failed to load tags. Please try again.';
/** Repositories of one tag per request (and per 'Show more'). */
const PAGE = 100;

/**
 * The tags page at #/tags; a chosen tag is in the query (#/tags?tag=react). The counts come from
 * `GET /tags`, a tag's repositories page by page from the list call filtered by that tag.
 */
export default function TagsRoute() {
  const [params] = useSearchParams();
  const selected = params.get('tag');

  return (
    <PageContainer>
      <Stack gap="md">
        <Title order={1}>Tags</Title>
        {selected ? <TaggedRepositories key={selected} tag={selected} /> : <AllTags />}
      </Stack>
    </PageContainer>
  );
}

function AllTags() {
  const query = useTags();
  if (query.isPending) return <SectionLoader label="Loading tags..." />;
  if (query.isError) return <SectionError message={LOAD_FAILED} onRetry={() => void query.refetch()} />;
  return <TagList tags={query.data.tags} />;
}

function TagList({ tags }: { tags: NameCount[] }) {
  if (tags.length === 0) {
    return (
      <Stack align="center" gap="sm" py="xl" ta="center">
        <Text fw={600}>No tags yet.</Text>
        <Text size="sm" c="dimmed">
          Tag repositories on their detail page, or give tags to a whole batch when you add repositories.
        </Text>
        <Button component={Link} to="/add" leftSection={<IconPlus size={16} aria-hidden />}>
          Add Repositories
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {tags.length === 1 ? '1 tag' : `${formatCount(tags.length)} tags`}, sorted by name. Choose one to see
        its repositories.
      </Text>
      <Group
        gap="xs"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label="All tags"
      >
        {tags.map(({ name, count }) => (
          <li key={name.toLowerCase()}>
            <Link
              to={`/tags?tag=${encodeURIComponent(name)}`}
              className={`${tagChipClass} ${classes.tagLink}`}
              style={tagChipStyle(name)}
              aria-label={`${name}: ${count} ${count === 1 ? 'repository' : 'repositories'}`}
            >
              <span>{name}</span>
              <span className={classes.count} aria-hidden>
                {count}
              </span>
            </Link>
          </li>
        ))}
      </Group>
    </Stack>
  );
}

function TaggedRepositories({ tag }: { tag: string }) {
  const navigate = useNavigate();
  // Most starred first, as before the server did the filtering.
  const query = useRepositoryPages({ tags: tag, sort: 'stars', order: 'desc' }, { limit: PAGE });
  const tagged = query.data?.pages.flatMap((page) => page.repositories) ?? [];
  const total = query.data?.pages.at(-1)?.total ?? 0;
  return (
    <Stack gap="md">
      <Group gap="sm" justify="space-between">
        <Title order={2} size="h3">
          Repositories tagged{' '}
          <span className={`${tagChipClass} ${classes.tagLink}`} style={tagChipStyle(tag)}>
            {tag}
          </span>
        </Title>
        <Group gap="xs">
          <Button
            variant="subtle"
            component={Link}
            to={`/home?tags=${encodeURIComponent(tag)}`}
            leftSection={<IconList size={16} aria-hidden />}
          >
            Open in the list
          </Button>
          <Button
            variant="default"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
            onClick={() => navigate('/tags')}
          >
            Back to all tags
          </Button>
        </Group>
      </Group>
      {query.isPending ? (
        <SectionLoader label="Loading repositories..." />
      ) : query.isError && !query.data ? (
        <SectionError message={LOAD_FAILED} onRetry={() => void query.refetch()} />
      ) : tagged.length === 0 ? (
        <Text c="dimmed">No repositories carry this tag.</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {total === 1 ? '1 repository' : `${formatCount(total)} repositories`}
          </Text>
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {tagged.map((row) => (
              <Paper key={row.id} component="li" withBorder radius="md" p="sm">
                <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
                  <Stack gap={2} miw={0}>
                    <Anchor
                      component={Link}
                      to={`/repo/${encodeRouteId(row.id)}`}
                      fw={600}
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {row.id}
                    </Anchor>
                    <Text size="sm" c={row.description ? undefined : 'dimmed'} lineClamp={2}>
                      {row.description || 'No description available.'}
                    </Text>
                  </Stack>
                  <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
                    <Group gap={4} wrap="nowrap" title={`${formatCount(row.stars)} stars`}>
                      <IconStar size={14} aria-hidden />
                      <Text size="sm">{formatStars(row.stars)}</Text>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {displayLicense(row.license)}
                    </Text>
                  </Stack>
                </Group>
              </Paper>
            ))}
          </Stack>
          {query.isFetchNextPageError && (
            <SectionError message={LOAD_FAILED} onRetry={() => void query.fetchNextPage()} />
          )}
          {query.hasNextPage && !query.isFetchNextPageError && (
            <Center>
              <Button
                variant="subtle"
                onClick={() => void query.fetchNextPage()}
                loading={query.isFetchingNextPage}
              >
                Show more
              </Button>
            </Center>
          )}
        </>
      )}
    </Stack>
  );
}
