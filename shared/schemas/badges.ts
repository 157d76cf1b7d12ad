/**
 * Status badges for READMEs (docs/product.md#badges): `GET /badge/{owner}/{name}/{kind}.svg`,
 * drawn by shields.io's own `badge-maker`. The path and query as the server validates them, and
 * the kinds, styles and limits the detail page's Badges card offers.
 */
import { z } from 'zod';
import { toFullName } from '../repository-input.ts';

/** What a badge can show; `status` is the ring in the newest published radar edition (404 when in none). */
export const BADGE_KINDS = ['stars', 'growth', 'health', 'release', 'advisories', 'status'] as const;
export type BadgeKind = (typeof BADGE_KINDS)[number];

/** The kinds the Badges card offers: every kind a public repository answers today. */
export const OFFERED_BADGE_KINDS = ['stars', 'growth', 'health', 'release', 'advisories'] as const;

export const BADGE_STYLES = ['flat', 'flat-square', 'for-the-badge'] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];

/** The longest `?label=` a badge takes (characters). */
export const BADGE_LABEL_MAX = 40;

/** How long a browser or proxy may keep a badge (seconds): `Cache-Control: public, max-age=3600`. */
export const BADGE_MAX_AGE_SECONDS = 3600;

/** One segment of a GitHub name: letters, digits, `_`, `.`, `-` (the add page's own rule). */
const nameSegment = z
  .string()
  .min(1)
  .max(100)
  .refine(
    (value) => toFullName({ id: `${value}/x` }) !== null && toFullName({ id: `x/${value}` }) !== null,
    'Not a GitHub owner or repository name',
  );

export const badgeParamsSchema = z.object({
  owner: nameSegment,
  name: nameSegment,
  kind: z.enum(BADGE_KINDS, {
    error: `The badge must be one of ${BADGE_KINDS.map((kind) => `${kind}.svg`).join(', ')}`,
  }),
});
export type BadgeParams = z.infer<typeof badgeParamsSchema>;

export const badgeQuerySchema = z.object({
  style: z
    .enum(BADGE_STYLES, { error: `The style must be one of ${BADGE_STYLES.join(', ')}` })
    .default('flat'),
  label: z
    .string()
    .trim()
    .min(1, 'The label must not be empty')
    .max(BADGE_LABEL_MAX, `The label must be at most ${BADGE_LABEL_MAX} characters`)
    .optional(),
});
export type BadgeQuery = z.infer<typeof badgeQuerySchema>;

/** A badge's address below the server's origin, as the Badges card writes it. */
export function badgePath(fullName: string, kind: BadgeKind): string {
  const [owner = '', name = ''] = fullName.split('/');
  return `/badge/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/${kind}.svg`;
}
