import {
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLock, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '#shared/constants.ts';
import { formatCount, formatDate, formatStars } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import { SectionError } from '#web/components/load-states.tsx';
import { useAdminRepositories } from '../api/get-admin-repositories.ts';
import { isForbidden, loadErrorMessage } from '../lib/admin-messages.ts';

/**
 * Every repository of the instance, private ones included, a page of 50 at a time from
 * `GET /auth/admin/repositories` (searched and sorted by the server), with 'Load more'.
 */
export function AdminRepositoryList({ onForbidden }: { onForbidden: () => void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const query = useAdminRepositories({ q: debounced || undefined, sort: 'name', order: 'asc' });
  const rows = query.data?.pages.flatMap((page) => page.repositories) ?? [];
  const total = query.data?.pages.at(-1)?.total ?? 0;
  const forbidden = isForbidden(query.error);

  useEffect(() => {
    if (forbidden) onForbidden();
  }, [forbidden, onForbidden]);

  return (
    <section aria-labelledby="admin-repository-list">
      <Stack gap="sm">
        <Title order={2} size="h4" id="admin-repository-list">
          All repositories
        </Title>
        <TextInput
          label="Search all repositories"
          placeholder="Name, description, id, tag or license"
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={query.isPlaceholderData ? <Loader size="xs" aria-label="Searching" /> : undefined}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maw={480}
        />
        {query.isPending ? (
          <Center py="lg">
            <Loader aria-label="Loading repositories" />
          </Center>
        ) : query.isError && !query.data ? (
          <SectionError
            message={loadErrorMessage(query.error, 'repositories')}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : (
          <>
            <Text size="sm" c="dimmed" role="status" aria-live="polite">
              {`Showing ${formatCount(rows.length)} of ${formatCount(total)} repositories`}
            </Text>
            {rows.length === 0 ? (
              <Text py="md">
                {debounced ? `No repositories match “${debounced}”.` : 'No repositories yet.'}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={560} type="native">
                <Table striped highlightOnHover aria-label="All repositories">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Repository</Table.Th>
                      <Table.Th>Added by</Table.Th>
                      <Table.Th ta="end">Stars</Table.Th>
                      <Table.Th>Added</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((row) => (
                      <Table.Tr key={row.id}>
                        <Table.Td>
                          <Group gap={6} wrap="nowrap">
                            <Anchor
                              component={Link}
                              to={`/repo/${encodeRouteId(row.id)}`}
                              size="sm"
                              style={{ overflowWrap: 'anywhere' }}
                            >
                              {row.id}
                            </Anchor>
                            {row.private && (
                              <Badge
                                size="xs"
                                variant="outline"
                                color="gray"
                                leftSection={<IconLock size={10} aria-hidden />}
                              >
                                Private
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{row.user_id === null ? '—' : `#${row.user_id}`}</Text>
                        </Table.Td>
                        <Table.Td ta="end">
                          <Text size="sm" span title={`${formatCount(row.stars)} stars`}>
                            {formatStars(row.stars)}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{formatDate(row.created_at)}</Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {query.isFetchNextPageError && (
              <SectionError
                message={loadErrorMessage(query.error, 'repositories')}
                onRetry={() => void query.fetchNextPage()}
              />
            )}
            {query.hasNextPage && !query.isFetchNextPageError && (
              <Center>
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => void query.fetchNextPage()}
                  loading={query.isFetchingNextPage}
                >
                  Load more
                </Button>
              </Center>
            )}
          </>
        )}
      </Stack>
    </section>
  );
}
