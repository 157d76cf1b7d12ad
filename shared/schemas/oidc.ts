import { z } from 'zod';
import { loginResponseSchema } from './auth.ts';

/**
 * Single sign-on with an OpenID Connect provider (docs/product.md#single-sign-on). The web app
 * reads the callback's answers from its own URL: `/#/login?oidc_code=…` (sign in with
 * `POST /auth/oidc/exchange`), `/#/login?oidc_link=…` (an account with this e-mail exists: its
 * password links it, `POST /auth/oidc/link`) or `/#/login?oidc_error=<code>` (one of
 * `oidcErrorCodes`, shown with `OIDC_ERROR_MESSAGES`).
 */

/** Why a sign-in with the provider did not go through; the `oidc_error` of the app URL. */
export const oidcErrorCodes = [
  'provider_unavailable',
  'state_mismatch',
  'access_denied',
  'provider_error',
  'token_invalid',
  'email_missing',
  'email_unverified',
  'email_taken',
  'account_not_found',
  'account_inactive',
] as const;
export type OidcErrorCode = (typeof oidcErrorCodes)[number];

/** What the sign-in screen says for each `oidc_error`. */
export const OIDC_ERROR_MESSAGES: Record<OidcErrorCode, string> = {
  provider_unavailable: 'The sign-in provider could not be reached. Try again in a moment.',
  state_mismatch:
    'This sign-in expired or was started in another browser. Start again with the single sign-on button.',
  access_denied: 'The sign-in provider did not grant access (consent was declined).',
  provider_error: 'The sign-in provider reported an error. Try again, or ask an administrator.',
  token_invalid: 'The answer of the sign-in provider could not be verified. Ask an administrator.',
  email_missing:
    'The sign-in provider did not share an e-mail address, which a new account needs. Ask an administrator.',
  email_unverified:
    'The sign-in provider has not verified your e-mail address. Verify it there first, then sign in again.',
  email_taken:
    'An account with your e-mail address already exists and has no password to link it with. Ask an administrator.',
  account_not_found:
    'No account is linked to your sign-in on this instance, and new accounts are not created. Ask an administrator.',
  account_inactive: 'Your account has been deactivated. Please contact an administrator.',
};

/** `GET /auth/providers`: which sign-in methods the sign-in screen offers. */
export const authProvidersSchema = z
  .object({
    /** Password sign-in, registration and reset (PASSWORD_LOGIN). */
    password: z.boolean(),
    /** Registration is open (REGISTRATION) and password sign-in is on. */
    registration: z.boolean(),
    oidc: z.object({
      enabled: z.boolean(),
      button_text: z.string(),
      /** Go straight to the provider, unless the URL says `?local=1`. */
      auto_redirect: z.boolean(),
    }),
  })
  .meta({ id: 'AuthProviders' });
export type AuthProviders = z.infer<typeof authProvidersSchema>;

/** An in-app path (`/repositories?tag=x`), not a URL: where the app goes after signing in. */
export const returnToSchema = z
  .string()
  .max(500, 'return_to must be at most 500 characters')
  .regex(
    /^\/(?![/\\])[A-Za-z0-9/_.~%?=&+,:@!$'()*;-]*$/,
    'return_to must be a path inside the app, like /repositories',
  );

export const oidcStartQuerySchema = z.object({
  return_to: returnToSchema.optional(),
  remember_me: z.enum(['true', 'false', '1', '0']).optional(),
});

/** The provider's answer to the callback: every field optional, anything malformed is refused there. */
export const oidcCallbackQuerySchema = z.object({
  state: z.string().max(1000).optional(),
  code: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(1000).optional(),
});

const oneTimeCode = z
  .string({ error: 'The sign-in code is missing' })
  .trim()
  .min(1, 'The sign-in code is missing')
  .max(200, 'The sign-in code is invalid');

export const oidcExchangeBodySchema = z.object({ code: oneTimeCode });
export type OidcExchangeBody = z.input<typeof oidcExchangeBodySchema>;

export const oidcLinkBodySchema = z.object({
  code: oneTimeCode,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(256),
});
export type OidcLinkBody = z.input<typeof oidcLinkBodySchema>;

export const oidcLinkDetailsBodySchema = z.object({ code: oneTimeCode });

/** `POST /auth/oidc/link/details`: which account "Link your account" links, to show it. */
export const oidcLinkDetailsSchema = z
  .object({ email: z.string(), expires_at: z.string() })
  .meta({ id: 'OidcLinkDetails' });
export type OidcLinkDetails = z.infer<typeof oidcLinkDetailsSchema>;

/** The answer of password sign-in, and where the app goes next (`return_to` given at start). */
export const oidcSignInResponseSchema = loginResponseSchema
  .extend({ return_to: z.string().nullable() })
  .meta({ id: 'OidcSignInResponse' });
export type OidcSignInResponse = z.infer<typeof oidcSignInResponseSchema>;

/** `GET /auth/me/identities`: the provider identities linked to the caller's account. */
export const linkedIdentitySchema = z
  .object({
    id: z.number().int(),
    issuer: z.string(),
    email: z.string().nullable(),
    created_at: z.string(),
    last_sign_in_at: z.string().nullable(),
  })
  .meta({ id: 'LinkedIdentity' });
export const linkedIdentitiesSchema = z
  .object({
    identities: z.array(linkedIdentitySchema),
    /** Whether the account has a password of its own (single sign-on accounts may not). */
    has_password: z.boolean(),
  })
  .meta({ id: 'LinkedIdentities' });
export type LinkedIdentities = z.infer<typeof linkedIdentitiesSchema>;

/** `GET /auth/admin/sign-in`: the provider as discovery found it, and recent sign-in problems. */
export const adminSignInSchema = z
  .object({
    password_login: z.boolean(),
    oidc: z.object({
      enabled: z.boolean(),
      issuer: z.string().nullable(),
      client_id: z.string().nullable(),
      scopes: z.string().nullable(),
      /** Null: single sign-on leaves the admin flag alone. */
      admin_groups: z.array(z.string()).nullable(),
      create_accounts: z.boolean(),
      discovery: z.object({
        status: z.enum(['not_configured', 'ok', 'error']),
        checked_at: z.string().nullable(),
        error: z.string().nullable(),
        authorization_endpoint: z.string().nullable(),
        token_endpoint: z.string().nullable(),
        userinfo_endpoint: z.string().nullable(),
        end_session_endpoint: z.string().nullable(),
        jwks_uri: z.string().nullable(),
      }),
    }),
    events: z.array(
      z.object({
        id: z.number().int(),
        at: z.string(),
        reason: z.string(),
        detail: z.string(),
        username: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'AdminSignIn' });
export type AdminSignIn = z.infer<typeof adminSignInSchema>;
