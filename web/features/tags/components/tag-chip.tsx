import type { CSSProperties } from 'react';
import { tagColors } from '../../../../shared/tag-colors.ts';
import classes from './tag-chip.module.css';

/** The CSS variables that give a tag its colour pair in light and dark mode (SPEC §2, §9). */
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
