import { z } from 'zod';
import {
  ADMIN_USERS_DEFAULT_PAGE,
  ADMIN_USERS_DEFAULT_PER_PAGE,
  ADMIN_USERS_MAX_PER_PAGE,
} from '../constants.ts';
import { userSchema } from './auth.ts';

// ---------------------------------------------------------------------------------------------
// Users (docs/product.md#admin-api)
// ---------------------------------------------------------------------------------------------

/**
 * A user as the admin table shows it: the user plus the number of repositories they added, how
 * they sign in (`password`, `sso`: a linked single sign-on identity), and whether their admin
 * flag follows the provider's groups (OIDC_ADMIN_GROUPS; read-only on screen then).
 */
export const adminUserSchema = userSchema
  .extend({
    repository_count: z.number().int().nonnegative(),
    // Always answered; optional so clients built before single sign-on keep parsing.
    sign_in_methods: z.array(z.enum(['password', 'sso'])).optional(),
    admin_follows_groups: z.boolean().optional(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof adminUserSchema>;

const booleanQuery = z
  .enum(['true', 'false', '1', '0'], { error: 'is_active must be true or false' })
  .transform((value) => value === 'true' || value === '1');

export const adminUsersQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a whole number of at least 1' })
    .int('page must be a whole number of at least 1')
    .min(1, 'page must be a whole number of at least 1')
    .max(1_000_000, 'page is too large')
    .default(ADMIN_USERS_DEFAULT_PAGE),
  per_page: z.coerce
    .number({ error: `per_page must be a whole number from 1 to ${ADMIN_USERS_MAX_PER_PAGE}` })
    .int(`per_page must be a whole number from 1 to ${ADMIN_USERS_MAX_PER_PAGE}`)
    .min(1, `per_page must be a whole number from 1 to ${ADMIN_USERS_MAX_PER_PAGE}`)
    .max(ADMIN_USERS_MAX_PER_PAGE, `per_page must be a whole number from 1 to ${ADMIN_USERS_MAX_PER_PAGE}`)
    .default(ADMIN_USERS_DEFAULT_PER_PAGE),
  /** Case-insensitive substring of the username, e-mail, first or last name. */
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  is_active: booleanQuery.optional(),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

export const adminUsersResponseSchema = z
  .object({
    users: z.array(adminUserSchema),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    per_page: z.number().int().positive(),
  })
  .meta({ id: 'AdminUserList' });
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const adminUserResponseSchema = z.object({ user: adminUserSchema }).meta({ id: 'AdminUserResponse' });
export type AdminUserResponse = z.infer<typeof adminUserResponseSchema>;

export const adminUserIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'User id must be a positive whole number' })
    .int('User id must be a positive whole number')
    .positive('User id must be a positive whole number')
    .max(2_147_483_647, 'User id must be a positive whole number'),
});

/** The three flags an admin may toggle (docs/product.md#admin-dashboard). */
export const adminUserFlags = ['is_active', 'is_verified', 'is_admin'] as const;
export type AdminUserFlag = (typeof adminUserFlags)[number];

export const ONE_FLAG_MESSAGE = 'Send exactly one of is_active, is_verified or is_admin, as true or false';

/**
 * PATCH carries exactly one flag per call (docs/product.md#admin-api); anything else is refused, not ignored.
 */
export const adminUserPatchBodySchema = z
  .strictObject(
    {
      is_active: z.boolean({ error: 'is_active must be true or false' }).optional(),
      is_verified: z.boolean({ error: 'is_verified must be true or false' }).optional(),
      is_admin: z.boolean({ error: 'is_admin must be true or false' }).optional(),
    },
    { error: ONE_FLAG_MESSAGE },
  )
  .refine((body) => adminUserFlags.filter((flag) => body[flag] !== undefined).length === 1, {
    message: ONE_FLAG_MESSAGE,
  });
export type AdminUserPatchBody = z.input<typeof adminUserPatchBodySchema>;

// ---------------------------------------------------------------------------------------------
// Statistics (docs/product.md#admin-api)
// ---------------------------------------------------------------------------------------------

export const adminStatsSchema = z
  .object({
    users: z.object({
      total: z.number().int().nonnegative(),
      active: z.number().int().nonnegative(),
      verified: z.number().int().nonnegative(),
      admin: z.number().int().nonnegative(),
      /** Accounts created in the last 30 days. */
      recent: z.number().int().nonnegative(),
    }),
    repositories: z.object({
      total: z.number().int().nonnegative(),
      users_with_repos: z.number().int().nonnegative(),
      /** Rounded to one decimal; 0 without repositories. */
      avg_stars: z.number().nonnegative(),
      total_stars: z.number().int().nonnegative(),
    }),
  })
  .meta({ id: 'AdminStats' });
export type AdminStats = z.infer<typeof adminStatsSchema>;

// ---------------------------------------------------------------------------------------------
// Backups (docs/product.md#backups-api)
// ---------------------------------------------------------------------------------------------

export const backupKinds = ['manual', 'auto'] as const;
export type BackupKind = (typeof backupKinds)[number];

/**
 * Every backup file name the server writes: `backup-<kind>-<UTC time>Z.jsonl.gz`, with a
 * `-<n>` counter when two land in the same second. Nothing else is read or deleted, so a name
 * can never reach outside the backup folder.
 */
export const BACKUP_NAME_PATTERN =
  /^backup-(manual|auto)-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z(?:-(\d{1,3}))?\.jsonl\.gz$/;

export const backupSchema = z
  .object({
    name: z.string(),
    size_bytes: z.number().int().nonnegative(),
    created: z.string(),
    compressed: z.boolean(),
    kind: z.enum(backupKinds),
  })
  .meta({ id: 'Backup' });
export type Backup = z.infer<typeof backupSchema>;

export const backupListResponseSchema = z
  .object({ backups: z.array(backupSchema) })
  .meta({ id: 'BackupList' });
export type BackupListResponse = z.infer<typeof backupListResponseSchema>;

export const backupCreatedResponseSchema = z
  .object({ backup_path: z.string(), name: z.string() })
  .meta({ id: 'BackupCreated' });
export type BackupCreatedResponse = z.infer<typeof backupCreatedResponseSchema>;

export const backupNameParamsSchema = z.object({
  name: z.string().max(100, 'Invalid backup name').regex(BACKUP_NAME_PATTERN, 'Invalid backup name'),
});

// ---------------------------------------------------------------------------------------------
// Sync engine (docs/product.md#sync-engine)
// ---------------------------------------------------------------------------------------------

/** One GitHub token the engine spends: the server's, or a user's own (owner = username). */
export const adminSyncTokenSchema = z
  .object({
    /** `server` for GITHUB_TOKEN, `anonymous` for unauthenticated calls, else the username. */
    owner: z.string(),
    /** Last four characters of the token; null for anonymous calls. */
    last_four: z.string().nullable(),
    /** Primary quota left as GitHub last reported it; null before the first answer. */
    remaining: z.number().int().nonnegative().nullable(),
    limit: z.number().int().nonnegative().nullable(),
    /** When the primary quota resets (ISO 8601); null before the first answer. */
    reset_at: z.string().nullable(),
    /** REST points spent through this token in the last minute (the pace is GITHUB_REST_PER_MINUTE). */
    rest_per_min: z.number().int().nonnegative(),
    /** While a secondary limit holds this token: when it may call again. */
    paused_until: z.string().nullable(),
  })
  .meta({ id: 'AdminSyncToken' });
export type AdminSyncToken = z.infer<typeof adminSyncTokenSchema>;

export const adminSyncErrorSchema = z
  .object({
    repository_id: z.string(),
    full_name: z.string(),
    error: z.string(),
    failures: z.number().int().nonnegative(),
    at: z.string(),
    /** When the engine tries this repository again (backed off after repeated failures). */
    next_due_at: z.string(),
  })
  .meta({ id: 'AdminSyncError' });
export type AdminSyncError = z.infer<typeof adminSyncErrorSchema>;

/** One kind of background work (docs/architecture.md#background-work). */
export const adminJobKindSchema = z
  .object({
    kind: z.string(),
    /** Its cron pattern; null when it runs only when queued, or its schedule is off. */
    schedule: z.string().nullable(),
    /** The next scheduled tick on the instance that answered. */
    next_run: z.string().nullable(),
    waiting: z.number().int().nonnegative(),
    running: z.number().int().nonnegative(),
    /** Failed for good in the last 24 hours. */
    failed_last_day: z.number().int().nonnegative(),
  })
  .meta({ id: 'AdminJobKind' });
export type AdminJobKind = z.infer<typeof adminJobKindSchema>;

export const adminSyncSchema = z
  .object({
    /** Repositories due now and not being worked. */
    queued: z.number().int().nonnegative(),
    /** Repositories leased by an instance right now. */
    running: z.number().int().nonnegative(),
    /** Background jobs waiting (contributor counts, queued additions). */
    jobs_waiting: z.number().int().nonnegative(),
    /** When the engine next wakes; null when SYNC_SCHEDULE is off. */
    next_run_at: z.string().nullable(),
    interval_hours: z.number().positive(),
    tokens: z.array(adminSyncTokenSchema),
    /** Latest failures first, at most 20. */
    recent_errors: z.array(adminSyncErrorSchema),
    /** Every kind of background work, by name. */
    jobs: z.array(adminJobKindSchema),
  })
  .meta({ id: 'AdminSync' });
export type AdminSync = z.infer<typeof adminSyncSchema>;
