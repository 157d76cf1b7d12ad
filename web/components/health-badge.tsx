import { Badge, type BadgeProps, VisuallyHidden } from '@mantine/core';
import type { AdvisorySeverity } from '#shared/schemas/advisories.ts';
import type { HealthGrade } from '#shared/schemas/health.ts';
import classes from './health-badge.module.css';

/** A health grade as the screens name it (docs/health.md). */
export const GRADE_LABELS: Record<HealthGrade, string> = {
  healthy: 'Healthy',
  watch: 'Watch',
  at_risk: 'At risk',
  archived: 'Archived',
  unknown: 'Unknown',
};

/** An advisory severity as the screens name it; `unknown` is one GitHub has not rated. */
export const SEVERITY_LABELS: Record<AdvisorySeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  unknown: 'Unrated',
};

export type ToneBadgeProps = Omit<BadgeProps, 'children' | 'color' | 'variant'> & { title?: string };

/** A repository's health grade, in its colour pair (AA in both schemes), with its score when given. */
export function HealthBadge({
  grade,
  score,
  hiddenPrefix,
  ...props
}: {
  grade: HealthGrade;
  score?: number | null;
  /** Read before the grade by screen readers where nothing around says it is the health ('Health: '). */
  hiddenPrefix?: string;
} & ToneBadgeProps) {
  return (
    <Badge variant="light" className={classes.badge} data-tone={grade} {...props}>
      {hiddenPrefix && <VisuallyHidden component="span">{hiddenPrefix}</VisuallyHidden>}
      {typeof score === 'number' ? `${GRADE_LABELS[grade]} · ${score}` : GRADE_LABELS[grade]}
    </Badge>
  );
}
