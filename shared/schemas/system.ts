import { z } from 'zod';

export const healthResponseSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: z.enum(['ok', 'unavailable']),
    uptime_s: z.number().int().nonnegative(),
  })
  .meta({ id: 'Health' });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** SPEC §3 "Version info". `git_commit` is null when the build does not know it. */
export const versionResponseSchema = z
  .object({
    app_name: z.string(),
    api_version: z.string(),
    git_commit: z.string().nullable(),
  })
  .meta({ id: 'VersionInfo' });
export type VersionResponse = z.infer<typeof versionResponseSchema>;
