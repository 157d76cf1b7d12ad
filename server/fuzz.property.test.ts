import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from 'node:zlib';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import {
  BARE_REPOSITORY,
  EMPTY_REPOSITORY,
  HUGE_REPOSITORY,
  listDoubleRepositories,
  PRIVATE_REPOSITORY,
  RENAMED_REPOSITORY_OLD_NAME,
  SINGLE_COMMIT_REPOSITORY,
} from '../test/github-double/index.ts';
import { createUser, signedInUser } from '../test/helpers/auth-factory.ts';
import { createReposTestApp } from '../test/helpers/repos-app.ts';

/**
 * docs/security.md#g1, #h6: fuzzing never produces a 5xx, and every error has the one error body.
 *
 * Every route of `app.routeAccess` (but /docs and the static `/*`) gets generated requests,
 * each sent as an anonymous caller, a signed-in member and an admin: bodies built from the
 * route's JSON schema in the OpenAPI document (valid-looking, then with wrong types, huge or
 * odd strings, nulls, extra and `__proto__`/`constructor` keys, arrays for objects), random
 * JSON, broken JSON, wrong or missing content types, empty bodies; path parameters that are
 * real ids, valid-looking ids and URL-encoded junk; random query strings.
 *
 * One request in three is well-formed (real ids, schema-valid query and body, JSON) so that
 * handlers, the database and GitHub are reached, not only validation; a small fixed corpus of
 * tricky repository ids runs first on every route that takes one.
 *
 * The app talks to the GitHub double; the member and the admin have personal tokens, so
 * repository calls reach real (double) GitHub answers within the token quota. Calls that sign
 * the callers out, deactivate them, drop their tokens or delete the seeded repository are
 * undone after each run (`heal`, `seedRepository`).
 *
 * Deterministic by default: FUZZ_SEED (default below) fixes the seed of every route's property
 * (mixed with the route), FUZZ_RUNS the runs per route. fast-check prints the seed and path of
 * a failure so it can be replayed. FUZZ_ROUTE="PATCH /auth" fuzzes only matching routes;
 * FUZZ_DEBUG=/tmp/fuzz.jsonl writes route, caller, status and message of every call there.
 * Property: the status is never ≥ 500, and a status ≥ 400 comes with exactly
 * `{ message, code, retry_after?, request_id?, fields? }` (and Retry-After with a 429).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_122);
// 60 runs per route in the SQLite pass; the PostgreSQL pass (scripts/test.ts) sends 20, enough
// for the dialect's own failures (NUL bytes, out-of-range integers) within the suite's time budget.
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

type Method = NonNullable<InjectOptions['method']>;
type JsonSchema = {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};
type OpenApiParameter = { in: 'query' | 'path'; name: string; required?: boolean; schema: JsonSchema };
type OpenApiOperation = {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: { 'application/json'?: { schema?: JsonSchema } } };
};
type Identity = { id: number; headers: Record<string, string> };

// A built web app of our own: a clean checkout runs the tests before `npm run build`, when `/`
// answers 503 "not built yet" by design.
const webDist = mkdtempSync(join(tmpdir(), 'rt-fuzz-dist-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>fuzz</title><div id="root"></div>');

// Built at collection time so that every route gets its own test below.
// Pacing is not under test here (server/github/*.test.ts and the sync tests hold it): the
// deletes and re-adds of hundreds of runs would otherwise queue behind GitHub's pace.
const UNPACED = 1_000_000;
const t = await createReposTestApp(
  {},
  { secondary: { restPointsPerMinute: UNPACED, graphqlPointsPerMinute: UNPACED } },
  { webDistDir: webDist, githubPace: { restPerMinute: UNPACED, graphqlPointsPerMinute: UNPACED } },
);
let member: Identity;
let admin: Identity;
let victim: { id: number; email: string; username: string };
let openapi: { paths: Record<string, Record<string, OpenApiOperation>> };
const known = {
  repoIds: [
    'facebook/react',
    EMPTY_REPOSITORY,
    PRIVATE_REPOSITORY,
    RENAMED_REPOSITORY_OLD_NAME,
    BARE_REPOSITORY,
    SINGLE_COMMIT_REPOSITORY,
    HUGE_REPOSITORY,
  ],
  /** Real repositories of the double, so well-formed adds get past GitHub's 404. */
  addable: listDoubleRepositories()
    .filter((repository) => !repository.special && !repository.isPrivate)
    .slice(200, 230)
    .map((repository) => repository.fullName),
  versionIds: [] as number[],
  backupNames: [] as string[],
};
const MEMBER_TOKEN = 'ghp_fuzzMemberToken0123456789';
const ADMIN_TOKEN = 'ghp_fuzzAdminToken0123456789';

beforeAll(async () => {
  const m = await signedInUser(t.app);
  const a = await signedInUser(t.app, { is_admin: true });
  member = { id: m.id, headers: m.headers };
  admin = { id: a.id, headers: a.headers };
  victim = await createUser(t.app);
  const docs = await t.app.inject({ method: 'GET', url: '/docs/json' });
  expect(docs.statusCode).toBe(200);
  openapi = docs.json();

  // Something real behind the ids: a repository with a comment and two versions, a backup.
  await heal();
  await seedRepository();
  const backup = await t.app.inject({ method: 'POST', url: '/health/backup', headers: admin.headers });
  expect(backup.statusCode, backup.body).toBeLessThan(300);
  const list = await t.app.inject({ method: 'GET', url: '/health/backups', headers: admin.headers });
  known.backupNames.push(...list.json().backups.map((entry: { name: string }) => entry.name));
}, 60_000);

afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** The member's facebook/react with a comment and two versions; added again if a call deleted it. */
async function seedRepository() {
  const base = `/repositories/${encodeURIComponent('facebook/react')}`;
  const check = await t.app.inject({
    method: 'GET',
    url: `/repositories/check/${encodeURIComponent('facebook/react')}`,
    headers: member.headers,
  });
  if (check.json().exists === true) return;
  const add = await t.app.inject({
    method: 'POST',
    url: '/repositories/',
    headers: member.headers,
    payload: { id: 'facebook/react' },
  });
  expect(add.statusCode, add.body).toBe(201);
  await t.app.inject({
    method: 'POST',
    url: `${base}/comments`,
    headers: member.headers,
    payload: { comment: 'seed' },
  });
  known.versionIds.length = 0;
  for (const version_number of ['1.0.0', '2.0.0']) {
    const version = await t.app.inject({
      method: 'POST',
      url: `${base}/versions`,
      headers: member.headers,
      payload: { version_number },
    });
    expect(version.statusCode, version.body).toBe(201);
    known.versionIds.push(version.json().version.id);
  }
}

/**
 * Puts the two callers back as they were: generated calls may deactivate or demote the member
 * (admin PATCH), log everyone out, or remove a personal token. Cheap when nothing changed.
 */
async function heal() {
  await t.app.db
    .updateTable('users')
    .set({ is_active: 1, is_verified: 1, is_admin: 0 })
    .where('id', '=', member.id)
    .execute();
  await t.app.db
    .updateTable('users')
    .set({ is_active: 1, is_verified: 1, is_admin: 1 })
    .where('id', '=', admin.id)
    .execute();
  for (const [who, token] of [
    [member, MEMBER_TOKEN],
    [admin, ADMIN_TOKEN],
  ] as const) {
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: who.headers });
    if (me.statusCode !== 200) {
      // A new session straight from the token service: logging in over HTTP again and again
      // would trip the per-account login limit.
      const row = await t.app.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', who.id)
        .executeTakeFirstOrThrow();
      const session = await t.app.services.tokens.startSession(row, false);
      who.headers = { authorization: `Bearer ${session.access_token}` };
    }
    const status = await t.app.inject({ method: 'GET', url: '/auth/me/github-token', headers: who.headers });
    if (status.json().has_personal_token !== true || status.json().token_last_four !== token.slice(-4)) {
      const put = await t.app.inject({
        method: 'PUT',
        url: '/auth/me/github-token',
        headers: who.headers,
        payload: { token },
      });
      expect(put.statusCode, put.body).toBe(200);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/** Encodes any string for a URL, lone surrogates included (as an invalid UTF-8 sequence). */
function encodeLoosely(value: string): string {
  let out = '';
  for (const char of value) {
    try {
      out += encodeURIComponent(char);
    } catch {
      out += '%ED%A0%80';
    }
  }
  return out;
}

const longString = fc
  .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }), fc.integer({ min: 200, max: 10_000 }))
  .map(([seed, length]) => seed.repeat(Math.ceil(length / seed.length)).slice(0, length));

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uFEFF',
  '\u202Eevil',
  '😀',
  'ǅ',
  'İ',
  'ß',
  '\r\n',
  '0',
  '-1',
  'true',
  'null',
  'NaN',
  '1e309',
  '../../etc/passwd',
  '..\\..\\windows',
  '%00',
  '%2e%2e%2f',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '$'.concat('{7*7}'),
  '{{7*7}}',
  '=cmd|"/c calc"!A1',
  'https://github.com/facebook/react',
  'https://github.com/../../rate_limit',
  'http://127.0.0.1:1/x',
  'https://hooks.slack.com/services/T0/B0/x',
  'javascript:alert(1)',
  'facebook/react',
  '../rate_limit',
  './.',
  'a'.repeat(256),
);

const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 2, arbitrary: nastyStrings },
  { weight: 1, arbitrary: longString },
);

const leafJunk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0, -0, 1.5, -1, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  anyString,
);

/** Nested junk: objects and arrays of junk, with prototype-poisoning keys now and then. */
const nestedJunk: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafJunk,
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .dictionary(
        fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'prototype')),
        tie('value'),
        { maxKeys: 4 },
      )
      .map(withOwnKeys),
  ),
})).value;

/** Makes `__proto__` an own, enumerable key (a plain assignment would set the prototype). */
function withOwnKeys(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    Object.defineProperty(out, key, {
      value: record[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function integerArb(schema: JsonSchema): fc.Arbitrary<number> {
  const low = Math.max(
    schema.minimum ??
      (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : Number.MIN_SAFE_INTEGER),
    Number.MIN_SAFE_INTEGER,
  );
  const high = Math.min(
    schema.maximum ??
      (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Number.MAX_SAFE_INTEGER),
    Number.MAX_SAFE_INTEGER,
  );
  const edges = [low, high, 0, 1, -1, 2, INT32_MAX, INT32_MAX + 1, INT32_MIN, INT32_MIN - 1, 2 ** 32].filter(
    (value) => value >= low && value <= high,
  );
  return fc.oneof(
    fc.constantFrom(...edges),
    fc.integer({ min: Math.max(low, INT32_MIN), max: Math.min(high, INT32_MAX) }),
    fc.bigInt({ min: BigInt(low), max: BigInt(high) }).map(Number),
  );
}

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, 60);
  if (schema.pattern) {
    // Lookaheads are beyond stringMatching: drop them and keep a value that looks right.
    const pattern = schema.pattern.replace(/\(\?[=!][^)]*\)/g, '');
    try {
      return fc.stringMatching(new RegExp(pattern)).map((value) => value.slice(0, schema.maxLength ?? 300));
    } catch {
      return fc.string({ minLength: min, maxLength: max });
    }
  }
  return fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, max) });
}

/** Values that satisfy (or nearly satisfy) a JSON schema: kept small so GitHub work stays cheap. */
function validArb(
  schema: JsonSchema,
  hints: Record<string, fc.Arbitrary<unknown>> = {},
): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => validArb(option, hints)));
  switch (schema.type) {
    case 'string':
      return stringArb(schema);
    case 'integer':
      return integerArb(schema);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validArb(schema.items ?? {}, hints), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 0, 3)),
      });
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        const own = validArb(property, hints);
        const hint = hints[key];
        model[key] = hint ? fc.oneof({ weight: 3, arbitrary: hint }, own) : own;
      }
      const required = schema.required ?? [];
      const optional = Object.keys(model).filter((key) => !required.includes(key));
      // Also the required fields with one optional field: bodies like { url } or { id } where
      // the handler wants exactly one of them.
      const pick = (keys: string[]) =>
        Object.fromEntries(keys.map((key) => [key, model[key] as fc.Arbitrary<unknown>]));
      return fc.oneof(
        { weight: 2, arbitrary: fc.record(model, { requiredKeys: required }) },
        ...optional.map((key) => ({ weight: 3, arbitrary: fc.record(pick([...required, key])) })),
      );
    }
    default:
      return nestedJunk;
  }
}

/** The schema's object with fields swapped for junk, dropped, or joined by extra and poisoning keys. */
function mutatedArb(schema: JsonSchema, hints: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  if (schema.type !== 'object' || !schema.properties) {
    return fc.oneof(validArb(schema, hints), nestedJunk);
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    model[key] = fc.oneof(
      validArb(property, hints),
      leafJunk,
      longString,
      fc.constant(null),
      fc.array(validArb(property, hints), { maxLength: 2 }),
      mutatedArb(property, hints),
    );
  }
  return fc
    .tuple(
      fc.record(model, { requiredKeys: [] }),
      fc.array(
        fc.tuple(
          fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.constantFrom(
              '__proto__',
              'constructor',
              'is_admin',
              'isAdmin',
              'id',
              'user_id',
              'password_hash',
            ),
          ),
          nestedJunk,
        ),
        {
          maxLength: 3,
        },
      ),
    )
    .map(([base, extras]) => {
      const out = withOwnKeys(base as Record<string, unknown>);
      for (const [key, value] of extras) setOwn(out, key, value);
      return out;
    });
}

const poisonBodies = fc.constantFrom(
  '{"__proto__":{"is_admin":true}}',
  '{"constructor":{"prototype":{"is_admin":true}}}',
  '{"a":{"__proto__":{"x":1}}}',
  '{"items":[{"__proto__":{"url":"x"}}]}',
  '{"first_name":"a","last_name":"b","__proto__":{"is_admin":true}}',
  '[{"__proto__":{}}]',
);

const brokenJson = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    'undefined',
    'NaN',
    '1e999',
    '-',
    '"',
    '\u0000',
    '\uFEFF{}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"a":1}{"b":2}',
    '   ',
    'null',
    'true',
    '0',
    '"string"',
    '[]',
    '[[]]',
  ),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 1, max: 2_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

const contentTypes = fc.constantFrom(
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/JSON',
  'application/json ; charset=UTF-8',
  'application/vnd.api+json',
  'application/jsonx',
  'application/json, text/plain',
  'application/json;;;',
  '*/*',
  '',
  '\u00e9/json',
);

type Body = { payload?: string; contentType?: string };

function bodyArb(
  method: Method,
  schema: JsonSchema | undefined,
  hints: Record<string, fc.Arbitrary<unknown>>,
) {
  const json = (arbitrary: fc.Arbitrary<unknown>) =>
    arbitrary.map((value) => JSON.stringify(value) ?? 'null');
  const payloads: fc.WeightedArbitrary<string | undefined>[] = [
    { weight: 2, arbitrary: fc.constantFrom(undefined, '') },
    { weight: 2, arbitrary: json(nestedJunk) },
    { weight: 1, arbitrary: poisonBodies },
    { weight: 1, arbitrary: brokenJson },
    // Over the 1 MiB body limit now and then.
    { weight: 1, arbitrary: fc.constant(JSON.stringify({ big: 'x'.repeat(1_100_000) })) },
  ];
  if (schema) {
    payloads.push(
      { weight: 6, arbitrary: json(validArb(schema, hints)) },
      { weight: 6, arbitrary: json(mutatedArb(schema, hints)) },
      { weight: 1, arbitrary: json(fc.array(validArb(schema, hints), { minLength: 1, maxLength: 2 })) },
    );
  }
  // GET and HEAD calls mostly come without a body.
  const payload = ['GET', 'HEAD'].includes(method)
    ? fc.oneof(
        { weight: 5, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.oneof(...payloads) },
      )
    : fc.oneof(...payloads);
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 2, arbitrary: contentTypes },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return fc.record({ payload, contentType }) as fc.Arbitrary<Body>;
}

const junkSegment = fc.oneof(
  fc.constantFrom(
    '..%2F..',
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%2e%2e%2f%2e%2e',
    '%00',
    'a%00b',
    '%',
    '%zz',
    '%E0%A4%A',
    '%C0%AE%C0%AE%2F',
    '%ED%A0%80',
    '%FF%FE',
    '..',
    '.',
    '%252F',
    'owner%2F..',
    '..%2Frate_limit',
    '.%2Fgraphql',
    'a%2Fb%2Fc',
    '%2F',
    '%20',
    '%0D%0AX-Injected:%201',
    ';',
    'a;b=c',
    '*',
    '~',
    '-1',
    '0',
    '1e3',
    '0x10',
    '1.5',
    '99999999999999999999999',
    '%F0%9F%98%80',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeLoosely),
  fc.string({ unit: 'binary', maxLength: 20 }).map(encodeLoosely),
  fc.integer({ min: 100, max: 4000 }).map((length) => 'a'.repeat(length)),
  fc.integer({ min: 10, max: 400 }).map((length) => encodeLoosely('é😀'.repeat(length))),
);

const repoIdSegment = () =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known.repoIds) },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}\/[A-Za-z0-9_.-]{1,12}$/) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('.', '..', '...', '-', 'x'),
          fc.constantFrom('.', '..', 'rate_limit', 'graphql', 'x'),
        )
        .map(([owner, name]) => `${owner}/${name}`),
    },
    { weight: 3, arbitrary: junkSegment.map((segment) => decodeSafely(segment)) },
  );

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Path parameters that name something real (or nearly): the happy path, URL-encoded. */
function validPathParamArb(route: string, name: string): fc.Arbitrary<string> {
  if (name === 'id' && route.startsWith('/repositories')) {
    return fc
      .oneof(
        { weight: 4, arbitrary: fc.constant('facebook/react') },
        { weight: 2, arbitrary: fc.constantFrom(...known.repoIds) },
        { weight: 1, arbitrary: fc.constantFrom(...known.addable) },
      )
      .map(encodeURIComponent);
  }
  if (name === 'id') return fc.constantFrom(member.id, admin.id, victim.id).map(String);
  if (name === 'name') return fc.constantFrom(...known.backupNames);
  return fc.string({ minLength: 1, maxLength: 10 }).map(encodeLoosely);
}

/** A value for each kind of path parameter, URL-encoded (or raw junk). */
function pathParamArb(route: string, name: string): fc.Arbitrary<string> {
  if (name === 'id' && route.startsWith('/repositories')) {
    return fc.oneof(
      { weight: 4, arbitrary: repoIdSegment().map(encodeLoosely) },
      { weight: 2, arbitrary: junkSegment },
    );
  }
  if (name === 'id') {
    return fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(String(member.id), String(admin.id), '999999', '2147483647', '2147483648'),
      },
      { weight: 2, arbitrary: integerArb({}).map(String) },
      { weight: 2, arbitrary: junkSegment },
    );
  }
  if (name === 'name') {
    return fc.oneof(
      {
        weight: 2,
        arbitrary: fc.constantFrom(...known.backupNames, 'backup-manual-2020-01-01T00-00-00Z.jsonl.gz'),
      },
      {
        weight: 2,
        arbitrary: fc.stringMatching(
          /^backup-(manual|auto)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(-\d{1,3})?\.jsonl\.gz$/,
        ),
      },
      { weight: 3, arbitrary: junkSegment },
    );
  }
  return junkSegment;
}

/** Hints for fields whose meaningful values random strings would never hit. */
function hintsFor(wellFormed = false): Record<string, fc.Arbitrary<unknown>> {
  const repoId = wellFormed
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constant('facebook/react') },
        { weight: 2, arbitrary: fc.constantFrom(...known.repoIds) },
        { weight: 2, arbitrary: fc.constantFrom(...known.addable) },
        // Match the owner/name pattern, yet are path steps in a GitHub API URL.
        {
          weight: 2,
          arbitrary: fc.constantFrom('../rate_limit', '../user', '../graphql', './react', 'facebook/..'),
        },
      )
    : repoIdSegment();
  return {
    id: repoId,
    repo_id: repoId,
    url: fc.oneof(
      repoId.map((id) => `https://github.com/${id}`),
      fc.constantFrom('https://hooks.slack.com/services/T0/B0/fuzz', 'http://127.0.0.1:9/x'),
    ),
    version1_id: fc.constantFrom(...known.versionIds),
    version2_id: fc.constantFrom(...known.versionIds),
    token: fc.constantFrom(MEMBER_TOKEN, ADMIN_TOKEN),
    // A third account: login floods may lock it (429) without locking out the two callers.
    email_or_username: fc.constantFrom(victim.email, victim.username),
    email: fc.constantFrom(victim.email),
  };
}

function queryArb(parameters: OpenApiParameter[], hints: Record<string, fc.Arbitrary<unknown>>) {
  const query = parameters.filter((parameter) => parameter.in === 'query');
  const encodedValue = (arbitrary: fc.Arbitrary<unknown>) =>
    arbitrary.map((value) => encodeLoosely(String(value)));
  const pair = fc.oneof(
    ...query.map((parameter) =>
      fc.tuple(
        fc.constant(parameter.name),
        fc.oneof(
          encodedValue(hints[parameter.name] ?? validArb(parameter.schema)),
          encodedValue(validArb(parameter.schema)),
          junkSegment,
        ),
      ),
    ),
    fc.tuple(
      fc.oneof(
        fc.constantFrom('__proto__', 'constructor', '__proto__[is_admin]', 'a[]', 'a[b]', 'toString', ''),
        fc.string({ maxLength: 10 }).map(encodeLoosely),
      ),
      junkSegment,
    ),
  );
  const valid = validQueryArb(parameters, hints);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 4, arbitrary: valid },
    {
      weight: 4,
      arbitrary: fc
        .array(pair, { maxLength: 5 })
        .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&')),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '&&&',
        '=',
        'a',
        '%',
        'a=%zz',
        '?',
        '#x',
        'a=1&a=2&a=3',
        'a=1&'.repeat(2000),
      ),
    },
  );
}

/** A query string with every required parameter and some optional ones, values from the schema or hints. */
function validQueryArb(parameters: OpenApiParameter[], hints: Record<string, fc.Arbitrary<unknown>>) {
  const query = parameters.filter((parameter) => parameter.in === 'query');
  return query.length > 0
    ? fc
        .record(
          Object.fromEntries(
            query.map((parameter) => {
              const own = validArb(parameter.schema);
              const hint = hints[parameter.name];
              return [parameter.name, hint ? fc.oneof({ weight: 3, arbitrary: hint }, own) : own];
            }),
          ),
          {
            requiredKeys: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
          },
        )
        .map((record) =>
          Object.entries(record)
            .map(([key, value]) => `${key}=${encodeLoosely(String(value))}`)
            .join('&'),
        )
    : fc.constant('');
}

const acceptHeaders = fc.constantFrom(
  undefined,
  'application/json',
  'application/x-ndjson',
  'text/csv',
  'text/html',
  '*/*',
  'application/xml;q=0.9, */*;q=0',
  '',
);
const acceptEncodings = fc.constantFrom(
  undefined,
  undefined,
  'gzip',
  'br',
  'deflate',
  'identity;q=0',
  'gzip;q=abc, *',
  'zstd',
);
const junkAuthorization = fc.constantFrom(
  undefined,
  undefined,
  undefined,
  'Bearer',
  'Bearer ',
  'Bearer x.y.z',
  'Basic Zm9vOmJhcg==',
  'bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxIiwidHlwIjoiYWNjZXNzIn0.',
  `Bearer ${'a'.repeat(5000)}`,
  'Bearer 😀',
);

/**
 * Repository ids that pass the owner/name pattern yet are path steps (or worse) once put in a
 * GitHub API URL. Random generation reaches them only now and then, so every route that takes
 * a repository id (path, query or body) also gets them as fixed examples, run before the
 * generated requests.
 */
const TRICKY_REPOSITORY_IDS = ['../rate_limit', '../user', './react', 'facebook/..', '..../x', '-/-'];

type FuzzRequest = {
  url: string;
  query: string;
  body: Body;
  accept: string | undefined;
  acceptEncoding: string | undefined;
  remoteAddress: string;
  anonymousAuthorization: string | undefined;
};

function corpusFor(
  url: string,
  parameters: OpenApiParameter[],
  bodySchema: JsonSchema | undefined,
): FuzzRequest[] {
  const base = {
    query: '',
    body: { payload: undefined, contentType: undefined },
    accept: undefined,
    acceptEncoding: undefined,
    remoteAddress: '127.0.0.1',
    anonymousAuthorization: undefined,
  };
  const examples: FuzzRequest[] = [];
  const takesRepository = url.includes(':id') && url.startsWith('/repositories');
  const realUrl = url.replace(':id', encodeURIComponent('facebook/react'));
  for (const id of TRICKY_REPOSITORY_IDS) {
    if (takesRepository) examples.push({ ...base, url: url.replace(':id', encodeURIComponent(id)) });
    if (parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'repo_id')) {
      examples.push({
        ...base,
        url: realUrl,
        query: `repo_id=${encodeURIComponent(id)}&version1_id=1&version2_id=2`,
      });
    }
    if (bodySchema?.properties?.id) {
      const payload = JSON.stringify({ id });
      examples.push({ ...base, url: realUrl, body: { payload, contentType: 'application/json' } });
    }
    if (bodySchema?.properties?.items) {
      const payload = JSON.stringify({ items: [{ id }, { url: `https://github.com/${id}` }] });
      examples.push({ ...base, url: realUrl, body: { payload, contentType: 'application/json' } });
    }
  }
  return examples;
}

// ---------------------------------------------------------------------------------------------
// The property
// ---------------------------------------------------------------------------------------------

function decodeBody(response: LightMyRequestResponse): string {
  const raw = response.rawPayload;
  switch (response.headers['content-encoding']) {
    case 'gzip':
      return gunzipSync(raw).toString('utf8');
    case 'br':
      return brotliDecompressSync(raw).toString('utf8');
    case 'deflate':
      return inflateSync(raw).toString('utf8');
    case 'zstd':
      return zstdDecompressSync(raw).toString('utf8');
    default:
      return raw.toString('utf8');
  }
}

const strictErrorBody = errorBodySchema.strict();

function checkResponse(description: string, method: Method, response: LightMyRequestResponse) {
  const status = response.statusCode;
  expect(status, `${description} → ${status} ${response.body.slice(0, 300)}`).toBeLessThan(500);
  if (status < 400 || method === 'HEAD') return;
  const text = decodeBody(response);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${description} → ${status} with a body that is not JSON: ${text.slice(0, 300)}`);
  }
  const parsed = strictErrorBody.safeParse(body);
  expect(parsed.success, `${description} → ${status} body is not the error body: ${text.slice(0, 300)}`).toBe(
    true,
  );
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  if (status === 429) {
    expect(response.headers['retry-after'], `${description} → 429 without Retry-After`).toBe(
      String((body as { retry_after?: number }).retry_after),
    );
  }
}

function hashRoute(text: string): number {
  let hash = 0;
  for (const char of text) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) | 0;
  return hash;
}

const fuzzedRoutes = t.app.routeAccess.filter(
  (route) =>
    !route.url.startsWith('/docs') &&
    route.url !== '/*' &&
    // The MCP server answers JSON-RPC messages (the SDK's, not the one error body); its own
    // tests send it malformed calls (server/modules/mcp/mcp.test.ts, docs/mcp.md).
    route.url !== '/mcp' &&
    (!process.env.FUZZ_ROUTE || `${route.method} ${route.url}`.includes(process.env.FUZZ_ROUTE)),
);
const totals = { requests: 0, started: 0 };

function operationOf(route: { method: string; url: string }): OpenApiOperation | undefined {
  const path = route.url.replace(/:(\w+)/g, '{$1}');
  return openapi.paths[path]?.[route.method === 'HEAD' ? 'get' : route.method.toLowerCase()];
}

describe('fuzzing never produces a 5xx (docs/security.md#g1, #h6)', () => {
  beforeAll(() => {
    totals.started = Date.now();
  });
  afterAll(() => {
    console.log(
      `fuzz: ${fuzzedRoutes.length} routes, ${totals.requests} requests in ${((Date.now() - totals.started) / 1000).toFixed(1)} s (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS})`,
    );
  });

  it('covers the whole API, every route documented in /docs/json', () => {
    if (!process.env.FUZZ_ROUTE) expect(fuzzedRoutes.length).toBeGreaterThan(40);
    for (const route of fuzzedRoutes) {
      expect(operationOf(route), `${route.method} ${route.url} is in /docs/json`).toBeDefined();
    }
  });

  for (const route of fuzzedRoutes) {
    it(`${route.method} ${route.url}`, async () => {
      // A fresh quota and catalogue on the GitHub side, both callers signed in with tokens,
      // and the seeded repository in place.
      t.github.reset();
      await heal();
      await seedRepository();
      const method = route.method as Method;
      const operation = operationOf(route) ?? {};
      const parameters = operation.parameters ?? [];
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const hints = hintsFor();
      const wellFormedHints = hintsFor(true);
      const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
      const pathArb = (param: (route: string, name: string) => fc.Arbitrary<string>) =>
        fc.tuple(...names.map((name) => param(route.url, name))).map((values) => {
          let url = route.url;
          names.forEach((name, index) => {
            url = url.replace(`:${name}`, values[index] ?? '');
          });
          return url;
        });
      const address = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constant('127.0.0.1'));
      // One request in three is well-formed (real ids, schema-valid query and body, JSON), so
      // the handlers, the database and GitHub get exercised and not only the validation.
      const wellFormed = fc.record({
        url: pathArb(validPathParamArb),
        query: validQueryArb(parameters, wellFormedHints),
        body: bodySchema
          ? validArb(bodySchema, wellFormedHints).map(
              (value): Body => ({ payload: JSON.stringify(value), contentType: 'application/json' }),
            )
          : fc.constant<Body>({ payload: undefined, contentType: undefined }),
        accept: fc.constantFrom(undefined, 'application/json', 'application/x-ndjson'),
        acceptEncoding: fc.constant(undefined),
        remoteAddress: address,
        anonymousAuthorization: fc.constant(undefined),
      });
      const fuzzed = fc.record({
        url: pathArb(pathParamArb),
        query: queryArb(parameters, hints),
        body: bodyArb(method, bodySchema, hints),
        accept: acceptHeaders,
        acceptEncoding: acceptEncodings,
        remoteAddress: address,
        anonymousAuthorization: junkAuthorization,
      });
      const requestArb = fc.oneof({ weight: 1, arbitrary: wellFormed }, { weight: 2, arbitrary: fuzzed });

      await fc.assert(
        fc.asyncProperty(requestArb, async (request) => {
          const url = request.query ? `${request.url}?${request.query}` : request.url;
          let changedState = false;
          for (const caller of ['anonymous', 'member', 'admin'] as const) {
            const headers: Record<string, string> = {};
            if (caller === 'member') Object.assign(headers, member.headers);
            else if (caller === 'admin') Object.assign(headers, admin.headers);
            else if (request.anonymousAuthorization) headers.authorization = request.anonymousAuthorization;
            if (request.body.contentType !== undefined) headers['content-type'] = request.body.contentType;
            if (request.accept !== undefined) headers.accept = request.accept;
            if (request.acceptEncoding !== undefined) headers['accept-encoding'] = request.acceptEncoding;
            const description = `${caller} ${method} ${url.slice(0, 300)} content-type=${JSON.stringify(
              request.body.contentType,
            )} body=${JSON.stringify(request.body.payload?.slice(0, 300))}`;
            const response = await t.app.inject({
              method,
              url,
              headers,
              remoteAddress: request.remoteAddress,
              ...(request.body.payload !== undefined ? { payload: request.body.payload } : {}),
            });
            totals.requests += 1;
            if (process.env.FUZZ_DEBUG) {
              appendFileSync(
                process.env.FUZZ_DEBUG,
                `${JSON.stringify({
                  route: `${route.method} ${route.url}`,
                  caller,
                  status: response.statusCode,
                  body: response.statusCode >= 400 ? decodeBody(response).slice(0, 200) : undefined,
                  url: url.slice(0, 300),
                })}\n`,
              );
            }
            checkResponse(description, method, response);
            if (response.statusCode < 300 && !['GET', 'HEAD'].includes(method)) changedState = true;
          }
          if (changedState) {
            await heal();
            await seedRepository();
          }
        }),
        {
          seed: SEED ^ hashRoute(`${route.method} ${route.url}`),
          numRuns: RUNS,
          examples: corpusFor(route.url, parameters, bodySchema).map((example) => [example]),
        },
      );
    });
  }
});
