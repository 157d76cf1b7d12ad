import { Alert, Button, Group, Select, SimpleGrid, Stack, Switch, Table, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { z } from 'zod';
import {
  COMPARED_FIELDS,
  type ComparedField,
  type CompareResponse,
  type Repository,
  type Version,
} from '#shared/schemas/repositories.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useCompareVersions } from '../../api/compare-versions.ts';
import tones from '../tones.module.css';
import classes from './detail.module.css';

export const NEED_TWO_VERSIONS =
  'You need at least two versions to compare. Add more versions in the Version Tracker section.';
export const SELECT_TWO = 'Please select two versions to compare.';
export const SELECT_DIFFERENT = 'Please select two different versions to compare.';

const LABELS: Record<ComparedField, string> = {
  description: 'Description',
  stars: 'Stars',
  forks: 'Forks',
  commits: 'Commits',
  issues: 'Issues',
  contributors: 'Contributors',
  license: 'License',
  topics: 'Topics',
};

const WORD_FIELDS = new Set<ComparedField>(['license', 'topics']);

/** The two selection checks, reported as one line under the button (the `selection` error). */
const selectionSchema = z
  .object({ first: z.string().nullable(), second: z.string().nullable() })
  .refine((pair) => pair.first !== null && pair.second !== null, { message: SELECT_TWO, path: ['selection'] })
  .refine((pair) => pair.first !== pair.second, { message: SELECT_DIFFERENT, path: ['selection'] });

/** Compare Versions: two selectors, Compare, and '+'/'-' lines per field. */
export function CompareSection({ repository, versions }: { repository: Repository; versions: Version[] }) {
  const form = useForm<{ first: string | null; second: string | null }>({
    initialValues: { first: null, second: null },
    validate: zodResolver(selectionSchema),
  });
  const compare = useCompareVersions(repository.id);
  const options = [...versions].reverse().map((version) => ({
    value: String(version.id),
    label: version.release_date
      ? `${version.version_number} (${version.release_date})`
      : version.version_number,
  }));
  const enough = versions.length >= 2;

  // Without two versions the notice above already says why, and the selectors are off.
  const onCompare = form.onSubmit(({ first, second }) =>
    compare.mutate({ first: Number(first), second: Number(second) }),
  );
  const problem = form.errors.selection;

  return (
    <Stack gap="md">
      {!enough && (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} aria-hidden />}>
          {NEED_TWO_VERSIONS}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label="First version"
          placeholder="Choose a version"
          data={options}
          disabled={!enough}
          allowDeselect={false}
          {...form.getInputProps('first')}
        />
        <Select
          label="Second version"
          placeholder="Choose a version"
          data={options}
          disabled={!enough}
          allowDeselect={false}
          {...form.getInputProps('second')}
        />
      </SimpleGrid>
      <Group>
        <Button
          onClick={() => {
            compare.reset();
            if (enough) onCompare();
          }}
          disabled={compare.isPending}
        >
          {compare.isPending ? 'Comparing...' : 'Compare'}
        </Button>
      </Group>
      {problem && enough && (
        <Text role="alert" className={tones.errorText} size="sm">
          {problem}
        </Text>
      )}
      {compare.isError && (
        <InlineMessage kind="error">
          {`Failed to compare versions: ${describeError(compare.error, 'Request failed')}`}
        </InlineMessage>
      )}
      {compare.data && <ComparisonTable differences={compare.data} />}
    </Stack>
  );
}

/**
 * The changed fields first; unchanged ones behind 'Show unchanged fields' (docs/product.md#repository-detail),
 * so a comparison reads as what moved.
 */
function ComparisonTable({ differences }: { differences: CompareResponse['differences'] }) {
  const [showUnchanged, setShowUnchanged] = useState(false);
  const changed = COMPARED_FIELDS.filter((field) => differences[field]?.changed);
  const unchanged = COMPARED_FIELDS.filter((field) => !differences[field]?.changed);
  const fields = showUnchanged ? [...changed, ...unchanged] : changed;
  return (
    <Stack gap="xs">
      {changed.length === 0 && (
        <Text size="sm" c="dimmed">
          Nothing changed between these two versions.
        </Text>
      )}
      {unchanged.length > 0 && (
        <Switch
          size="sm"
          label={`Show unchanged fields (${unchanged.length})`}
          checked={showUnchanged}
          onChange={(event) => setShowUnchanged(event.currentTarget.checked)}
        />
      )}
      {fields.length > 0 && <FieldTable fields={fields} differences={differences} />}
    </Stack>
  );
}

function FieldTable({
  fields,
  differences,
}: {
  fields: readonly (typeof COMPARED_FIELDS)[number][];
  differences: CompareResponse['differences'];
}) {
  return (
    <Table.ScrollContainer minWidth={320} type="native">
      <Table verticalSpacing="xs" aria-label="Differences between the two versions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w="30%">
              Field
            </Table.Th>
            <Table.Th scope="col">Change</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field) => {
            const difference = differences[field];
            return (
              <Table.Tr key={field}>
                <Table.Th scope="row" fw={600}>
                  {LABELS[field]}
                </Table.Th>
                <Table.Td>
                  {!difference?.changed ? (
                    <Text size="sm" c="dimmed">
                      No changes
                    </Text>
                  ) : (
                    <DiffLines
                      field={field}
                      lines={difference.diff}
                      old={difference.old}
                      next={difference.new}
                    />
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function DiffLines({
  field,
  lines,
  old,
  next,
}: {
  field: ComparedField;
  lines: string[];
  old: string | number | null;
  next: string | number | null;
}) {
  const words = WORD_FIELDS.has(field);
  const delta = typeof old === 'number' && typeof next === 'number' ? next - old : null;
  return (
    <Stack gap={4}>
      {lines.map((line) => {
        const added = line.startsWith('+');
        const value = line.slice(1);
        const text = words ? `${added ? 'Added' : 'Removed'}: ${value || '(none)'}` : line;
        return (
          <p key={line} className={`${classes.diffLine} ${added ? classes.added : classes.removed}`}>
            {text}
          </p>
        );
      })}
      {delta !== null && delta !== 0 && (
        <Text
          size="xs"
          fw={700}
          span
          className={`${classes.delta} ${delta > 0 ? classes.added : classes.removed}`}
        >
          {`${delta > 0 ? '+' : ''}${delta.toLocaleString('en-US')}`}
        </Text>
      )}
    </Stack>
  );
}
