import { Card, Checkbox, Group, Text, VisuallyHidden } from '@mantine/core';
import { IconGitFork, IconHeartbeat, IconStar, IconTrendingUp } from '@tabler/icons-react';
import { memo } from 'react';
import { formatCount, formatStars, splitList } from '#shared/format.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { formatGrowth, growthLabel, growthTitle } from '#web/catalogue/growth.ts';
import { DecisionBadge } from '#web/components/decision-badge.tsx';
import { GRADE_LABELS, HealthBadge } from '#web/components/health-badge.tsx';
import { TagChip } from '#web/components/tag-chip.tsx';
import { LicenseBadge } from './license-badge.tsx';
import { RepositoryFlags } from './repository-flags.tsx';
import classes from './repository-list.module.css';
import { RepositoryName } from './repository-name.tsx';
import { RelativeAge } from './repository-table.tsx';

const MAX_TAGS = 4;

/** 'Health: at risk, 42 / 100' (the card shows the grade alone). */
function healthTitle(health: RepositorySummary['health']): string {
  const grade = GRADE_LABELS[health.grade].toLowerCase();
  return `Health: ${grade}${health.score === null ? '' : `, ${health.score} / 100`}`;
}

/** One repository in the card view. */
export const RepositoryCard = memo(function RepositoryCard({
  repository,
  now,
  active = false,
  checked = false,
  onSelect,
}: {
  repository: RepositorySummary;
  now: Date;
  /** Selected with j / k. */
  active?: boolean;
  /** In the selection for bulk actions. */
  checked?: boolean;
  onSelect?: (ids: string[], selected: boolean) => void;
}) {
  const tags = splitList(repository.tags);
  const growth = repository.growth;
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      className={classes.card}
      component="article"
      data-active={active || undefined}
      aria-current={active || undefined}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <RepositoryName repository={repository} weight={700} />
        </div>
        {onSelect && (
          <Checkbox
            aria-label={`Select ${repository.id}`}
            checked={checked}
            onChange={(event) => onSelect([repository.id], event.currentTarget.checked)}
          />
        )}
      </Group>
      <RepositoryFlags repository={repository} size="xs" />
      <Text size="sm" lineClamp={3} c={repository.description ? undefined : 'dimmed'}>
        {repository.description || 'No description available.'}
      </Text>
      {tags.length > 0 && (
        <Group gap={4}>
          {tags.slice(0, MAX_TAGS).map((tag) => (
            <TagChip key={tag} tag={tag} size="sm" />
          ))}
          {tags.length > MAX_TAGS && (
            <Text size="xs" c="dimmed">
              +{tags.length - MAX_TAGS} more
            </Text>
          )}
        </Group>
      )}
      <Group gap="md" justify="space-between" className={classes.cardFooter} wrap="wrap">
        {/* Wraps rather than squeezing: four cards a row cut the licence badge to 'No L…'. */}
        <Group gap="sm" wrap="wrap" style={{ rowGap: 6 }}>
          <Group gap={4} wrap="nowrap" title={`${formatCount(repository.stars)} stars`}>
            <IconStar size={16} aria-hidden />
            <Text size="sm" span>
              {formatStars(repository.stars)}
              <VisuallyHidden component="span"> stars</VisuallyHidden>
            </Text>
          </Group>
          <Group gap={4} wrap="nowrap" title={`${formatCount(repository.forks)} forks`}>
            <IconGitFork size={16} aria-hidden />
            <Text size="sm" span>
              {formatStars(repository.forks)}
              <VisuallyHidden component="span"> forks</VisuallyHidden>
            </Text>
          </Group>
          {(growth.stars_30d !== null || growth.stars_7d !== null) && (
            <Group gap={4} wrap="nowrap" title={growthTitle(growth)}>
              <IconTrendingUp size={16} aria-hidden />
              <Text size="sm" span>
                {growth.stars_30d !== null ? growthLabel(growth) : `${formatGrowth(growth.stars_7d)} / 7 d`}
                <VisuallyHidden component="span"> stars gained</VisuallyHidden>
              </Text>
            </Group>
          )}
          <LicenseBadge license={repository.license} size="sm" style={{ flexShrink: 0 }} />
          <HealthBadge
            grade={repository.health.grade}
            score={repository.health.score}
            hiddenPrefix="Health: "
            leftSection={<IconHeartbeat size={12} aria-hidden />}
            size="sm"
            style={{ flexShrink: 0 }}
            title={healthTitle(repository.health)}
          />
          {repository.decision && (
            <DecisionBadge
              status={repository.decision.status}
              hiddenPrefix="Status: "
              size="sm"
              style={{ flexShrink: 0 }}
            />
          )}
        </Group>
        <Text size="xs" c="dimmed" span>
          Last commit <RelativeAge value={repository.last_commit} now={now} />
        </Text>
      </Group>
    </Card>
  );
});
