import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { describeRelativeAge, formatDateTime, splitList } from '#shared/format.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { LicenseBadge } from '../license-badge.tsx';
import { DefinitionList } from './definition-list.tsx';

/** The information card: description, link, licence (warned when missing), topics, last commit. */
export function InformationCard({ repository, now }: { repository: Repository; now: Date }) {
  const topics = splitList(repository.topics);
  const noLicense = repository.license.trim() === '';
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} h="100%">
      <Stack gap="md">
        <Title order={2} size="h3">
          Information
        </Title>
        <Text c={repository.description ? undefined : 'dimmed'}>
          {repository.description || 'No description available.'}
        </Text>
        <DefinitionList
          items={[
            {
              term: 'Repository',
              value: (
                <Anchor href={repository.url} target="_blank" rel="noopener noreferrer">
                  {repository.url.replace(/^https?:\/\//, '')}
                </Anchor>
              ),
            },
            {
              term: 'License',
              value: noLicense ? <Text span>No license</Text> : <LicenseBadge license={repository.license} />,
            },
            {
              term: 'Topics',
              value:
                topics.length === 0 ? (
                  <Text span c="dimmed" size="sm">
                    No topics
                  </Text>
                ) : (
                  <Group gap={6} component="span">
                    {topics.map((topic) => (
                      <Text
                        key={topic}
                        span
                        size="xs"
                        px={8}
                        py={2}
                        bg="var(--mantine-color-default-hover)"
                        style={{ borderRadius: 999 }}
                      >
                        {topic}
                      </Text>
                    ))}
                  </Group>
                ),
            },
            {
              term: 'Last commit',
              value: repository.last_commit
                ? `${formatDateTime(repository.last_commit)} (${describeRelativeAge(repository.last_commit, now)})`
                : 'Never',
            },
            { term: 'Default branch', value: repository.default_branch ?? 'N/A' },
          ]}
        />
        {noLicense && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />}>
            <Text fw={700} span>
              No license.
            </Text>{' '}
            This repository has no license, so default copyright applies: others may not use, change or share
            the code without the authors’ permission.
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
