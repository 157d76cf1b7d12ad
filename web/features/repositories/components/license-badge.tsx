import { Badge, type BadgeProps } from '@mantine/core';
import { displayLicense, licenseGroup } from '#shared/format.ts';
import classes from './license-badge.module.css';

/** Licence badges in five groups (mit, apache, bsd, gpl, other); none reads 'No License'. */
export function LicenseBadge({ license, ...props }: { license: string } & Omit<BadgeProps, 'children'>) {
  const missing = license.trim() === '';
  return (
    <Badge
      variant={missing ? 'outline' : 'light'}
      tt="none"
      className={classes.badge}
      data-license-group={missing ? 'none' : licenseGroup(license)}
      {...props}
    >
      {displayLicense(license)}
    </Badge>
  );
}
