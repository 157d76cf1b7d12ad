import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { advisoriesResponseSchema, packagesBodySchema } from '#shared/schemas/advisories.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { repositoryIdParamsSchema } from '#shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
const security = [{ bearerAuth: [] }];
// Whoever may see a repository (and so change its tags) may read its advisories and edit its packages.
const member = { access: 'user' as const };
const tags = ['repositories'];

/** A repository's security advisories and the packages they are read for (docs/product.md#advisories). */
export const advisoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { advisories } = app.services;

  app.get(
    '/repositories/:id/advisories',
    {
      config: member,
      schema: {
        tags,
        summary: 'Security advisories: its own and its packages’, open or fixed, and the packages',
        description:
          'One advisory per GHSA id, whichever source found it. `open`: not withdrawn, and no patched version or no tracked version that reaches it.',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: advisoriesResponseSchema, ...errors },
      },
    },
    async (request) => advisories.read(requireUser(request), request.params.id),
  );

  app.put(
    '/repositories/:id/packages',
    {
      config: member,
      schema: {
        tags,
        summary: 'The packages it publishes, as the team says (kept when the manifests are read again)',
        description:
          'Replaces the list: detected packages left out stay out, new ones are read at the next advisory read. Advisories of packages taken off the list go with them.',
        security,
        params: repositoryIdParamsSchema,
        body: packagesBodySchema,
        response: { 200: advisoriesResponseSchema, ...errors },
      },
    },
    async (request) => advisories.setPackages(requireUser(request), request.params.id, request.body),
  );
};
