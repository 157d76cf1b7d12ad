import { z } from 'zod';
import { NAME_MIN, USERNAME_MAX, USERNAME_MIN, VERIFICATION_TOKEN_MIN_LENGTH } from '../constants.ts';
import {
  describeMissingResetParts,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  REGISTRATION_PASSWORD_MESSAGE,
  registrationPasswordProblem,
} from '../password-rules.ts';

/**
 * A required string whose missing, non-string and empty forms all say `message`
 * (docs/product.md#validation-rules).
 */
export const requiredString = (message: string) => z.string({ error: message }).trim().min(1, message);

/**
 * `{local}@{domain}.{tld}` with no spaces. Quadratic in the domain's length (each `.` is a place
 * to split it), so it never sees more than 254 characters: the length check aborts first
 * (issue 22: a 40,000-character address held the event loop 7 s, a 1 MiB body over an hour).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const emailField = (requiredMessage: string) =>
  requiredString(requiredMessage)
    .max(254, { error: 'Please enter a valid email address', abort: true })
    .regex(EMAIL_PATTERN, 'Please enter a valid email address');

export const USERNAME_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${USERNAME_MIN},${USERNAME_MAX}}$`);
export const USERNAME_MESSAGE = `Username must be ${USERNAME_MIN}-${USERNAME_MAX} characters, letters, numbers, _ or - only`;

const passwordField = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .min(1, requiredMessage)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

// ---------------------------------------------------------------------------------------------
// Entities
// ---------------------------------------------------------------------------------------------

/**
 * The user as the API answers it (docs/product.md#entities). Never carries a hash or a secret: the serializer
 * drops anything not listed.
 */
export const userSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    is_active: z.boolean(),
    is_verified: z.boolean(),
    is_admin: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    last_login_at: z.string().nullable(),
    has_personal_github_token: z.boolean(),
    github_token_last_four: z.string().nullable(),
    github_token_set_at: z.string().nullable(),
    github_default_quota_remaining: z.number().int().nullable(),
    has_slack_webhook: z.boolean(),
    slack_webhook_set_at: z.string().nullable(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const githubTokenStatusSchema = z
  .object({
    has_personal_token: z.boolean(),
    token_last_four: z.string().nullable(),
    token_set_at: z.string().nullable(),
    shared_quota_remaining: z.number().int().nullable(),
  })
  .meta({ id: 'GitHubTokenStatus' });
export type GitHubTokenStatus = z.infer<typeof githubTokenStatusSchema>;

export const slackWebhookStatusSchema = z
  .object({ has_webhook: z.boolean(), webhook_set_at: z.string().nullable() })
  .meta({ id: 'SlackWebhookStatus' });
export type SlackWebhookStatus = z.infer<typeof slackWebhookStatusSchema>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

export const loginBodySchema = z.object({
  email_or_username: requiredString('Email or username is required').max(
    254,
    'Email or username is too long',
  ),
  password: passwordField('Password is required').min(
    PASSWORD_MIN_LENGTH,
    `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  ),
  remember_me: z.boolean().optional().default(false),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const registerBodySchema = z.object({
  email: emailField('Email is required'),
  username: z.string({ error: USERNAME_MESSAGE }).trim().regex(USERNAME_PATTERN, USERNAME_MESSAGE),
  first_name: z
    .string({ error: 'First name must be at least 2 characters' })
    .trim()
    .min(NAME_MIN, 'First name must be at least 2 characters')
    .max(100, 'First name must be at most 100 characters'),
  last_name: z
    .string({ error: 'Last name must be at least 2 characters' })
    .trim()
    .min(NAME_MIN, 'Last name must be at least 2 characters')
    .max(100, 'Last name must be at most 100 characters'),
  password: passwordField(REGISTRATION_PASSWORD_MESSAGE).superRefine((value, context) => {
    const problem = registrationPasswordProblem(value);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  }),
});
export type RegisterBody = z.input<typeof registerBodySchema>;

export const verificationTokenSchema = z
  .string({ error: 'Verification token not found in URL...' })
  .trim()
  .min(1, 'Verification token not found in URL...')
  .min(
    VERIFICATION_TOKEN_MIN_LENGTH,
    'Invalid verification token format. Please use the link from your email.',
  )
  .max(200, 'Invalid verification token format. Please use the link from your email.');

export const verifyEmailBodySchema = z.object({ token: verificationTokenSchema });

export const emailOnlyBodySchema = z.object({ email: emailField('Email address is required') });
export type EmailOnlyBody = z.input<typeof emailOnlyBodySchema>;

export const resetPasswordFieldSchema = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .superRefine((value, context) => {
    const missing = describeMissingResetParts(value);
    if (missing) context.addIssue({ code: 'custom', message: missing });
  });

const resetTokenField = z
  .string({ error: 'Invalid reset link. Please request a new password reset.' })
  .trim()
  .min(1)
  .max(200);

/** `GET /auth/verify-reset-token?token=`, kept for older clients. */
export const resetTokenQuerySchema = z.object({ token: resetTokenField });

/** `POST /auth/verify-reset-token`: the token travels in the body, never in a URL a log keeps. */
export const verifyResetTokenBodySchema = z.object({ token: resetTokenField });
export type VerifyResetTokenBody = z.input<typeof verifyResetTokenBodySchema>;

export const resetPasswordBodySchema = z.object({
  token: z
    .string({ error: 'Invalid reset link. Please request a new password reset.' })
    .trim()
    .min(1)
    .max(200),
  new_password: resetPasswordFieldSchema,
});
export type ResetPasswordBody = z.input<typeof resetPasswordBodySchema>;

export const updateProfileBodySchema = z.object({
  first_name: requiredString('First name and last name are required').max(
    100,
    'First name must be at most 100 characters',
  ),
  last_name: requiredString('First name and last name are required').max(
    100,
    'Last name must be at most 100 characters',
  ),
});
export type UpdateProfileBody = z.input<typeof updateProfileBodySchema>;

export const changePasswordBodySchema = z
  .object({
    current_password: passwordField('Current password is required'),
    new_password: passwordField('New password is required').min(
      PASSWORD_MIN_LENGTH,
      `New password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
    ),
    /** The caller's own session, kept alive while every other session is signed out. */
    refresh_token: z.string().max(200).optional(),
  })
  .refine((body) => body.current_password !== body.new_password, {
    message: 'New password must be different from current password',
    path: ['new_password'],
  });
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>;

export const refreshBodySchema = z.object({
  refresh_token: z
    .string({ error: 'Refresh token is required' })
    .min(1, 'Refresh token is required')
    .max(200),
});

export const githubTokenBodySchema = z.object({
  token: requiredString('Personal GitHub token is required')
    .max(255, 'Personal GitHub token is too long')
    .regex(/^[A-Za-z0-9_]+$/, 'Personal GitHub token must contain only letters, digits and underscores'),
});

export const slackWebhookBodySchema = z.object({
  url: requiredString('Slack webhook URL is required').max(2048, 'Slack webhook URL is too long'),
});

// ---------------------------------------------------------------------------------------------
// Responses (docs/product.md#auth-api)
// ---------------------------------------------------------------------------------------------

export const loginResponseSchema = z
  .object({ access_token: z.string(), refresh_token: z.string(), user: userSchema, message: z.string() })
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const refreshResponseSchema = z
  .object({ access_token: z.string(), refresh_token: z.string() })
  .meta({ id: 'RefreshResponse' });
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const userResponseSchema = z.object({ user: userSchema }).meta({ id: 'UserResponse' });
export const messageResponseSchema = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
/**
 * `POST /auth/logout`: a session that came from single sign-on also answers the provider's
 * end-session URL (when it has one), where the app sends the browser to end the provider's session.
 */
export const logoutResponseSchema = z
  .object({ message: z.string(), end_session_url: z.string().optional() })
  .meta({ id: 'LogoutResponse' });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;
/**
 * A password change ends every session, the caller's included; the new pair keeps the caller
 * signed in.
 */
export const changePasswordResponseSchema = z
  .object({ message: z.string(), access_token: z.string(), refresh_token: z.string() })
  .meta({ id: 'ChangePasswordResponse' });
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;
export const successResponseSchema = z
  .object({ success: z.boolean(), message: z.string() })
  .meta({ id: 'SuccessResponse' });
export type SuccessResponse = z.infer<typeof successResponseSchema>;
