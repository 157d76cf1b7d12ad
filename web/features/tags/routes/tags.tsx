import { Anchor, Button, Center, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPlus, IconStar } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { displayLicense, formatCount, formatStars } from '../../../../shared/format.ts';
import { encodeRouteId } from '../../../../shared/route-id.ts';
import type { RepositorySummary } from '../../../../shared/schemas/repositories.ts';
import { countTags, hasTag } from '../../../../shared/tag-colors.ts';
import { SectionError, SectionLoader } from '../../../components/load-states.tsx';
import { tagChipClass, tagChipStyle } from '../../../components/tag-chip.tsx';
import { useRepositories } from '../../../lib/repositories-query.ts';
import classes from '../components/tag-link.module.css';

export const LOAD_FAILED = 'Failed to load tags. Please try again.';
const PAGE = 100;

/** The tags page at #/tags; a chosen tag is in the query (#/tags?tag=react). */
export default function TagsRoute() {
  const repositories = useRepositories();
  const [params] = useSearchParams();
  const selected = params.get('tag');

  return (
    <Container size="lg" py="md" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="md">
        <Title order={1}>Tags</Title>
        {repositories.isPending ? (
          <SectionLoader label="Loading tags..." />
        ) : repositories.isError ? (
          <SectionError message={LOAD_FAILED} onRetry={() => void repositories.refetch()} />
        ) : selected ? (
          <TaggedRepositories key={selected} tag={selected} rows={repositories.data} />
        ) : (
          <AllTags rows={repositories.data} />
        )}
      </Stack>
    </Container>
  );
}

function AllTags({ rows }: { rows: RepositorySummary[] }) {
  const tags = useMemo(() => countTags(rows), [rows]);
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

function TaggedRepositories({ tag, rows }: { tag: string; rows: RepositorySummary[] }) {
  const navigate = useNavigate();
  const [limit, setLimit] = useState(PAGE);
  const tagged = useMemo(
    () =>
      rows
        .filter((row) => hasTag(row.tags, tag))
        .sort((a, b) => b.stars - a.stars || a.id.localeCompare(b.id)),
    [rows, tag],
  );
  return (
    <Stack gap="md">
      <Group gap="sm" justify="space-between">
        <Title order={2} size="h3">
          Repositories tagged{' '}
          <span className={`${tagChipClass} ${classes.tagLink}`} style={tagChipStyle(tag)}>
            {tag}
          </span>
        </Title>
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          onClick={() => navigate('/tags')}
        >
          Back to all tags
        </Button>
      </Group>
      {tagged.length === 0 ? (
        <Text c="dimmed">No repositories carry this tag.</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {tagged.length === 1 ? '1 repository' : `${formatCount(tagged.length)} repositories`}
          </Text>
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {tagged.slice(0, limit).map((row) => (
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
          {tagged.length > limit && (
            <Center>
              <Button variant="subtle" onClick={() => setLimit((current) => current + PAGE)}>
                Show more
              </Button>
            </Center>
          )}
        </>
      )}
    </Stack>
  );
}
