import {
  type ASTNode,
  type DocumentNode,
  executeSync,
  type FragmentDefinitionNode,
  GraphQLError,
  getOperationAST,
  Kind,
  parse,
  validate,
  visit,
} from 'graphql';
import { analyseOperation } from './graphql-analysis.ts';
import { fieldResolver, GitHubGraphqlError, type GraphqlContext, typeResolver } from './graphql-resolvers.ts';
import { githubGraphqlSchema } from './graphql-schema.ts';
import { tokenOwnerAccount } from './people.ts';
import type { RouteContext, RouteResult } from './rest-routes.ts';
import type { JsonObject, JsonValue } from './shapes.ts';

/**
 * `POST /graphql` (and GitHub Enterprise's `/api/graphql`): real GraphQL against GitHub's real
 * schema, answered from the double's catalogue (graphql-resolvers.ts). In GitHub's order:
 *
 * 1. no token: 401 `This endpoint requires you to be authenticated.`;
 * 2. a body that isn't JSON: 400 `Problems parsing JSON`; no `query`: 200 with an error;
 * 3. syntax and validation errors: 200 with `errors` only (no `data`), free;
 * 4. `inject.graphqlTooLarge(n)`: more than n repository fields answer 502, free, no
 *    x-ratelimit headers, as GitHub's gateway does when a query runs past 10 seconds;
 * 5. pagination and node limits (graphql-analysis.ts): 200 with `errors`, free;
 * 6. no points left: 200 with `errors: [{type: "RATE_LIMITED", …}]`, free;
 * 7. a query whose execution time (`graphqlTime`: per connection request) passes the time
 *    limit (GitHub's 10 s): 502 after the limit, as 4., but charged its points (GitHub counts
 *    time-outs against the hour since July 2025);
 * 8. otherwise the query runs (taking its execution time) and costs its points (at least 1);
 *    repositories that don't resolve are `null` with a NOT_FOUND error while the other aliases
 *    resolve.
 */

const DOCS_GRAPHQL = 'https://docs.github.com/graphql';
const DOCS_AUTHENTICATING =
  'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql';
const GRAPHQL_HEADERS = { 'x-github-media-type': 'github.v4; format=json' };

interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export function answerGraphql(context: RouteContext, bodyText: string): RouteResult {
  if (context.caller.kind !== 'token') {
    return {
      status: 401,
      body: {
        message: 'This endpoint requires you to be authenticated.',
        documentation_url: DOCS_AUTHENTICATING,
      },
      headers: GRAPHQL_HEADERS,
      points: 0,
      // Anonymous callers have no GraphQL budget (GET /rate_limit shows limit 0).
      rateLimit: { limit: 0, remaining: 0, used: 0, reset: Math.floor(context.nowMs / 1000) + 3600 },
    };
  }
  const request = parseRequest(bodyText);
  if (request === undefined) {
    return free(400, { message: 'Problems parsing JSON', documentation_url: DOCS_GRAPHQL });
  }
  if (typeof request.query !== 'string' || request.query.trim() === '') {
    return free(200, { errors: [{ message: 'A query attribute must be specified and must be a string.' }] });
  }
  const variables = isObject(request.variables) ? request.variables : {};
  const operationName = typeof request.operationName === 'string' ? request.operationName : undefined;

  const schema = githubGraphqlSchema();
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    if (error instanceof GraphQLError) {
      return free(200, { errors: [errorJson(error)] });
    }
    throw error;
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) {
    const paths = validationPaths(document);
    return free(200, { errors: invalid.map((error) => validationErrorJson(error, paths)) });
  }
  const operation = getOperationAST(document, operationName);
  if (!operation) {
    const message = operationName ? `No operation named "${operationName}"` : 'An operation name is required';
    return free(200, { errors: [{ message }] });
  }

  const fragments = document.definitions.filter(
    (definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION,
  );
  const analysis = analyseOperation(schema, operation, fragments, variables);
  const aliases = analysis.repositoryFields;
  const maxAliases = context.faults.graphqlMaxAliases;
  if (maxAliases !== undefined && aliases > maxAliases) {
    return timedOut(context.requestId, aliases, 0, 0);
  }
  if (analysis.errors.length > 0) {
    return { ...free(200, { errors: analysis.errors }), aliases };
  }

  const quota = context.quota('graphql');
  if (quota.remaining <= 0) {
    return {
      status: 200,
      body: {
        errors: [
          {
            type: 'RATE_LIMITED',
            code: 'graphql_rate_limit',
            message: `API rate limit already exceeded for user ID ${tokenOwnerAccount(context.caller.token).id}.`,
          },
        ],
      },
      headers: GRAPHQL_HEADERS,
      points: 0,
      rateLimit: quota,
      aliases,
    };
  }

  const time = context.faults.graphqlTime;
  const runMs = analysis.requests * time.msPerConnection;
  if (runMs > time.limitMs) {
    return timedOut(context.requestId, aliases, analysis.cost, time.limitMs);
  }

  const graphqlContext: GraphqlContext = {
    directory: context.directory,
    caller: context.caller,
    // What the ledger will hold once the server charges this query's cost.
    rateLimit: {
      cost: analysis.cost,
      nodeCount: analysis.nodeCount,
      limit: quota.limit,
      remaining: Math.max(0, quota.remaining - analysis.cost),
      used: quota.used + analysis.cost,
      resetAt: new Date(quota.reset * 1000).toISOString().replace('.000Z', 'Z'),
    },
  };
  const result = executeSync({
    schema,
    document,
    operationName,
    variableValues: variables,
    contextValue: graphqlContext,
    fieldResolver,
    typeResolver,
  });
  if (!('data' in result)) {
    // A request error (variables that don't fit their types): nothing ran.
    return { ...free(200, { errors: (result.errors ?? []).map(errorJson) }), aliases };
  }
  const body: JsonObject = { data: (result.data ?? null) as JsonValue };
  if (result.errors?.length) {
    body.errors = result.errors.map(errorJson);
  }
  return { status: 200, body, headers: GRAPHQL_HEADERS, points: analysis.cost, aliases, delayMs: runMs };
}

/** GitHub's gateway answer for a query that ran past its time limit: 502, no x-ratelimit headers. */
function timedOut(requestId: string, aliases: number, points: number, delayMs: number): RouteResult {
  return {
    status: 502,
    body: {
      data: null,
      errors: [
        {
          message: `Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include \`${requestId}\` when reporting this issue.`,
        },
      ],
    },
    headers: GRAPHQL_HEADERS,
    points,
    rateLimit: null,
    aliases,
    delayMs,
  };
}

function free(status: number, body: JsonObject): RouteResult {
  return { status, body, headers: GRAPHQL_HEADERS, points: 0 };
}

function parseRequest(text: string): GraphqlRequest | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** GitHub's order: type, path, extensions, locations, message. */
function errorJson(error: GraphQLError): JsonObject {
  const original = error.originalError;
  const json: JsonObject = {};
  if (original instanceof GitHubGraphqlError && original.type) {
    json.type = original.type;
  }
  if (error.path) {
    json.path = [...error.path];
  }
  if (original instanceof GitHubGraphqlError && original.extensions) {
    json.extensions = original.extensions;
  }
  if (error.locations) {
    json.locations = error.locations.map(({ line, column }) => ({ line, column }));
  }
  json.message = error.message;
  return json;
}

/**
 * GitHub (graphql-ruby) words the common validation errors differently from graphql-js and
 * adds a code; those are translated, the rest keep graphql-js's message.
 */
function validationErrorJson(error: GraphQLError, paths: ReadonlyMap<ASTNode, JsonValue[]>): JsonObject {
  let message = error.message;
  let extensions: JsonObject | undefined;
  const undefinedField = /^Cannot query field "(\w+)" on type "(\w+)"\./.exec(message);
  const unknownArgument = /^Unknown argument "(\w+)" on field "\w+\.(\w+)"\./.exec(message);
  const missingArgument =
    /^Field "(\w+)" argument "(\w+)" of type "[^"]+" is required, but it was not provided\./.exec(message);
  if (undefinedField) {
    const [, fieldName = '', typeName = ''] = undefinedField;
    message = `Field '${fieldName}' doesn't exist on type '${typeName}'`;
    extensions = { code: 'undefinedField', typeName, fieldName };
  } else if (unknownArgument) {
    const [, argumentName = '', name = ''] = unknownArgument;
    message = `Field '${name}' doesn't accept argument '${argumentName}'`;
    extensions = { code: 'argumentNotAccepted', name, typeName: 'Field', argumentName };
  } else if (missingArgument) {
    const [, name = '', argument = ''] = missingArgument;
    message = `Field '${name}' is missing required arguments: ${argument}`;
    extensions = { code: 'missingRequiredArguments', className: 'Field', name, arguments: argument };
  }
  const json: JsonObject = {};
  const path = error.nodes?.[0] ? paths.get(error.nodes[0]) : undefined;
  if (path) {
    json.path = path;
  }
  if (extensions) {
    json.extensions = extensions;
  }
  if (error.locations) {
    json.locations = error.locations.map(({ line, column }) => ({ line, column }));
  }
  json.message = message;
  return json;
}

/**
 * graphql-ruby's validation paths: from "query Name" (or "fragment Name") down through field
 * names (aliases when given), inline fragments ("... on Type") and the argument.
 */
function validationPaths(document: DocumentNode): Map<ASTNode, JsonValue[]> {
  const paths = new Map<ASTNode, JsonValue[]>();
  const stack: JsonValue[] = [];
  const segment = (node: ASTNode): string | undefined => {
    switch (node.kind) {
      case Kind.OPERATION_DEFINITION:
        return node.name ? `${node.operation} ${node.name.value}` : node.operation;
      case Kind.FRAGMENT_DEFINITION:
        return `fragment ${node.name.value}`;
      case Kind.FIELD:
        return node.alias?.value ?? node.name.value;
      case Kind.INLINE_FRAGMENT:
        return node.typeCondition ? `... on ${node.typeCondition.name.value}` : '...';
      case Kind.ARGUMENT:
        return node.name.value;
      default:
        return undefined;
    }
  };
  visit(document, {
    enter(node) {
      const name = segment(node);
      if (name !== undefined) {
        stack.push(name);
      }
      paths.set(node, [...stack]);
    },
    leave(node) {
      if (segment(node) !== undefined) {
        stack.pop();
      }
    },
  });
  return paths;
}
