import { Badge, type BadgeProps } from '@mantine/core';
import type { CSSProperties } from 'react';
import { tagColors } from '#shared/tag-colors.ts';
import classes from './tag-chip.module.css';

/** The CSS variables that give a tag its colour pair in light and dark mode (docs/product.md#formatting). */
export function tagChipStyle(tag: string): CSSProperties {
  const { light, dark } = tagColors(tag);
  return {
    '--tag-light-bg': light.background,
    '--tag-light-fg': light.color,
    '--tag-dark-bg': dark.background,
    '--tag-dark-fg': dark.color,
  } as CSSProperties;
}

export const tagChipClass = classes.chip;

export interface TagChipProps extends Omit<BadgeProps, 'children' | 'color' | 'variant'> {
  tag: string;
}

/** A tag, coloured by one of the 12 pairs picked by a hash of its lower-cased name. */
export function TagChip({ tag, className, style, ...props }: TagChipProps) {
  return (
    <Badge
      {...props}
      variant="filled"
      className={className ? `${classes.chip} ${className}` : classes.chip}
      style={{ ...tagChipStyle(tag), ...(style as CSSProperties) }}
    >
      {tag}
    </Badge>
  );
}
