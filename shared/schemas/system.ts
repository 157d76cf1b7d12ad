import { z } from 'zod';

export const healthResponseSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: z.enum(['ok', 'unavailable']),
    /**
     * Shared rate-limit counters: `ok`, `degraded` (REDIS_URL set but unreachable: limits count
     * per instance) or `disabled` (no REDIS_URL). Never changes `status`: the app still works.
     */
    redis: z.enum(['ok', 'degraded', 'disabled']),
    uptime_s: z.number().int().nonnegative(),
  })
  .meta({ id: 'Health' });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/**
 * `GET /health/ready` (docs/operations.md#health-checks): 200 with `ready`, or 503 with
 * `not_ready` when the database is unreachable or misses a migration this version needs.
 */
export const readinessResponseSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    database: z.enum(['ok', 'unavailable']),
    migrations: z.enum(['ok', 'pending', 'unknown']),
  })
  .meta({ id: 'Readiness' });
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;

/**
 * `GET /version` (docs/product.md#system-api). `git_commit` is null when the build does not know
 * it; `badges` is PUBLIC_BADGES (the detail page's Badges card shows only when it is on).
 */
export const versionResponseSchema = z
  .object({
    app_name: z.string(),
    api_version: z.string(),
    git_commit: z.string().nullable(),
    badges: z.boolean(),
    public_pages: z.boolean().describe('PUBLIC_PAGES: whether views and radar editions can be published'),
  })
  .meta({ id: 'VersionInfo' });
export type VersionResponse = z.infer<typeof versionResponseSchema>;
