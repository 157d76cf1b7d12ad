import { Button, Group, Modal, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { formatDate } from '#shared/format.ts';
import { EDITION_NAME_MAX_LENGTH, type EditionCompare, type RadarEdition } from '#shared/schemas/radar.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useEditionCompare, usePublishEdition } from '../api/radar.ts';
import { STATUS_NAMES } from '../lib/radar-text.ts';
import { RepositoryName } from './radar-lists.tsx';

export function editionOptions(editions: readonly RadarEdition[]) {
  return editions.map((edition) => ({
    value: String(edition.id),
    label: `${edition.name} (${formatDate(edition.published_at)})`,
  }));
}

/** Publish edition (admins): a modal asking the name; the API's message when it refuses. */
export function PublishEditionButton({ onPublished }: { onPublished: (edition: RadarEdition) => void }) {
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState('');
  const publish = usePublishEdition();
  const close = () => {
    setOpened(false);
    publish.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    publish.mutate(name.trim(), {
      onSuccess: (edition) => {
        setOpened(false);
        setName('');
        onPublished(edition);
      },
    });
  };
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Publish edition
      </Button>
      <Modal opened={opened} onClose={close} title="Publish edition">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              Freezes the current radar under a name, so it can be shown and compared later. Editions can't be
              renamed or deleted.
            </Text>
            <TextInput
              label="Name"
              placeholder="2026 Q4"
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={EDITION_NAME_MAX_LENGTH}
              required
              data-autofocus
            />
            {publish.isError && (
              <InlineMessage kind="error">
                {describeError(publish.error, 'Failed to publish the edition')}
              </InlineMessage>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={publish.isPending} disabled={name.trim() === ''}>
                Publish
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

function placement(
  value: { status: keyof typeof STATUS_NAMES; quadrant: string } | null,
  names: Map<string, string>,
) {
  if (!value) return '—';
  return `${STATUS_NAMES[value.status]} · ${names.get(value.quadrant) ?? value.quadrant}`;
}

const DIRECTIONS = { in: '↑ in', out: '↓ out' } as const;

/** Compare editions: two selects, then what moved between them as a table. */
export function CompareEditions({
  editions,
  quadrants,
}: {
  editions: readonly RadarEdition[];
  quadrants: readonly { key: string; name: string }[];
}) {
  // The two latest editions until the member picks others (editions are newest first).
  const [pickedFrom, setFrom] = useState<string | null>(null);
  const [pickedTo, setTo] = useState<string | null>(null);
  const from = pickedFrom ?? (editions[1] ? String(editions[1].id) : null);
  const to = pickedTo ?? (editions[0] ? String(editions[0].id) : null);
  const a = from ? Number(from) : null;
  const b = to ? Number(to) : null;
  const compare = useEditionCompare(a, b);
  const options = editionOptions(editions);
  const names = new Map(quadrants.map((quadrant) => [quadrant.key, quadrant.name]));

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="radar-compare">
      <Title order={2} size="h4" id="radar-compare" mb="xs">
        Compare editions
      </Title>
      {editions.length < 2 ? (
        <Text size="sm" c="dimmed">
          Two published editions are needed to compare.
        </Text>
      ) : (
        <Stack gap="sm">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label="From"
              data={options}
              value={from}
              onChange={setFrom}
              style={{ flex: '1 1 12rem' }}
            />
            <Select label="To" data={options} value={to} onChange={setTo} style={{ flex: '1 1 12rem' }} />
          </Group>
          {a === null || b === null || a === b ? (
            <Text size="sm" c="dimmed">
              Choose two different editions.
            </Text>
          ) : compare.isPending ? (
            <SectionLoader label="Comparing..." />
          ) : !compare.data ? (
            <SectionError
              message={describeError(compare.error, 'Failed to compare the editions')}
              onRetry={() => void compare.refetch()}
              retrying={compare.isRefetching}
            />
          ) : (
            <CompareTable compare={compare.data} names={names} />
          )}
        </Stack>
      )}
    </Paper>
  );
}

function CompareTable({ compare, names }: { compare: EditionCompare; names: Map<string, string> }) {
  if (compare.moves.length === 0)
    return (
      <Text size="sm">
        Nothing moved from {compare.from.name} to {compare.to.name}.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped verticalSpacing="xs">
        <Table.Caption>
          What moved from {compare.from.name} to {compare.to.name}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Repository</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th>Direction</Table.Th>
            <Table.Th>Rationale</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {compare.moves.map((move) => (
            <Table.Tr key={move.full_name}>
              <Table.Td>
                <RepositoryName id={move.repository_id} name={move.full_name} />
              </Table.Td>
              <Table.Td>{placement(move.from, names)}</Table.Td>
              <Table.Td>{placement(move.to, names)}</Table.Td>
              <Table.Td>
                {move.direction
                  ? DIRECTIONS[move.direction]
                  : move.from === null
                    ? 'arrived'
                    : move.to === null
                      ? 'left'
                      : 'quadrant'}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxWidth: '24rem' }}>
                {move.rationale}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
