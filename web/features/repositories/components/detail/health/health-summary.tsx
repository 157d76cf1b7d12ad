import { Anchor, Group, Text } from '@mantine/core';
import type { Repository } from '#shared/schemas/repositories.ts';
import { HealthBadge } from '#web/components/health-badge.tsx';
import { SeverityBadge } from '#web/components/severity-badge.tsx';
import { useHealth } from '../../../api/get-health.ts';
import { costliestSignals, openAdvisoryTotal, pointsLost, worstSeverity } from '../../../lib/health.ts';

/**
 * The health line under the header's numbers (docs/health.md): the grade, the score, the two
 * signals that cost the most points, the open advisories, and the way to the tab that explains
 * them. The grade and score come with the repository; the signals when the health call answers
 * (a failed call leaves them out: the tab says why).
 */
export function HealthSummary({ repository, onOpen }: { repository: Repository; onOpen: () => void }) {
  const health = useHealth(repository.id);
  const { grade, score } = health.data ?? repository.health;
  const costly = costliestSignals(health.data?.signals ?? []);
  const open = openAdvisoryTotal(repository.open_advisories);
  const worst = worstSeverity(repository.open_advisories);
  return (
    <Group gap="sm" wrap="wrap" role="group" aria-label="Health summary" data-section="health-summary">
      <Text size="sm" fw={700}>
        Health
      </Text>
      <HealthBadge grade={grade} size="lg" />
      <Text size="sm" fw={600}>
        {score === null ? 'No score yet' : `${score} / 100`}
      </Text>
      {costly.length > 0 && (
        <Text size="sm" c="dimmed">
          {`Costs most: ${costly.map((signal) => `${signal.label} (−${pointsLost(signal)})`).join(', ')}`}
        </Text>
      )}
      {worst && (
        <SeverityBadge severity={worst} size="lg">
          {`${open} open ${open === 1 ? 'advisory' : 'advisories'}`}
        </SeverityBadge>
      )}
      <Anchor component="button" type="button" size="sm" onClick={onOpen}>
        Health & security details
      </Anchor>
    </Group>
  );
}
