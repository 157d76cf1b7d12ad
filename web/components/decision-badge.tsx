import { Badge, VisuallyHidden } from '@mantine/core';
import type { DecisionStatus } from '#shared/schemas/decisions.ts';
import classes from './decision-badge.module.css';
import type { ToneBadgeProps } from './health-badge.tsx';

/** A decision status as the screens name it (docs/product.md#team-decisions). */
export const STATUS_LABELS: Record<DecisionStatus, string> = {
  adopt: 'Adopt',
  trial: 'Trial',
  assess: 'Assess',
  hold: 'Hold',
  retired: 'Retired',
};

/** A repository's team decision, in its colour pair; "No status" when none was recorded. */
export function DecisionBadge({
  status,
  hiddenPrefix,
  ...props
}: {
  status: DecisionStatus | null;
  /** Read before the status where nothing around says it is the decision ('Status: '). */
  hiddenPrefix?: string;
} & ToneBadgeProps) {
  return (
    <Badge variant="light" className={classes.badge} data-tone={status ?? 'none'} {...props}>
      {hiddenPrefix && <VisuallyHidden component="span">{hiddenPrefix}</VisuallyHidden>}
      {status ? STATUS_LABELS[status] : 'No status'}
    </Badge>
  );
}
