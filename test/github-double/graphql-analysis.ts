import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  GraphQLInt,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromAST,
} from 'graphql';
import type { JsonObject } from './shapes.ts';

/**
 * What GitHub works out about a query before running it (docs: "Rate limits and query limits
 * for the GraphQL API"), from the query text alone:
 *
 * - requests: every connection field (a type named `…Connection`) needs one request per
 *   parent item, assuming each enclosing connection returns its full `first`/`last`:
 *   `repository { issues(first: 10) { nodes { comments(first: 5) } } }` = 1 + 10 requests.
 * - cost = requests / 100, rounded, at least 1. The app's 25-repository batch has four
 *   connections per repository (topics, issues, pull requests, history): 100 requests, cost 1;
 *   100 repositories cost 4. The health query (graphql-health.test.ts) has six per repository,
 *   one of them nested: `issues(first: 10) { nodes { comments(first: 1) } }` is 1 + 10, so
 *   15 requests a repository and 25 repositories cost round(375 / 100) = 4.
 * - nodeCount: the items all connections may return (the same products times `first`), at most
 *   500,000 (MAX_NODE_LIMIT_EXCEEDED).
 * - `first`/`last` above 100 is EXCESSIVE_PAGINATION; `nodes`/`edges` without either is
 *   MISSING_PAGINATION_BOUNDARIES (a connection asked only for `totalCount` needs neither).
 *
 * It also counts the top-level `repository` fields, which the request log reports as `aliases`.
 */

export interface QueryAnalysis {
  /** Top-level `repository` fields (the app's r0…rN aliases). */
  repositoryFields: number;
  requests: number;
  cost: number;
  nodeCount: number;
  /** GitHub-shaped errors that stop the query before it runs (empty when it may run). */
  errors: JsonObject[];
}

export const MAX_PAGE_SIZE = 100;
export const MAX_NODE_COUNT = 500_000;

interface Walk {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Readonly<Record<string, unknown>>;
  result: QueryAnalysis;
  /** Errors already reported, by location, so a fragment used 25 times reports once. */
  reported: Set<string>;
}

export function analyseOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
  variables: Readonly<Record<string, unknown>>,
): QueryAnalysis {
  const root = schema.getRootType(operation.operation);
  const walk: Walk = {
    schema,
    fragments: new Map(fragments.map((fragment) => [fragment.name.value, fragment])),
    variables,
    result: { repositoryFields: 0, requests: 0, cost: 0, nodeCount: 0, errors: [] },
    reported: new Set(),
  };
  if (root) {
    visitSelections(walk, operation.selectionSet, root, 1, [], true);
  }
  const { result } = walk;
  result.cost = Math.max(1, Math.round(result.requests / 100));
  if (result.nodeCount > MAX_NODE_COUNT) {
    result.errors.push({
      type: 'MAX_NODE_LIMIT_EXCEEDED',
      message: `This query requests up to ${result.nodeCount.toLocaleString('en-US')} possible nodes which exceeds the maximum limit of ${MAX_NODE_COUNT.toLocaleString('en-US')}.`,
    });
  }
  return result;
}

function visitSelections(
  walk: Walk,
  selectionSet: SelectionSetNode,
  parentType: GraphQLCompositeType,
  multiplier: number,
  path: readonly string[],
  atRoot: boolean,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      visitField(walk, selection, parentType, multiplier, path, atRoot);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition
        ? walk.schema.getType(selection.typeCondition.name.value)
        : parentType;
      if (type && isCompositeType(type)) {
        visitSelections(walk, selection.selectionSet, type, multiplier, path, atRoot);
      }
    } else {
      // Validation has ruled out unknown fragments and cycles.
      const fragment = walk.fragments.get(selection.name.value);
      const type = fragment && walk.schema.getType(fragment.typeCondition.name.value);
      if (fragment && type && isCompositeType(type)) {
        visitSelections(walk, fragment.selectionSet, type, multiplier, path, atRoot);
      }
    }
  }
}

function visitField(
  walk: Walk,
  node: FieldNode,
  parentType: GraphQLCompositeType,
  multiplier: number,
  parentPath: readonly string[],
  atRoot: boolean,
): void {
  const definition = fieldDefinition(parentType, node.name.value);
  if (!definition) {
    // __typename, __schema, __type: free.
    return;
  }
  const path = [...parentPath, node.alias?.value ?? node.name.value];
  if (atRoot && node.name.value === 'repository') {
    walk.result.repositoryFields += 1;
  }
  const type = getNamedType(definition.type);
  let childMultiplier = multiplier;
  if (isObjectType(type) && type.name.endsWith('Connection')) {
    const first = intArgument(walk, node, definition, 'first');
    const last = intArgument(walk, node, definition, 'last');
    const limit = first ?? last;
    walk.result.requests += multiplier;
    walk.result.nodeCount += multiplier * (limit ?? 0);
    childMultiplier = multiplier * Math.max(1, limit ?? 1);
    const name = node.name.value;
    for (const [argument, value] of [
      ['first', first],
      ['last', last],
    ] as const) {
      if (value !== undefined && value > MAX_PAGE_SIZE) {
        report(walk, node, path, {
          type: 'EXCESSIVE_PAGINATION',
          message: `Requesting ${value} records on the \`${name}\` connection exceeds the \`${argument}\` limit of ${MAX_PAGE_SIZE} records.`,
        });
      }
    }
    if (limit === undefined && selectsItems(walk, node.selectionSet)) {
      report(walk, node, path, {
        type: 'MISSING_PAGINATION_BOUNDARIES',
        message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
      });
    }
  }
  if (node.selectionSet && isCompositeType(type)) {
    visitSelections(walk, node.selectionSet, type, childMultiplier, path, false);
  }
}

function fieldDefinition(
  parentType: GraphQLCompositeType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  return isObjectType(parentType) || isInterfaceType(parentType) ? parentType.getFields()[name] : undefined;
}

function intArgument(
  walk: Walk,
  node: FieldNode,
  definition: GraphQLField<unknown, unknown>,
  name: string,
): number | undefined {
  if (!definition.args.some((argument) => argument.name === name)) {
    return undefined;
  }
  const argument = node.arguments?.find((candidate) => candidate.name.value === name);
  if (!argument) {
    return undefined;
  }
  const value: unknown = valueFromAST(argument.value, GraphQLInt, walk.variables);
  return typeof value === 'number' ? value : undefined;
}

/** Whether a connection's selection reaches its items (`nodes` or `edges`), through fragments too. */
function selectsItems(walk: Walk, selectionSet: SelectionSetNode | undefined): boolean {
  return (selectionSet?.selections ?? []).some((selection) => {
    if (selection.kind === Kind.FIELD) {
      return selection.name.value === 'nodes' || selection.name.value === 'edges';
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      return selectsItems(walk, selection.selectionSet);
    }
    return selectsItems(walk, walk.fragments.get(selection.name.value)?.selectionSet);
  });
}

function report(
  walk: Walk,
  node: FieldNode,
  path: readonly string[],
  error: { type: string; message: string },
): void {
  const location = node.loc ? { line: node.loc.startToken.line, column: node.loc.startToken.column } : null;
  const key = `${error.type}@${location ? `${location.line}:${location.column}` : path.join('.')}`;
  if (walk.reported.has(key)) {
    return;
  }
  walk.reported.add(key);
  walk.result.errors.push({
    type: error.type,
    path: [...path],
    ...(location ? { locations: [location] } : {}),
    message: error.message,
  });
}
