import { Anchor, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCount } from '#shared/format.ts';
import { ADVISORY_SEVERITIES, type AdvisorySeverity } from '#shared/schemas/advisories.ts';
import type { CatalogueStats } from '#shared/schemas/catalogue.ts';
import type { HealthGrade } from '#shared/schemas/health.ts';
import { GRADE_LABELS, HealthBadge } from '#web/components/health-badge.tsx';
import { SeverityBadge } from '#web/components/severity-badge.tsx';
import classes from './stats.module.css';

const GRADE_BAR: Record<HealthGrade, string> = {
  healthy: 'green.7',
  watch: 'yellow.6',
  at_risk: 'red.7',
  archived: 'gray.6',
  unknown: 'gray.4',
};

const SEVERITY_BAR: Record<AdvisorySeverity, string> = {
  critical: 'red.9',
  high: 'red.6',
  medium: 'yellow.6',
  low: 'blue.6',
  unknown: 'gray.5',
};

/** One line of a distribution: its badge, its count, and a bar relative to the largest. */
export function Line({
  badge,
  count,
  most,
  color,
}: {
  badge: ReactNode;
  count: number;
  most: number;
  color: string;
}) {
  return (
    <li>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        {badge}
        <Text size="sm" fw={600}>
          {formatCount(count)}
        </Text>
      </Group>
      <Progress value={most > 0 ? (count / most) * 100 : 0} color={color} size="sm" mt={4} aria-hidden />
    </li>
  );
}

/**
 * Health and security over the filtered repositories (docs/product.md#statistics-page): how many
 * have each health grade, each a link to the list filtered by it, and the open security
 * advisories by severity.
 */
export function HealthOverview({
  grades,
  advisories,
  listParams,
}: {
  grades: CatalogueStats['health_grades'];
  advisories: CatalogueStats['open_advisories'];
  /** The list's parameters for the same filters, to which a grade's link adds `health=`. */
  listParams: string;
}) {
  const mostGrade = Math.max(0, ...grades.map((entry) => entry.count));
  const mostAdvisories = Math.max(0, ...ADVISORY_SEVERITIES.map((severity) => advisories[severity]));
  const totalAdvisories = ADVISORY_SEVERITIES.reduce((sum, severity) => sum + advisories[severity], 0);
  const gradeLink = (grade: HealthGrade) => {
    const params = new URLSearchParams(listParams);
    params.set('health', grade);
    return `/home?${params.toString()}`;
  };
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" component="section" aria-label="Health and security">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="sm">
          <Title order={2} size="h3" id="stats-health">
            Health grades
          </Title>
          <Stack component="ul" gap={8} className={classes.topicList} aria-labelledby="stats-health">
            {grades.map(({ grade, count }) => (
              <Line
                key={grade}
                badge={
                  count > 0 ? (
                    <Anchor
                      component={Link}
                      to={gradeLink(grade)}
                      aria-label={`Show the ${GRADE_LABELS[grade].toLowerCase()} repositories`}
                    >
                      <HealthBadge grade={grade} size="md" style={{ cursor: 'pointer' }} />
                    </Anchor>
                  ) : (
                    <HealthBadge grade={grade} size="md" />
                  )
                }
                count={count}
                most={mostGrade}
                color={GRADE_BAR[grade]}
              />
            ))}
          </Stack>
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="sm">
          <Title order={2} size="h3" id="stats-advisories">
            Open security advisories
          </Title>
          {totalAdvisories === 0 ? (
            <Text size="sm" c="dimmed">
              No open advisory in these repositories (as last read from GitHub).
            </Text>
          ) : (
            <Stack component="ul" gap={8} className={classes.topicList} aria-labelledby="stats-advisories">
              {ADVISORY_SEVERITIES.map((severity) => (
                <Line
                  key={severity}
                  badge={<SeverityBadge severity={severity} size="md" />}
                  count={advisories[severity]}
                  most={mostAdvisories}
                  color={SEVERITY_BAR[severity]}
                />
              ))}
            </Stack>
          )}
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
