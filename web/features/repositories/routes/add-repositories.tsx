import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconChartBar, IconHome, IconTags } from '@tabler/icons-react';
import { Link } from 'react-router';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { PageContainer } from '#web/components/page-container.tsx';
import { AddRepositoriesForm } from '../components/add/add-form.tsx';
import { BatchProgress } from '../components/add/batch-progress.tsx';
import { BatchResults } from '../components/add/batch-results.tsx';
import { useBatchRun } from '../lib/use-batch-run.ts';

/**
 * Add repositories at #/add (docs/product.md#add-repositories): one line per repository, added in one
 * streamed batch.
 */
export default function AddRepositoriesRoute() {
  const batch = useBatchRun();
  const { items, counts, running, finished, message } = batch;

  return (
    <PageContainer width="narrow">
      <Stack gap="md">
        <Title order={1}>Add Repositories</Title>
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <AddRepositoriesForm batch={batch} />
        </Paper>

        <div aria-live="polite">
          {message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
        </div>

        {items.length > 0 && (
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="md">
              <Title order={2} size="h3">
                Progress
              </Title>
              <BatchProgress items={items} counts={counts} running={running} />
            </Stack>
          </Paper>
        )}

        {finished && items.length > 0 && <BatchResults items={items} counts={counts} />}

        <Group gap="sm" component="nav" aria-label="Quick links">
          <Button component={Link} to="/" variant="subtle" leftSection={<IconHome size={16} aria-hidden />}>
            All repositories
          </Button>
          <Button
            component={Link}
            to="/tags"
            variant="subtle"
            leftSection={<IconTags size={16} aria-hidden />}
          >
            Tags
          </Button>
          <Button
            component={Link}
            to="/stats"
            variant="subtle"
            leftSection={<IconChartBar size={16} aria-hidden />}
          >
            Statistics
          </Button>
        </Group>
      </Stack>
    </PageContainer>
  );
}
