import { Badge } from '@mantine/core';
import type { AdvisorySeverity } from '#shared/schemas/advisories.ts';
import { SEVERITY_LABELS, type ToneBadgeProps } from './health-badge.tsx';
import classes from './severity-badge.module.css';

/** An advisory's severity, in its colour pair (AA in both schemes); `children` replaces its name. */
export function SeverityBadge({
  severity,
  children,
  ...props
}: { severity: AdvisorySeverity; children?: string } & ToneBadgeProps) {
  return (
    <Badge variant="light" className={classes.badge} data-severity={severity} {...props}>
      {children ?? SEVERITY_LABELS[severity]}
    </Badge>
  );
}
