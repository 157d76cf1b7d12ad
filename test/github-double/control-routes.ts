import { z } from 'zod';
import { ADVISORY_ECOSYSTEMS, ADVISORY_SEVERITIES, ADVISORY_TYPES } from './advisories.ts';
import { SNAPSHOT_DATES } from './ranking-snapshots.ts';
import type { GitHubDouble } from './server.ts';
import type { JsonValue } from './shapes.ts';

/**
 * HTTP control of a double running in another process (Playwright's web server, `npm run
 * demo`): the same switches the GitHubDouble object offers, under /_double/. Only served when
 * started with `control: true`; never counted, never delayed, never rate limited.
 */

export const CONTROL_PREFIX = '/_double/';

const fullName = z.object({ fullName: z.string().min(3) });
const token = z.object({ token: z.string().min(1) });
const limitStatus = z.union([z.literal(403), z.literal(429)]).optional();

interface ControlCommand {
  /** Runs the command: a validation message when the input is wrong, or what it made (added to the answer). */
  execute(double: GitHubDouble, input: unknown): { problem?: string; result?: JsonValue };
}

/** Pairs a body schema with what to do, so each command's input is typed by its schema. */
function command<S extends z.ZodType>(
  schema: S,
  run: (double: GitHubDouble, input: z.infer<S>) => void,
): ControlCommand {
  return resultCommand(schema, (double, input) => {
    run(double, input);
    return undefined;
  });
}

/** A command whose answer also carries what it made (`result`), e.g. an advisory's id. */
function resultCommand<S extends z.ZodType>(
  schema: S,
  run: (double: GitHubDouble, input: z.infer<S>) => JsonValue | undefined,
): ControlCommand {
  return {
    execute(double, input) {
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        return { problem: parsed.error.message };
      }
      const result = run(double, parsed.data);
      return result === undefined ? {} : { result };
    },
  };
}

const none = z.object({});

const COMMANDS: Readonly<Record<string, ControlCommand>> = {
  'POST /_double/reset': command(none, (double) => double.reset()),
  'POST /_double/snapshot': command(z.object({ snapshot: z.enum(SNAPSHOT_DATES) }), (double, { snapshot }) =>
    double.setSnapshot(snapshot),
  ),
  'POST /_double/faults/latency': command(z.object({ ms: z.number().min(0) }), (double, { ms }) =>
    double.inject.latency(ms),
  ),
  'POST /_double/faults/server-errors': command(
    z.object({ count: z.number().int().min(1), status: z.number().int().min(500).max(599).optional() }),
    (double, { count, status }) => double.inject.serverErrors(count, status),
  ),
  'POST /_double/faults/rate-limit': command(
    z.object({
      untilEpochS: z.number().int(),
      resource: z.enum(['core', 'graphql', 'search']).optional(),
      status: limitStatus,
    }),
    (double, input) => double.inject.rateLimit(input),
  ),
  'POST /_double/faults/secondary-limit': command(
    z.object({ retryAfterS: z.number().positive(), status: limitStatus }),
    (double, { retryAfterS, status }) => double.inject.secondaryLimit(retryAfterS, { status }),
  ),
  'POST /_double/faults/secondary-limit-for': command(
    z.object({ requests: z.number().int().min(1), retryAfterS: z.number().positive() }),
    (double, { requests, retryAfterS }) => double.inject.secondaryLimitFor(requests, retryAfterS),
  ),
  'POST /_double/faults/hang': command(none, (double) => double.inject.hang()),
  'POST /_double/faults/graphql-too-large': command(
    z.object({ maxAliases: z.number().int().min(0) }),
    (double, { maxAliases }) => double.inject.graphqlTooLarge(maxAliases),
  ),
  'POST /_double/faults/huge-body': command(
    z.object({ bytes: z.number().int().min(1).optional() }),
    (double, { bytes }) => double.inject.hugeBody(bytes),
  ),
  'POST /_double/faults/slow-drip': command(
    z.object({ intervalMs: z.number().int().min(1).optional() }),
    (double, { intervalMs }) => double.inject.slowDrip(intervalMs),
  ),
  'POST /_double/faults/reset-connection': command(none, (double) => double.inject.resetConnection()),
  'POST /_double/faults/clear': command(none, (double) => double.inject.clear()),
  'POST /_double/repositories/remove': command(fullName, (double, input) =>
    double.removeRepository(input.fullName),
  ),
  'POST /_double/repositories/restore': command(fullName, (double, input) =>
    double.restoreRepository(input.fullName),
  ),
  'POST /_double/repositories/rename': command(
    fullName.extend({ newFullName: z.string().min(3) }),
    (double, input) => double.renameRepository(input.fullName, input.newFullName),
  ),
  'POST /_double/tokens/grant-private-access': command(token, (double, input) =>
    double.grantPrivateAccess(input.token),
  ),
  'POST /_double/tokens/revoke': command(token, (double, input) => double.revokeToken(input.token)),
  'POST /_double/releases/publish': command(
    fullName.extend({
      tag: z.string().min(1).max(255),
      name: z.string().max(255).nullable().optional(),
      body: z.string().max(10_000).nullable().optional(),
      prerelease: z.boolean().optional(),
      draft: z.boolean().optional(),
    }),
    (double, { fullName: name, ...release }) => {
      double.releases.publish(name, release);
    },
  ),
  'POST /_double/releases/delete': command(fullName.extend({ tag: z.string().min(1) }), (double, input) =>
    double.releases.delete(input.fullName, input.tag),
  ),
  'POST /_double/tags/push': command(fullName.extend({ tag: z.string().min(1).max(255) }), (double, input) =>
    double.releases.pushTag(input.fullName, input.tag),
  ),
  'POST /_double/advisories/add': resultCommand(
    z.object({
      summary: z.string().min(1).max(1024),
      severity: z.enum(ADVISORY_SEVERITIES).optional(),
      type: z.enum(ADVISORY_TYPES).optional(),
      repository: z.string().min(3).nullable().optional(),
      repositoryAdvisory: z.boolean().optional(),
      ghsaId: z
        .string()
        .regex(/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/)
        .optional(),
      cveId: z.string().nullable().optional(),
      description: z.string().max(65_535).optional(),
      vulnerabilities: z
        .array(
          z.object({
            ecosystem: z.enum(ADVISORY_ECOSYSTEMS),
            package: z.string().min(1),
            vulnerableVersionRange: z.string().min(1).optional(),
            firstPatchedVersion: z.string().min(1).nullable().optional(),
          }),
        )
        .min(1),
    }),
    (double, input) => ({ ghsaId: double.addAdvisory(input).ghsaId }),
  ),
  'POST /_double/advisories/withdraw': command(z.object({ ghsaId: z.string().min(1) }), (double, input) => {
    if (!double.withdrawAdvisory(input.ghsaId)) throw new Error(`No advisory ${input.ghsaId}`);
  }),
};

export async function handleControlRequest(
  double: GitHubDouble,
  method: string,
  pathname: string,
  readBody: () => Promise<string>,
): Promise<{ status: number; body: JsonValue }> {
  const route = `${method} ${pathname.replace(/\/$/, '')}`;
  if (route === 'GET /_double/state') {
    return { status: 200, body: state(double) };
  }
  const found = COMMANDS[route];
  if (!found) {
    return {
      status: 404,
      body: { message: `Unknown control route ${route}`, routes: Object.keys(COMMANDS) },
    };
  }
  const text = await readBody();
  let input: unknown;
  try {
    input = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { status: 400, body: { message: 'Body is not JSON' } };
  }
  let outcome: { problem?: string; result?: JsonValue };
  try {
    outcome = found.execute(double, input);
    if (outcome.problem) {
      return { status: 400, body: { message: outcome.problem } };
    }
  } catch (error) {
    // e.g. removing a repository that does not exist.
    return { status: 422, body: { message: error instanceof Error ? error.message : String(error) } };
  }
  const body = state(double) as { [key: string]: JsonValue };
  return { status: 200, body: outcome.result === undefined ? body : { ...body, result: outcome.result } };
}

function state(double: GitHubDouble): JsonValue {
  return {
    url: double.url,
    snapshot: double.snapshot,
    counts: { total: double.counts.total(), counted: double.counts.counted(), byKey: double.counts.byKey() },
  };
}
