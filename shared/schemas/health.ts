/**
 * A repository's health (docs/health.md): every signal with its raw value and when it was
 * measured, the points the formula gave it, the score and grade, and the team's override.
 */
import { z } from 'zod';

export const HEALTH_GRADES = ['healthy', 'watch', 'at_risk', 'archived', 'unknown'] as const;
export type HealthGrade = (typeof HEALTH_GRADES)[number];

export const HEALTH_SIGNAL_KEYS = [
  'archived',
  'days_since_last_commit',
  'commits_90d',
  'release_cadence_days',
  'days_since_last_release',
  'issue_response_days',
  'pull_requests_merged_90d',
  'top_contributor_share',
  'license',
  'security_policy',
  'open_advisories',
] as const;
export type HealthSignalKey = (typeof HEALTH_SIGNAL_KEYS)[number];

export const OVERRIDE_REASON_MAX_LENGTH = 500;

export const healthSignalSchema = z
  .object({
    key: z.enum(HEALTH_SIGNAL_KEYS),
    label: z.string(),
    /** The raw value: a number, a flag, an SPDX id, advisory counts by severity; null when unknown. */
    value: z.union([z.number(), z.boolean(), z.string(), z.record(z.string(), z.number()), z.null()]),
    unit: z.enum(['flag', 'days', 'commits', 'pull_requests', 'ratio', 'spdx', 'advisories']),
    /** Points the formula gave it; null when the value is unknown (left out of the score). */
    points: z.number().nullable(),
    max_points: z.number(),
    measured_at: z.string().nullable(),
    /** Why the points are what they are, in words (the threshold it met, or the override). */
    note: z.string(),
  })
  .meta({ id: 'HealthSignal' });
export type HealthSignal = z.infer<typeof healthSignalSchema>;

export const healthOverrideSchema = z
  .object({
    reason: z.string(),
    set_by: z.string().nullable(),
    set_at: z.string(),
  })
  .meta({ id: 'HealthOverride' });

export const repositoryHealthSchema = z
  .object({
    /** 0–100; null while too little is known (grade `unknown`). */
    score: z.number().int().min(0).max(100).nullable(),
    grade: z.enum(HEALTH_GRADES),
    formula_version: z.number().int(),
    /** When the score was computed; null when the repository has not been assessed yet. */
    computed_at: z.string().nullable(),
    override: healthOverrideSchema.nullable(),
    signals: z.array(healthSignalSchema),
  })
  .meta({ id: 'RepositoryHealth' });
export type RepositoryHealth = z.infer<typeof repositoryHealthSchema>;

export const healthResponseSchema = z.object({ health: repositoryHealthSchema });

export const healthOverrideBodySchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Say why no activity is expected (for example "Finished: the API is stable").')
    .max(OVERRIDE_REASON_MAX_LENGTH, `Keep the reason under ${OVERRIDE_REASON_MAX_LENGTH} characters.`),
});
export type HealthOverrideBody = z.infer<typeof healthOverrideBodySchema>;
