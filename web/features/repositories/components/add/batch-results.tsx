import { Anchor, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatTime } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { BatchCounts, BatchItem } from '../../lib/batch-items.ts';
import tones from '../tones.module.css';

/** Longer lists are cut here; the progress list above still has every item. */
const LISTED_MAX = 200;

/**
 * The results of a finished run: the counts, the failures, what is queued and links to what was
 * added (skipped and queued only appear when there are some).
 */
export function BatchResults({ items, counts }: { items: BatchItem[]; counts: BatchCounts }) {
  const added = items.filter((item) => item.status === 'success' && item.repository);
  const failures = items.filter((item) => item.status === 'error');
  const queued = items.filter((item) => item.status === 'queued');
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} size="h3">
          Results
        </Title>
        <SimpleGrid
          cols={{ base: 2, sm: 2 + (counts.skipped > 0 ? 1 : 0) + (counts.queued > 0 ? 1 : 0) }}
          spacing="sm"
        >
          <div>
            <Text size="xl" fw={700} className={tones.successText}>
              {counts.succeeded}
            </Text>
            <Text size="sm">Successful</Text>
          </div>
          <div>
            <Text size="xl" fw={700} className={counts.failed > 0 ? tones.errorText : undefined}>
              {counts.failed}
            </Text>
            <Text size="sm">Failed</Text>
          </div>
          {counts.skipped > 0 && (
            <div>
              <Text size="xl" fw={700}>
                {counts.skipped}
              </Text>
              <Text size="sm">Already in the catalogue</Text>
            </div>
          )}
          {counts.queued > 0 && (
            <div>
              <Text size="xl" fw={700}>
                {counts.queued}
              </Text>
              <Text size="sm">Queued{counts.lastEta ? ` (done by ${formatTime(counts.lastEta)})` : ''}</Text>
            </div>
          )}
        </SimpleGrid>
        {failures.length > 0 && (
          <ResultList title="Failures" count={failures.length}>
            {failures.slice(0, LISTED_MAX).map((item) => (
              <List.Item key={item.position}>
                <Text span size="sm" ff="monospace">
                  {item.line}
                </Text>
                {`: ${item.error ?? 'Request failed'}`}
              </List.Item>
            ))}
          </ResultList>
        )}
        {queued.length > 0 && (
          <ResultList title="Queued" count={queued.length}>
            {queued.slice(0, LISTED_MAX).map((item) => (
              <List.Item key={item.position}>
                <Text span size="sm" ff="monospace">
                  {item.line}
                </Text>
                {item.eta ? `: added by ${formatTime(item.eta)}` : ''}
              </List.Item>
            ))}
          </ResultList>
        )}
        {added.length > 0 && (
          <ResultList title="Added repositories" count={added.length}>
            {added.slice(0, LISTED_MAX).map((item) =>
              item.repository ? (
                <List.Item key={item.position}>
                  <Anchor component={Link} to={`/repo/${encodeRouteId(item.repository.id)}`}>
                    {item.repository.id}
                  </Anchor>
                </List.Item>
              ) : null,
            )}
          </ResultList>
        )}
      </Stack>
    </Paper>
  );
}

function ResultList({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        {title}
      </Title>
      <List size="sm" spacing={4}>
        {children}
      </List>
      {count > LISTED_MAX && (
        <Text size="sm" c="dimmed">
          …and {count - LISTED_MAX} more (see the progress list above).
        </Text>
      )}
    </Stack>
  );
}
