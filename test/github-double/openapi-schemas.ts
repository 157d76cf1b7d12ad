import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Validators for GitHub's documented response schemas (the dereferenced OpenAPI description in
 * @octokit/openapi), so tests prove the double's answers have the shapes real clients expect.
 * OpenAPI 3.0's `nullable` is rewritten to JSON Schema's `null` type first: Ajv only accepts
 * `nullable` next to `type`, and GitHub's schema also puts it on `oneOf`/`$ref` nodes.
 */

type Schema = { [key: string]: unknown };

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
}

let documentCache: OpenApiDocument | undefined;

function openApiDocument(): OpenApiDocument {
  if (!documentCache) {
    const require = createRequire(import.meta.url);
    const path = require.resolve('@octokit/openapi/generated/api.github.com.deref.json');
    documentCache = JSON.parse(readFileSync(path, 'utf8')) as OpenApiDocument;
  }
  return documentCache;
}

/** The JSON schema of one documented response, e.g. ('repos/get', 200). */
export function responseSchema(operationId: string, status: number): Schema {
  for (const operations of Object.values(openApiDocument().paths)) {
    for (const operation of Object.values(operations)) {
      if (operation.operationId !== operationId) {
        continue;
      }
      const response = operation.responses?.[String(status)] as
        | { content?: Record<string, { schema?: Schema }> }
        | undefined;
      const schema = response?.content?.['application/json']?.schema;
      if (!schema) {
        throw new Error(`${operationId} documents no JSON body for ${status}`);
      }
      return toJsonSchema(schema) as Schema;
    }
  }
  throw new Error(`No operation ${operationId}`);
}

const ajv = new Ajv({ strict: false, allErrors: true });
// ajv-formats is CommonJS; its default export arrives wrapped under Node's ESM loader.
const addFormats = ('default' in addFormatsModule
  ? addFormatsModule.default
  : addFormatsModule) as unknown as (instance: Ajv) => Ajv;
addFormats(ajv);

const validators = new Map<string, ValidateFunction>();

export function responseValidator(operationId: string, status: number): ValidateFunction {
  const key = `${operationId} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(responseSchema(operationId, status));
    validators.set(key, validate);
  }
  return validate;
}

/** Validation errors as readable lines (empty when valid). */
export function schemaErrors(operationId: string, status: number, body: unknown): string[] {
  const validate = responseValidator(operationId, status);
  if (validate(body)) {
    return [];
  }
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) {
    return node.map(toJsonSchema);
  }
  if (node === null || typeof node !== 'object') {
    return node;
  }
  const result: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'nullable' && key !== 'example' && key !== 'examples') {
      result[key] = toJsonSchema(value);
    }
  }
  if ((node as Schema).nullable !== true) {
    return result;
  }
  if (typeof result.type === 'string') {
    result.type = [result.type, 'null'];
    if (Array.isArray(result.enum)) {
      result.enum = [...result.enum, null];
    }
    return result;
  }
  return { anyOf: [{ type: 'null' }, result] };
}
