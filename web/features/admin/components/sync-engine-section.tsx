import { Badge, Center, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconClockPlay, IconHourglass, IconListCheck, IconRefresh } from '@tabler/icons-react';
import { formatCount, formatDateTime, formatTime } from '#shared/format.ts';
import type { AdminSync } from '#shared/schemas/admin.ts';
import { SectionError } from '#web/components/load-states.tsx';
import { StatCard } from '#web/components/stat-card.tsx';
import { TableScrollRegion } from '#web/components/table-scroll-region.tsx';
import { useAdminSync } from '../api/get-admin-sync.ts';
import { loadErrorMessage } from '../lib/admin-messages.ts';

/**
 * The sync engine on the overview tab (docs/product.md#background-work): what is due and
 * running, the GitHub tokens it spends, and the repositories failing now. Its own loading and
 * error states, so the counts above stay whatever happens here.
 */
export function SyncEngineSection() {
  const sync = useAdminSync();
  return (
    <section aria-labelledby="admin-overview-sync">
      <Title order={2} size="h4" mb="sm" id="admin-overview-sync">
        Sync engine
      </Title>
      {sync.isPending ? (
        <Center py="md">
          <Loader aria-label="Loading the sync engine" />
        </Center>
      ) : sync.isError ? (
        <SectionError
          message={loadErrorMessage(sync.error, 'the sync engine')}
          onRetry={() => void sync.refetch()}
          retrying={sync.isFetching}
        />
      ) : (
        <SyncEngineState state={sync.data} />
      )}
    </section>
  );
}

function SyncEngineState({ state }: { state: AdminSync }) {
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="md">
        <StatCard label="Due now" value={formatCount(state.queued)} icon={IconListCheck} />
        <StatCard label="Syncing" value={formatCount(state.running)} icon={IconRefresh} color="teal" />
        <StatCard
          label="Jobs waiting"
          value={formatCount(state.jobs_waiting)}
          icon={IconHourglass}
          color="orange"
        />
        <StatCard
          label="Next run"
          value={state.next_run_at ? formatTime(state.next_run_at) : 'Off'}
          icon={IconClockPlay}
          color="grape"
        />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        Each repository is refreshed every {state.interval_hours} hours; failing ones are retried sooner,
        backing off.
      </Text>
      <Stack gap="xs">
        <Title order={3} size="h5">
          GitHub tokens
        </Title>
        {state.tokens.length === 0 ? (
          <Text size="sm" c="dimmed">
            No GitHub calls since this server started.
          </Text>
        ) : (
          <TableScrollRegion label="GitHub tokens" minWidth={620}>
            <Table striped aria-label="GitHub tokens">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Token</Table.Th>
                  <Table.Th>Quota left</Table.Th>
                  <Table.Th>Resets</Table.Th>
                  <Table.Th>REST calls, last minute</Table.Th>
                  <Table.Th>Secondary limit</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {state.tokens.map((token) => (
                  <Table.Tr key={`${token.owner}-${token.last_four ?? ''}`}>
                    <Table.Td>
                      {token.owner}
                      {token.last_four ? (
                        <Text span c="dimmed" ff="monospace" size="sm">
                          {` ····${token.last_four}`}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {token.remaining === null
                        ? 'Not asked yet'
                        : `${formatCount(token.remaining)} of ${formatCount(token.limit ?? token.remaining)}`}
                    </Table.Td>
                    <Table.Td>{token.reset_at ? formatDateTime(token.reset_at) : '—'}</Table.Td>
                    <Table.Td>{formatCount(token.rest_per_min)}</Table.Td>
                    <Table.Td>
                      {token.paused_until ? (
                        <Badge color="orange" variant="light">
                          Paused until {formatDateTime(token.paused_until)}
                        </Badge>
                      ) : (
                        'None'
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScrollRegion>
        )}
      </Stack>
      <BackgroundWork jobs={state.jobs} />
      <Stack gap="xs">
        <Title order={3} size="h5">
          Recent failures
        </Title>
        {state.recent_errors.length === 0 ? (
          <Text size="sm" c="dimmed">
            No repository is failing.
          </Text>
        ) : (
          <TableScrollRegion label="Repositories failing to sync" minWidth={620}>
            <Table striped aria-label="Repositories failing to sync">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Repository</Table.Th>
                  <Table.Th>Error</Table.Th>
                  <Table.Th>Failures in a row</Table.Th>
                  <Table.Th>Next try</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {state.recent_errors.map((failure) => (
                  <Table.Tr key={failure.repository_id}>
                    <Table.Td>{failure.full_name}</Table.Td>
                    <Table.Td>{failure.error}</Table.Td>
                    <Table.Td>{formatCount(failure.failures)}</Table.Td>
                    <Table.Td>{formatDateTime(failure.next_due_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScrollRegion>
        )}
      </Stack>
    </Stack>
  );
}

/** Every kind of background work: its schedule, and its jobs waiting, running and failed today. */
function BackgroundWork({ jobs }: { jobs: AdminSync['jobs'] }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Background work
      </Title>
      <TableScrollRegion label="Kinds of background work" minWidth={620}>
        <Table striped aria-label="Kinds of background work">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Schedule</Table.Th>
              <Table.Th>Next run</Table.Th>
              <Table.Th>Waiting</Table.Th>
              <Table.Th>Running</Table.Th>
              <Table.Th>Failed (24 h)</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {jobs.map((job) => (
              <Table.Tr key={job.kind}>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {job.kind}
                  </Text>
                </Table.Td>
                <Table.Td>{job.schedule ?? 'When queued'}</Table.Td>
                <Table.Td>{job.next_run ? formatDateTime(job.next_run) : '—'}</Table.Td>
                <Table.Td>{formatCount(job.waiting)}</Table.Td>
                <Table.Td>{formatCount(job.running)}</Table.Td>
                <Table.Td>
                  {job.failed_last_day > 0 ? (
                    <Badge color="red" variant="light">
                      {formatCount(job.failed_last_day)}
                    </Badge>
                  ) : (
                    '0'
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScrollRegion>
    </Stack>
  );
}
