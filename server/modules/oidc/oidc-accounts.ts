import type { Kysely } from 'kysely';
import { USERNAME_MAX, USERNAME_MIN } from '#shared/constants.ts';
import type { OidcErrorCode } from '#shared/schemas/oidc.ts';
import { isUniqueViolation } from '../../db/database.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { randomToken } from '../../lib/secret-box.ts';
import type { AccountsService } from '../auth/accounts.service.ts';
import * as queries from './oidc.queries.ts';

/** What the single sign-on calls answer when they refuse. */
export const OIDC_MESSAGES = {
  notConfigured: 'Single sign-on is not configured on this instance.',
  codeInvalid: 'This sign-in code is invalid, expired or already used. Sign in again.',
  linkPasswordWrong: 'Incorrect password for the account with this e-mail address.',
  alreadyLinked: 'This sign-in is already linked to an account.',
  inactive: 'Your account has been deactivated. Please contact an administrator.',
  loginOk: 'Login successful',
} as const;

/** A sign-in that cannot go through: the app URL carries `code`, the admin section `detail`. */
export class SignInFailure extends Error {
  readonly code: OidcErrorCode;
  readonly userId: number | null;
  constructor(code: OidcErrorCode, detail: string, userId: number | null = null) {
    super(detail);
    this.code = code;
    this.userId = userId;
  }
}

export interface AccountMakerDeps {
  db: Kysely<Database>;
  clock: Clock;
  accounts: AccountsService;
}

/**
 * A new account for a first sign-in: the username fitted from `preferred_username` (else the
 * e-mail's local part), a number appended when taken; the identity linked in the same change.
 * The instance's first account becomes its administrator, as with registration, unless
 * OIDC_ADMIN_GROUPS decides who is one.
 */
export async function createProviderAccount(
  deps: AccountMakerDeps,
  identity: { issuer: string; subject: string },
  email: string,
  claims: Record<string, unknown>,
  mayClaimFirstAdmin: boolean,
): Promise<UserRow> {
  const { db, clock, accounts } = deps;
  const base = fitUsername(
    typeof claims.preferred_username === 'string' && claims.preferred_username.trim() !== ''
      ? claims.preferred_username
      : (email.split('@')[0] ?? ''),
  );
  const names = personNames(claims);
  const passwordHash = await accounts.unknownPasswordHash();
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const username = await freeUsername(accounts, base);
    const now = isoNow(clock);
    try {
      return await db.transaction().execute(async (trx) => {
        const inserted = await accounts.insertFromProvider(
          trx,
          { username, email, ...names },
          passwordHash,
          now,
        );
        await queries.insertIdentity(trx, {
          user_id: inserted.id,
          issuer: identity.issuer,
          subject: identity.subject,
          email,
          now,
        });
        let user = inserted;
        // With OIDC_ADMIN_GROUPS the groups decide, first account or not.
        if (mayClaimFirstAdmin && (await accounts.claimFirstAdmin(trx, inserted.id, now))) {
          user = (await accounts.update(inserted.id, { is_admin: 1, updated_at: now }, trx)) ?? inserted;
        }
        await writeAudit(trx, {
          actorId: null,
          action: 'oidc.user.create',
          target: `user:${user.id}`,
          detail: { username, issuer: identity.issuer, is_admin: user.is_admin === 1 },
          at: now,
        });
        return user;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // A parallel sign-in took the name (try the next), or the address or the identity itself.
      if (await accounts.findByEmail(email)) {
        throw new SignInFailure('email_taken', `${email} was taken by a parallel sign-in`);
      }
    }
  }
  throw new SignInFailure('provider_error', 'no free username could be found');
}

async function freeUsername(accounts: AccountsService, base: string): Promise<string> {
  if (!(await accounts.findByUsername(base))) return base;
  for (let number = 2; number < 10_000; number += 1) {
    const suffix = String(number);
    const candidate = `${base.slice(0, USERNAME_MAX - suffix.length)}${suffix}`;
    if (!(await accounts.findByUsername(candidate))) return candidate;
  }
  return `${base.slice(0, USERNAME_MAX - 7)}${randomToken(6)
    .replace(/[^A-Za-z0-9]/g, '0')
    .slice(0, 7)}`;
}

/** The groups claim: a list of names, or one name; anything else is no groups. */
export function readGroups(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/**
 * A username from a provider's name: letters, digits, `_` and `-` kept (other runs become `_`),
 * cut to the longest allowed, padded with `_` to the shortest (docs/product.md#single-sign-on).
 */
export function fitUsername(raw: string): string {
  let name = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (name === '') name = 'user';
  name = name.slice(0, USERNAME_MAX);
  return name.padEnd(USERNAME_MIN, '_');
}

function personNames(claims: Record<string, unknown>): { first_name: string; last_name: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 100) : '');
  let first = text(claims.given_name);
  let last = text(claims.family_name);
  if (!first && !last) {
    const [given = '', ...rest] = text(claims.name).split(/\s+/);
    first = given;
    last = rest.join(' ');
  }
  return { first_name: first, last_name: last };
}
