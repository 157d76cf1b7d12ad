import type { GraphQLResolveInfo } from 'graphql';
import type { Caller } from './quota.ts';
import type { RepositoryDirectory } from './repository-directory.ts';
import type { JsonObject } from './shapes.ts';

/**
 * What every resolver table shares (graphql-resolvers.ts, graphql-health-resolvers.ts): the
 * context, GitHub-shaped field errors, the "not modelled" error, and connections (windows of
 * `totalCount` items that `first`/`last`/`after`/`before` select).
 */

export interface GraphqlContext {
  directory: RepositoryDirectory;
  caller: Caller;
  /** `rateLimit { … }`: the ledger after this query is charged. */
  rateLimit: {
    cost: number;
    nodeCount: number;
    limit: number;
    remaining: number;
    used: number;
    resetAt: string;
  };
}

/** A field error in GitHub's shape: `type` (NOT_FOUND, …) next to path, locations and message. */
export class GitHubGraphqlError extends Error {
  readonly type: string | undefined;
  readonly extensions: JsonObject | undefined;

  constructor(message: string, options: { type?: string; extensions?: JsonObject } = {}) {
    super(message);
    this.type = options.type;
    this.extensions = options.extensions;
  }
}

export type Args = Readonly<Record<string, unknown>>;
export type FieldResolver<S> = (
  source: S,
  args: Args,
  context: GraphqlContext,
  info: GraphQLResolveInfo,
) => unknown;
export type Fields = Readonly<Record<string, FieldResolver<unknown>>>;

/** Types a resolver table by its source model; the tables are looked up by type name. */
export function fields<S>(table: Readonly<Record<string, FieldResolver<S>>>): Fields {
  return table as Fields;
}

/** Any `…Connection`: the window [start, end) of `totalCount` items the arguments select. */
export interface ConnectionModel {
  totalCount: number;
  start: number;
  end: number;
  /** undefined: the double only counts these (`nodes`/`edges` answer an error). */
  items: ((offset: number, limit: number) => unknown[]) | undefined;
  cursor: (index: number) => string;
}

export function unsupported(info: GraphQLResolveInfo, detail?: string): never {
  const field = `${info.parentType.name}.${info.fieldName}${detail ? ` ${detail}` : ''}`;
  throw new GitHubGraphqlError(
    `The GitHub double does not resolve ${field}; add it to test/github-double/graphql-resolvers.ts.`,
    { extensions: { code: 'undefinedInDouble', typeName: info.parentType.name, fieldName: info.fieldName } },
  );
}

/** A connection the double can only count: pagination arguments and `allowed` ones, no items. */
export function countOnly(
  info: GraphQLResolveInfo,
  args: Args,
  allowed: readonly string[],
  totalCount: number,
): ConnectionModel {
  for (const [name, value] of Object.entries(args)) {
    if (value !== undefined && !PAGE_ARGUMENTS.includes(name) && !allowed.includes(name)) {
      unsupported(info, `with ${name}`);
    }
  }
  return connection(totalCount, args, undefined);
}

export const PAGE_ARGUMENTS = ['first', 'last', 'after', 'before'];

/** Arguments beyond paging and `allowed` are not modelled: an error instead of a guess. */
export function countOnlyArguments(info: GraphQLResolveInfo, args: Args, allowed: readonly string[]): void {
  for (const [name, value] of Object.entries(args)) {
    if (value !== undefined && !PAGE_ARGUMENTS.includes(name) && !allowed.includes(name)) {
      unsupported(info, `with ${name}`);
    }
  }
}

export function connection(
  totalCount: number,
  args: Args,
  items: ConnectionModel['items'],
  cursor: (index: number) => string = opaqueCursor,
  indexOf: (cursor: string) => string | undefined = (value) =>
    /^cursor:v2:(\d+)$/.exec(Buffer.from(value, 'base64').toString('utf8'))?.[1],
): ConnectionModel {
  const decode = (value: unknown): number => {
    const index = typeof value === 'string' ? indexOf(value) : undefined;
    if (index === undefined) {
      throw new GitHubGraphqlError(`\`${String(value)}\` does not appear to be a valid cursor.`, {
        type: 'INVALID_CURSOR_ARGUMENTS',
      });
    }
    return Number(index);
  };
  let start = 0;
  let end = totalCount;
  if (args.after != null) {
    start = decode(args.after) + 1;
  }
  if (args.before != null) {
    end = Math.min(end, decode(args.before));
  }
  if (typeof args.first === 'number') {
    end = Math.min(end, start + Math.max(0, args.first));
  }
  if (typeof args.last === 'number') {
    start = Math.max(start, end - Math.max(0, args.last));
  }
  start = Math.min(start, end);
  return { totalCount, start, end, items, cursor };
}

export function opaqueCursor(index: number): string {
  return Buffer.from(`cursor:v2:${index}`).toString('base64');
}

export function itemsOf(connection: ConnectionModel, info: GraphQLResolveInfo): unknown[] {
  if (!connection.items) {
    unsupported(info, '(the double only counts these)');
  }
  return connection.items(connection.start, connection.end - connection.start);
}
