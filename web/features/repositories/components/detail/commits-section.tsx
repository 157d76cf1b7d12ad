import { Anchor, Center, Code, Group, Loader, Stack, Text } from '@mantine/core';
import { describeRelativeAge, formatDateTime } from '#shared/format.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { SectionError } from '#web/components/load-states.tsx';
import { describeCommitsError, useCommits } from '../../api/get-commits.ts';
import classes from './detail.module.css';

/** Recent Commits: mounted (and so loaded) on first expand, with their own error texts. */
export function CommitsSection({ repository }: { repository: Repository }) {
  const commits = useCommits(repository.id);
  const now = new Date();

  if (commits.isPending) {
    return (
      <Center py="md" role="status">
        <Group gap="xs">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Loading commits...</Text>
        </Group>
      </Center>
    );
  }
  if (commits.isError) {
    return (
      <SectionError message={describeCommitsError(commits.error)} onRetry={() => void commits.refetch()} />
    );
  }
  if (commits.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No commits found.
      </Text>
    );
  }
  return (
    <Stack
      gap={0}
      component="ol"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
      aria-label="Recent commits"
    >
      {commits.data.map((commit) => {
        const [title, ...rest] = commit.message.split('\n');
        return (
          <li key={commit.sha} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
            <Stack gap={2} py="xs">
              <Text
                size="sm"
                fw={600}
                className={classes.commitMessage}
                title={rest.length > 0 ? commit.message : undefined}
              >
                {title}
              </Text>
              <Group gap="xs" wrap="wrap">
                <Anchor
                  href={`${repository.url}/commit/${commit.sha}`}
                  target="_blank"
                  rel="noopener noreferrer"
                  size="xs"
                  aria-label={`Commit ${commit.sha.slice(0, 7)} on GitHub`}
                >
                  <Code>{commit.sha.slice(0, 7)}</Code>
                </Anchor>
                <Text size="xs" c="dimmed">
                  {commit.author || 'Unknown author'} ·{' '}
                  <time dateTime={commit.date} title={formatDateTime(commit.date)}>
                    {describeRelativeAge(commit.date, now)}
                  </time>
                </Text>
              </Group>
            </Stack>
          </li>
        );
      })}
    </Stack>
  );
}
