import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { AppConfig } from '../config.ts';
import { declarePublicRoutes } from './access.ts';

/**
 * The OpenAPI description is generated from the same zod schemas that validate requests and
 * serialise responses; the UI and `/docs/json` are public (they describe, they don't expose).
 */
async function openapi(app: FastifyInstance, options: { config: AppConfig; version: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${options.config.appName} API`,
        description:
          'Every request and response of the API, generated from the zod schemas in shared/. Errors share one body: `{ message, code }` plus `fields`, `retry_after` or `request_id`.',
        version: options.version,
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // Personal API tokens (docs/product.md#api-tokens): `Authorization: Bearer rt_…`.
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'rt_…',
            description:
              'A personal API token from Settings → API tokens, within its scope (read: GET and HEAD; write; admin). Not accepted on account-security and secret-setting routes.',
          },
        },
      },
    },
    transform: withApiTokenScheme,
    transformObject: jsonSchemaTransformObject,
  });

  await app.register(async (docs) => {
    declarePublicRoutes(docs);
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      uiConfig: { docExpansion: 'list', deepLinking: false },
    });
  });
}

/**
 * Every route that takes a session takes a personal API token too, unless it says
 * `apiTokens: false`: the description lists the token scheme beside the session's.
 */
function withApiTokenScheme(input: Parameters<typeof jsonSchemaTransform>[0]) {
  const result = jsonSchemaTransform(input);
  const schema = result.schema as { security?: Record<string, string[]>[] } | undefined;
  const config = (input.route as { config?: { apiTokens?: boolean } } | undefined)?.config;
  const security = schema?.security;
  if (!schema || !security?.some((entry) => 'bearerAuth' in entry) || config?.apiTokens === false)
    return result;
  return { ...result, schema: { ...schema, security: [...security, { apiToken: [] }] } };
}

export default fp(openapi, { name: 'openapi' });
