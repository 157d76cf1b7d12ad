import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBrandGithub, IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatContributors, formatCount, formatStars } from '#shared/format.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { DecisionBadge } from '#web/components/decision-badge.tsx';
import { RepositoryFlags } from '../repository-flags.tsx';
import classes from './detail.module.css';

function Metric({ label, value, exact }: { label: string; value: string; exact?: string }) {
  return (
    <div className={classes.metric} title={exact}>
      <Text fw={700} size="xl" lh={1.2}>
        {value}
      </Text>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
    </div>
  );
}

/** The header: name, stars, forks, commits, issues, contributors, the health summary, then the page's actions. */
export function RepositoryHeader({
  repository,
  summary,
  actions,
}: {
  repository: Repository;
  /** Under the numbers: the health summary. */
  summary?: ReactNode;
  actions?: ReactNode;
}) {
  const [owner] = repository.id.split('/');
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} miw={0}>
            <Text size="sm" c="dimmed">
              Repository Details · {owner}
            </Text>
            <Title order={1} style={{ overflowWrap: 'anywhere' }}>
              {repository.name}
            </Title>
            <Group gap="xs">
              {repository.language && (
                <Badge variant="default" tt="none">
                  {repository.language}
                </Badge>
              )}
              <RepositoryFlags repository={repository} />
              {repository.decision && (
                <DecisionBadge status={repository.decision.status} hiddenPrefix="Team decision: " />
              )}
            </Group>
          </Stack>
          <Anchor href={repository.url} target="_blank" rel="noopener noreferrer" size="sm">
            <Group gap={4} wrap="nowrap">
              <IconBrandGithub size={16} aria-hidden />
              View on GitHub
              <IconExternalLink size={14} aria-hidden />
            </Group>
          </Anchor>
        </Group>
        <SimpleGrid cols={{ base: 2, xs: 3, md: 5 }} spacing="sm">
          <Metric
            label="Stars"
            value={formatStars(repository.stars)}
            exact={`${formatCount(repository.stars)} stars`}
          />
          <Metric
            label="Forks"
            value={formatStars(repository.forks)}
            exact={`${formatCount(repository.forks)} forks`}
          />
          <Metric label="Commits" value={formatCount(repository.commits)} />
          <Metric
            label="Issues"
            value={formatCount(repository.issues)}
            exact="Open issues and pull requests"
          />
          <Metric label="Contributors" value={formatContributors(repository.contributors)} />
        </SimpleGrid>
        {summary}
        {actions}
      </Stack>
    </Paper>
  );
}
