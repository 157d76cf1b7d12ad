import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  assertValidSchema,
  buildASTSchema,
  type DefinitionNode,
  type GraphQLSchema,
  Kind,
  parse,
} from 'graphql';

/**
 * GitHub's real GraphQL schema (npm @octokit/graphql-schema, schema.graphql: 1.2 MB of SDL),
 * built and checked once per process on first use. That takes about 0.2 s, so doubles that
 * only serve REST never pay for it; the graphql package itself (another 0.04 s) is only
 * imported by the GraphQL endpoint, for the same reason (see rest-routes.ts).
 */

let cached: { schema: GraphQLSchema; loadMs: number } | undefined;

export function githubGraphqlSchema(): GraphQLSchema {
  if (!cached) {
    const started = performance.now();
    const schema = buildASTSchema(withoutDuplicateFields(parse(readFileSync(schemaPath(), 'utf8'))));
    // graphql-js would otherwise check the schema on the first validate(); do it here, timed.
    assertValidSchema(schema);
    cached = { schema, loadMs: performance.now() - started };
  }
  return cached.schema;
}

/** How long reading, building and checking the schema took (ms), or undefined before its first use. */
export function graphqlSchemaLoadMs(): number | undefined {
  return cached?.loadMs;
}

/**
 * The package exports only its index (which parses the 5 MB introspection JSON on import), so
 * the SDL file is found next to it on Node's module search path instead of through `exports`.
 */
function schemaPath(): string {
  const require = createRequire(import.meta.url);
  for (const directory of require.resolve.paths('@octokit/graphql-schema') ?? []) {
    const candidate = join(directory, '@octokit', 'graphql-schema', 'schema.graphql');
    if (existsSync(candidate)) {
      return candidate;
    }
  }
  throw new Error('GitHub double: @octokit/graphql-schema is not installed (npm install)');
}

/**
 * GitHub's published SDL defines two fields of EnterpriseOwnerInfo twice
 * (repositoryDeployKeySetting and repositoryDeployKeySettingOrganizations, schema 15.26.1), which
 * graphql-js rightly refuses. The first definition is kept (the second repeats it with a
 * copy-pasted description); every other SDL rule is still checked.
 */
function withoutDuplicateFields(document: ReturnType<typeof parse>): ReturnType<typeof parse> {
  const definitions = document.definitions.map((definition): DefinitionNode => {
    if (
      (definition.kind !== Kind.OBJECT_TYPE_DEFINITION &&
        definition.kind !== Kind.INTERFACE_TYPE_DEFINITION) ||
      !definition.fields
    ) {
      return definition;
    }
    const seen = new Set<string>();
    const fields = definition.fields.filter((field) => {
      const fresh = !seen.has(field.name.value);
      seen.add(field.name.value);
      return fresh;
    });
    return fields.length === definition.fields.length ? definition : { ...definition, fields };
  });
  return { ...document, definitions };
}
