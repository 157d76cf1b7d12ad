import { Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatDate, formatDateTime } from '#shared/format.ts';
import type { RepositoryHealth } from '#shared/schemas/health.ts';
import type { Repository, Version } from '#shared/schemas/repositories.ts';
import { HealthBadge } from '#web/components/health-badge.tsx';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useHealth } from '../../../api/get-health.ts';
import { signalPoints, signalValue } from '../../../lib/health.ts';
import { AdvisoriesSection } from './advisories-section.tsx';
import { OverrideCard } from './override-card.tsx';

/**
 * The Health & security tab (docs/health.md, docs/product.md#repository-health), loaded when it
 * first opens: the score and every signal behind it with its raw value, when it was measured and
 * its points; the formula version; the "finished" override; the security advisories and the
 * packages they are read for.
 */
export default function HealthTab({
  repository,
  versions,
}: {
  repository: Repository;
  versions: readonly Version[];
}) {
  const health = useHealth(repository.id);
  return (
    <Stack gap="xl">
      {health.data ? (
        <>
          <SignalsCard health={health.data} />
          <OverrideCard fullName={repository.id} override={health.data.override} />
        </>
      ) : health.isError ? (
        <SectionError
          message={`Failed to load the health: ${describeError(health.error, 'Request failed')}`}
          onRetry={() => void health.refetch()}
        />
      ) : (
        <SectionLoader label="Loading health..." />
      )}
      <AdvisoriesSection repository={repository} versions={versions} />
    </Stack>
  );
}

function SignalsCard({ health }: { health: RepositoryHealth }) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="health-signals"
    >
      <Stack gap="md">
        <Group justify="space-between" gap="sm" align="flex-start">
          <Stack gap={4}>
            <Title order={2} size="h3" id="health-signals">
              Health
            </Title>
            <Text size="sm" c="dimmed">
              {health.computed_at
                ? `Scored ${formatDateTime(health.computed_at)} by formula version ${health.formula_version}.`
                : `Not assessed yet (formula version ${health.formula_version}).`}{' '}
              A signal GitHub has not told the app yet is left out of the score.
            </Text>
          </Stack>
          <Group gap="sm">
            <HealthBadge grade={health.grade} size="xl" />
            <Text fw={700} size="xl">
              {health.score === null ? 'No score' : `${health.score} / 100`}
            </Text>
          </Group>
        </Group>
        {/* Three columns, none scrolling sideways: the date it was measured goes under the value. */}
        <Table verticalSpacing="xs" aria-labelledby="health-signals">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Signal</Table.Th>
              <Table.Th>Value, measured</Table.Th>
              <Table.Th style={{ textAlign: 'end' }}>Points</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {health.signals.map((signal) => (
              <Table.Tr key={signal.key} data-signal={signal.key}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {signal.label}
                  </Text>
                  {signal.note && (
                    <Text size="xs" c="dimmed">
                      {signal.note}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" fs={signal.value === null ? 'italic' : undefined}>
                    {signalValue(signal)}
                  </Text>
                  {signal.measured_at && (
                    <Text size="xs" c="dimmed" title={formatDateTime(signal.measured_at)}>
                      {formatDate(signal.measured_at)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ textAlign: 'end' }}>
                  <Text size="sm" fw={signal.points === null ? undefined : 600}>
                    {signalPoints(signal)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
