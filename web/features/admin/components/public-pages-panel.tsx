import { Anchor, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatDate } from '#shared/format.ts';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { usePublicPages, useUnpublishPage } from '../api/get-public-pages.ts';

/** The Public pages tab (docs/product.md#public-pages): every published view and edition, with Unpublish. */
export function PublicPagesPanel() {
  const pages = usePublicPages();
  const unpublish = useUnpublishPage();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="admin-public-pages">
      <Title order={2} size="h4" id="admin-public-pages" mb="xs">
        Public pages
      </Title>
      {pages.isPending ? (
        <SectionLoader label="Loading the public pages..." />
      ) : pages.isError ? (
        <SectionError
          message={describeError(pages.error, 'Failed to load the public pages')}
          onRetry={() => void pages.refetch()}
          retrying={pages.isRefetching}
        />
      ) : pages.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing is published. Members publish a shared view from its menu on the list; admins an edition on
          the Radar.
        </Text>
      ) : (
        <Stack gap="xs">
          <Table.ScrollContainer minWidth={720}>
            <Table striped verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Title</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>Shows</Table.Th>
                  <Table.Th>Published by</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>
                    <span className="sr-only">Actions</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {pages.data.map((page) => (
                  <Table.Tr key={page.id}>
                    <Table.Td>{page.kind === 'view' ? 'View' : 'Radar edition'}</Table.Td>
                    <Table.Td>{page.title}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere', maxWidth: '18rem' }}>
                      <Anchor href={page.url} target="_blank" rel="noopener noreferrer" size="sm">
                        {page.url}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      {page.kind === 'radar'
                        ? page.include_rationales
                          ? 'rationales'
                          : 'no rationales'
                        : page.fields.join(', ') || 'names only'}
                    </Table.Td>
                    <Table.Td>{page.published_by}</Table.Td>
                    <Table.Td>{formatDate(page.published_at)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        aria-label={`Unpublish ${page.title}`}
                        loading={unpublish.isPending && unpublish.variables === page.id}
                        onClick={() =>
                          unpublish.mutate(page.id, {
                            onSuccess: () =>
                              notifications.show({ message: `“${page.title}” is no longer public.` }),
                            onError: (error) =>
                              notifications.show({
                                color: 'red',
                                message: `Failed to unpublish: ${describeError(error, 'Request failed')}`,
                              }),
                          })
                        }
                      >
                        Unpublish
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      )}
    </Paper>
  );
}
