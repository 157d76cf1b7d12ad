const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/**
 * A byte count as SPEC §9 shows backup sizes: B, KB, MB or GB in steps of 1024, with at most
 * two decimals and no trailing zeros ("512 B", "1.5 KB", "2 MB"). Sizes beyond GB stay in GB;
 * negative or non-finite input counts as 0.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  const rounded = Math.round(value * 100) / 100;
  // 1023.999 KB rounds to 1024 KB: show it as the next unit instead.
  if (rounded >= 1024 && unit < UNITS.length - 1) return `1 ${UNITS[unit + 1]}`;
  return `${rounded} ${UNITS[unit]}`;
}
