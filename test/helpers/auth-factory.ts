import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { LoginResponse, RegisterBody } from '#shared/schemas/auth.ts';
import { hashPassword } from '../../server/lib/passwords.ts';

let sequence = 0;

/** A distinct client address per call, so rate limits of one test don't leak into another. */
export function nextAddress(): string {
  sequence += 1;
  return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
}

export function buildRegistration(overrides: Partial<RegisterBody> = {}): RegisterBody {
  const suffix = randomBytes(4).toString('hex');
  return {
    email: `user-${suffix}@example.com`,
    username: `user_${suffix}`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    password: 'Passw0rd!',
    ...overrides,
  };
}

/**
 * Inserts a ready-to-use account directly (verified and active unless told otherwise), with a
 * real Argon2id hash. Faster than the HTTP flow where a test is not about registration.
 */
export async function createUser(
  app: FastifyInstance,
  overrides: Partial<RegisterBody> & { is_admin?: boolean; is_verified?: boolean; is_active?: boolean } = {},
) {
  const registration = buildRegistration(overrides);
  const now = new Date().toISOString();
  const row = await app.db
    .insertInto('users')
    .values({
      username: registration.username,
      email: registration.email.toLowerCase(),
      first_name: registration.first_name,
      last_name: registration.last_name,
      password_hash: await hashPassword(registration.password),
      is_admin: overrides.is_admin ? 1 : 0,
      is_verified: overrides.is_verified === false ? 0 : 1,
      is_active: overrides.is_active === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...registration, id: row.id };
}

export async function login(
  app: FastifyInstance,
  credentials: { email_or_username: string; password: string; remember_me?: boolean },
): Promise<LoginResponse> {
  const response = await app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: credentials,
    remoteAddress: nextAddress(),
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** A verified member with a live session: the `authorization` header to send. */
export async function signedInUser(app: FastifyInstance, overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(app, overrides);
  const session = await login(app, { email_or_username: user.email, password: user.password });
  return { ...user, session, headers: { authorization: `Bearer ${session.access_token}` } };
}
