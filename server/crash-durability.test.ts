import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubDouble, startGitHubDouble } from '../test/github-double/index.ts';
import { CHILD_ENV } from '../test/helpers/child-env.ts';
import { appLinkInMail } from '../test/helpers/smtp-sink.ts';
import { testDialect } from '../test/helpers/test-database.ts';
import { WAIT_CEILING_MS } from '../test/helpers/wait-ceiling.ts';
import { hashToken } from './lib/secret-box.ts';

/**
 * docs/security.md#h2: the kill -9 loop on SQLite. Each iteration starts the real server
 * (`server/main.ts`, as `npm start` does) on the same DATA_DIR, runs concurrent writers
 * against it (refresh-token rotation chains, profile updates, comments, personal-token
 * changes, sign-in/sign-out churn), SIGKILLs it at a random moment (usually with requests in
 * flight, sometimes idle), then opens the database file directly and checks:
 *   - `pragma integrity_check` is ok and `foreign_key_check` finds nothing;
 *   - every write the server acknowledged (2xx) is there, and last-write-wins fields hold the
 *     last acknowledged value or one sent after it (never an older one);
 *   - no refresh-token family is half-rotated: at most one live (unused, unrevoked) token per
 *     family, and a family with none was ended by a revocation, not by a consumed token whose
 *     successor never landed; every token the client still holds and never presented is live.
 *
 * SQLite only (the file is opened directly); under TEST_DB=postgres it is skipped.
 * CRASH_ITERATIONS (default 12, within the suite's time budget) sets the number of kills; CRASH_SEED
 * makes the timings repeatable.
 *
 * Nothing here depends on the machine's speed (docs/decisions.md#tests-on-a-busy-machine-issue-23):
 * each kill comes a random moment after the run's first acknowledged writes (a count, not a
 * time), every wait has a generous ceiling, and the test's time-out is derived from the
 * iterations and those ceilings.
 */
const ITERATIONS = Number(process.env.CRASH_ITERATIONS ?? 12);
/** A server process boots in a second idle, many on a busy machine. */
const START_CEILING_MS = 2 * WAIT_CEILING_MS;
/** Until a restarted server has acknowledged the run's first writes. */
const WRITES_CEILING_MS = 2 * WAIT_CEILING_MS;
/** How long after those writes the kill may come: requests are in flight all along. */
const KILL_WINDOW_MS = 200;
/** Each iteration: boot, sign-ins, the first writes, the kill window, the checks. */
const ITERATION_CEILING_MS = START_CEILING_MS + WRITES_CEILING_MS + WAIT_CEILING_MS;
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const mainFile = new URL('./main.ts', import.meta.url).pathname;
const SECRET_KEY = 'crash-test-secret-key-0123456789abcdef0123456789abcdef';
const PASSWORD = 'Passw0rd!crash';
const REPOSITORY = 'facebook/react';

if (testDialect === 'postgres') {
  console.log('crash-durability.test.ts: skipped under TEST_DB=postgres (it checks the SQLite file itself)');
}

/** mulberry32: a small seeded generator, so a failing run's timings can be replayed. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = seededRandom(SEED);

// ---------------------------------------------------------------------------------------------
// What the client knows: every write it sent, and whether the server acknowledged it
// ---------------------------------------------------------------------------------------------

type Sent<T> = { value: T; acked: boolean };
/** Chains of refresh rotations; `presented` is set once the current token was sent again. */
type Chain = { token: string; presented: boolean };

const model = {
  owner: false,
  registered: false,
  verified: false,
  firstNames: [] as Sent<string>[],
  tokenLastFours: [] as Sent<string>[],
  comments: [] as { text: string; id?: number; acked: boolean }[],
  /** Refresh tokens handed out by acknowledged logins and rotations. */
  issued: [] as string[],
  /** Acknowledged rotations: the presented token must be used, its successor stored. */
  rotations: [] as { presented: string; next: string }[],
  /** Acknowledged logouts: the family of this token is revoked. */
  logouts: [] as string[],
  chains: [] as Chain[],
};
let account: { email: string; username: string; id?: number };
let access = '';
let counter = 0;
const unique = () => String(++counter).padStart(4, '0');

const acked = (list: { acked: boolean }[]) => list.filter((entry) => entry.acked).length;

/** Polls `check` until it holds; throws naming `what` after `ceilingMs`. */
async function until(check: () => boolean, ceilingMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ceilingMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ceilingMs} ms waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Last-write-wins: the stored value is the last acknowledged one or one sent after it. */
function allowedValues<T>(sent: Sent<T>[], initial: T): T[] {
  let lastAcked = -1;
  sent.forEach((write, index) => {
    if (write.acked) lastAcked = index;
  });
  const tail = sent.slice(lastAcked === -1 ? 0 : lastAcked).map((write) => write.value);
  return lastAcked === -1 ? [initial, ...tail] : tail;
}

// ---------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------

let dataDir: string;
let github: GitHubDouble;
let child: ChildProcess | undefined;

interface Server {
  base: string;
  process: ChildProcess;
  exited: Promise<void>;
  output: () => string;
}

async function startServer(): Promise<Server> {
  const proc = spawn(process.execPath, [mainFile], {
    cwd: dataDir,
    env: {
      ...CHILD_ENV,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      // The test reads the log's JSON lines (the listening address, the outbox file).
      LOG_FORMAT: 'json',
      SYNC_SCHEDULE: 'off',
      BACKUP_SCHEDULE: 'off',
      SECRET_KEY,
      GITHUB_API_URL: github.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let output = '';
  proc.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  proc.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const listening = () => output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
  try {
    await until(
      () => listening() !== undefined || proc.exitCode !== null,
      START_CEILING_MS,
      () => `the server to listen:\n${output}`,
    );
  } catch (error) {
    proc.kill('SIGKILL');
    throw error;
  }
  const base = listening();
  if (!base) throw new Error(`server did not start:\n${output}`);
  return { base, process: proc, exited, output: () => output };
}

type Answer = { status: number; body: Record<string, unknown> } | { status: 'failed' };

/** One call; a connection that breaks (the kill) is `failed`, never an acknowledgement. */
async function call(
  server: Server,
  method: string,
  path: string,
  body?: unknown,
  token = access,
): Promise<Answer> {
  try {
    const response = await fetch(`${server.base}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  } catch {
    return { status: 'failed' };
  }
}

const ok = (answer: Answer): answer is { status: number; body: Record<string, unknown> } =>
  answer.status !== 'failed' && answer.status >= 200 && answer.status < 300;

async function login(server: Server): Promise<string | null> {
  const answer = await call(server, 'POST', '/auth/login', {
    email_or_username: account.email,
    password: PASSWORD,
  });
  if (!ok(answer)) return null;
  const refresh = String(answer.body.refresh_token);
  model.issued.push(refresh);
  access = String(answer.body.access_token);
  return refresh;
}

// ---------------------------------------------------------------------------------------------
// Writers: each runs until `stop` is set or the server goes away
// ---------------------------------------------------------------------------------------------

const state = { stop: false, rotationsLeft: 0 };

async function rotationChain(server: Server, chain: Chain) {
  while (!state.stop && state.rotationsLeft > 0) {
    state.rotationsLeft -= 1;
    chain.presented = true;
    const answer = await call(server, 'POST', '/auth/refresh', { refresh_token: chain.token }, '');
    if (answer.status === 429) {
      chain.presented = false; // refused before the handler: the token was not touched
      return;
    }
    if (!ok(answer)) return; // killed mid-call: this chain's token is now unknown
    const next = String(answer.body.refresh_token);
    model.issued.push(next);
    model.rotations.push({ presented: chain.token, next });
    access = String(answer.body.access_token);
    chain.token = next;
    chain.presented = false;
  }
}

async function profileWriter(server: Server) {
  while (!state.stop) {
    const write = { value: `Ada${unique()}`, acked: false };
    model.firstNames.push(write);
    const answer = await call(server, 'PATCH', '/auth/me', {
      first_name: write.value,
      last_name: 'Lovelace',
    });
    if (!ok(answer)) return;
    write.acked = true;
  }
}

async function personalTokenWriter(server: Server) {
  while (!state.stop) {
    const token = `ghp_crash${unique()}`;
    const write = { value: token.slice(-4), acked: false };
    model.tokenLastFours.push(write);
    const answer = await call(server, 'PUT', '/auth/me/github-token', { token });
    if (!ok(answer)) return;
    write.acked = true;
  }
}

async function commentWriter(server: Server) {
  while (!state.stop) {
    const entry: { text: string; id?: number; acked: boolean } = { text: `note ${unique()}`, acked: false };
    model.comments.push(entry);
    const answer = await call(server, 'POST', `/repositories/${encodeURIComponent(REPOSITORY)}/comments`, {
      comment: entry.text,
    });
    if (!ok(answer)) return;
    entry.id = Number((answer.body.comment as { id: number }).id);
    entry.acked = true;
  }
}

/** Signs in, rotates once, signs out: new families that end by revocation. */
async function sessionChurn(server: Server) {
  for (let round = 0; round < 2 && !state.stop; round++) {
    const refresh = await login(server);
    if (!refresh) return;
    const rotated = await call(server, 'POST', '/auth/refresh', { refresh_token: refresh }, '');
    if (!ok(rotated)) return;
    const next = String(rotated.body.refresh_token);
    model.issued.push(next);
    model.rotations.push({ presented: refresh, next });
    const out = await call(server, 'POST', '/auth/logout', { refresh_token: next }, '');
    if (!ok(out)) return;
    model.logouts.push(next);
  }
}

// ---------------------------------------------------------------------------------------------
// The checks, on the database file itself
// ---------------------------------------------------------------------------------------------

type TokenRow = { family_id: string; used_at: string | null; revoked_at: string | null; token_hash: string };

function checkDatabase(iteration: number) {
  const db = new Database(join(dataDir, 'repo-tracker.db'));
  try {
    const where = `after kill ${iteration} (CRASH_SEED=${SEED})`;
    expect(db.pragma('integrity_check', { simple: true }), `integrity_check ${where}`).toBe('ok');
    expect(db.pragma('foreign_key_check'), `foreign_key_check ${where}`).toEqual([]);

    if (model.owner) {
      const owner = db
        .prepare('SELECT is_admin, is_verified FROM users WHERE email = ?')
        .get('owner@example.com');
      expect(owner, `first account ${where}`).toEqual({ is_admin: 1, is_verified: 1 });
    }
    if (model.registered) {
      const user = db.prepare('SELECT * FROM users WHERE email = ?').get(account.email) as
        | { id: number; first_name: string; is_verified: number; github_token_last_four: string | null }
        | undefined;
      expect(user, `registered account ${where}`).toBeDefined();
      if (!user) return;
      if (model.verified) expect(user.is_verified, `verified ${where}`).toBe(1);
      expect(allowedValues(model.firstNames, 'Ada'), `first_name ${where}`).toContain(user.first_name);
      expect(allowedValues<string | null>(model.tokenLastFours, null), `personal token ${where}`).toContain(
        user.github_token_last_four,
      );
    }

    const commentById = db.prepare('SELECT comment FROM comments WHERE id = ?');
    for (const entry of model.comments.filter((candidate) => candidate.acked)) {
      expect(commentById.get(entry.id), `acknowledged comment ${entry.id} ${where}`).toEqual({
        comment: entry.text,
      });
    }

    const tokenByHash = db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?');
    // A missing row fails here: `expect(missing?.used_at).not.toBeNull()` would pass on undefined.
    const row = (token: string, what: string) => {
      const found = tokenByHash.get(hashToken(token)) as TokenRow | undefined;
      expect(found, `${what}: its row exists ${where}`).toBeDefined();
      return found as TokenRow;
    };
    for (const token of model.issued) row(token, 'acknowledged refresh token');
    for (const rotation of model.rotations) {
      const presented = row(rotation.presented, 'token presented to an acknowledged rotation');
      const next = row(rotation.next, 'token an acknowledged rotation issued');
      expect(presented.used_at, `acknowledged rotation consumed its token ${where}`).not.toBeNull();
      expect(next.family_id, `acknowledged rotation stayed in its family ${where}`).toBe(presented.family_id);
    }
    for (const token of model.logouts) {
      expect(row(token, 'acknowledged logout').revoked_at, `acknowledged logout ${where}`).not.toBeNull();
    }
    for (const chain of model.chains.filter((candidate) => !candidate.presented)) {
      const held = row(chain.token, 'token the client holds');
      expect([held.used_at, held.revoked_at], `token the client holds is live ${where}`).toEqual([
        null,
        null,
      ]);
    }

    const families = db
      .prepare(
        `SELECT family_id,
                SUM(CASE WHEN used_at IS NULL AND revoked_at IS NULL THEN 1 ELSE 0 END) AS live,
                SUM(CASE WHEN revoked_at IS NOT NULL THEN 1 ELSE 0 END) AS revoked,
                COUNT(*) AS tokens
           FROM refresh_tokens GROUP BY family_id`,
      )
      .all() as { family_id: string; live: number; revoked: number; tokens: number }[];
    for (const family of families) {
      expect(
        family.live,
        `family ${family.family_id} has at most one live token ${where}`,
      ).toBeLessThanOrEqual(1);
      if (family.live === 0) {
        expect(
          family.revoked,
          `family ${family.family_id} is half-rotated (its token was consumed, no successor) ${where}`,
        ).toBeGreaterThan(0);
      }
    }
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The loop
// ---------------------------------------------------------------------------------------------

async function setUp(server: Server) {
  // The first account of an empty instance is its administrator, verified at once; the member
  // who does the writing is the second one and confirms the address from the link in the mail
  // the outbox holds (the log names the file, never the link).
  const first = await call(
    server,
    'POST',
    '/auth/register',
    {
      email: 'owner@example.com',
      username: 'owner',
      first_name: 'Grace',
      last_name: 'Hopper',
      password: PASSWORD,
    },
    '',
  );
  expect(first.status, JSON.stringify(first)).toBe(201);
  model.owner = true;
  account = { email: `crash-${SEED}@example.com`, username: `crash_${SEED}` };
  const registered = await call(
    server,
    'POST',
    '/auth/register',
    { ...account, first_name: 'Ada', last_name: 'Lovelace', password: PASSWORD },
    '',
  );
  expect(registered.status, server.output()).toBe(201);
  model.registered = true;
  let link: string | undefined;
  // The mail leaves from the job queue: its file is named in the log once it is written.
  await until(
    () => {
      const file = server.output().match(/"file":"([^"]+\.eml)"/)?.[1];
      link = file
        ? appLinkInMail(readFileSync(file, 'utf8'))?.match(/token=([A-Za-z0-9_-]+)/)?.[1]
        : undefined;
      return link !== undefined;
    },
    WAIT_CEILING_MS,
    () => `the verification link in the log: ${server.output().slice(-2000)}`,
  );
  const verified = await call(server, 'POST', '/auth/verify-email', { token: link }, '');
  expect(verified.status, JSON.stringify(verified)).toBe(200);
  model.verified = true;
  const refresh = await login(server);
  expect(refresh).not.toBeNull();
  const added = await call(server, 'POST', '/repositories/', { id: REPOSITORY });
  expect(added.status, JSON.stringify(added)).toBe(201);
}

async function iterate(iteration: number) {
  const server = await startServer();
  try {
    if (iteration === 0) await setUp(server);
    // Chains whose token was in flight at the last kill are unknown now: start new ones.
    model.chains = model.chains.filter((chain) => !chain.presented);
    while (model.chains.length < 3) {
      const refresh = await login(server);
      expect(refresh, `login after restart ${iteration}: ${server.output().slice(-500)}`).not.toBeNull();
      model.chains.push({ token: refresh as string, presented: false });
    }

    state.stop = false;
    state.rotationsLeft = 90; // the refresh limit is 120 per 15 minutes per client
    const writers = Promise.all([
      ...model.chains.map((chain) => rotationChain(server, chain)),
      profileWriter(server),
      personalTokenWriter(server),
      commentWriter(server),
      sessionChurn(server),
    ]);
    // The kill waits for this run's first acknowledged rotation and comment, however long a busy
    // machine takes to give them, then comes at a random moment while the writers go on.
    const before = { rotations: model.rotations.length, comments: acked(model.comments) };
    await until(
      () => model.rotations.length > before.rotations && acked(model.comments) > before.comments,
      WRITES_CEILING_MS,
      () => `acknowledged writes after restart ${iteration}: ${server.output().slice(-500)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, random() * KILL_WINDOW_MS));
    if (iteration % 5 === 4) {
      // Now and then, a kill with nothing in flight.
      state.stop = true;
      await writers;
    }
    server.process.kill('SIGKILL');
    await server.exited;
    state.stop = true;
    await writers;
  } finally {
    server.process.kill('SIGKILL');
    await server.exited;
  }
  checkDatabase(iteration);
}

describe.skipIf(testDialect === 'postgres')('kill -9 loop on SQLite (docs/security.md#h2)', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rt-crash-'));
    github = await startGitHubDouble();
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await github?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    `survives ${ITERATIONS} SIGKILLs with every acknowledged write and no half-rotated session`,
    async () => {
      console.log(`crash loop: CRASH_SEED=${SEED}`);
      const started = Date.now();
      for (let iteration = 0; iteration < ITERATIONS; iteration++) await iterate(iteration);
      console.log(
        `crash loop: ${ITERATIONS} kills in ${((Date.now() - started) / 1000).toFixed(1)} s (CRASH_SEED=${SEED}); ` +
          `acknowledged: ${model.rotations.length} rotations, ${acked(model.firstNames)} profile updates, ` +
          `${acked(model.tokenLastFours)} token changes, ${acked(model.comments)} comments, ${model.logouts.length} logouts`,
      );
      // The loop must really have written, or it proves nothing: every kill came after at least one
      // acknowledged rotation and comment of its run, whatever the machine's load.
      expect(model.rotations.length).toBeGreaterThanOrEqual(ITERATIONS);
      expect(acked(model.comments)).toBeGreaterThanOrEqual(ITERATIONS);
    },
    ITERATIONS * ITERATION_CEILING_MS,
  );
});
