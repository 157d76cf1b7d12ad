import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  decisionBodySchema,
  decisionListSchema,
  decisionResponseSchema,
  declineBodySchema,
  proposalCommentBodySchema,
  proposalCommentListSchema,
  proposalCommentResponseSchema,
  proposalIdParamsSchema,
  proposalPageSchema,
  proposalResponseSchema,
  proposalsQuerySchema,
  quadrantsBodySchema,
  quadrantsSchema,
  reviewsDueSchema,
  voteBodySchema,
} from '#shared/schemas/decisions.ts';
import { repositoryIdParamsSchema } from '#shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';
import { bearerSecurity, errorResponses, memberAccess } from '../../plugins/route-options.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 429);
const security = bearerSecurity;
// Whoever may see a repository (and so change its tags) may read, propose and vote; recording
// directly also needs an admin when DECISIONS_BY=admins (the service's rule).
const member = memberAccess;
const admin = { access: 'admin' as const };
const tags = ['decisions'];

/** Team decisions: records, proposals and votes, quadrants, reviews (docs/product.md#team-decisions). */
export const decisionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { decisions } = app.services;

  app.get(
    '/radar/quadrants',
    {
      config: member,
      schema: {
        tags,
        summary: 'The four radar quadrants, in order',
        security,
        response: { 200: quadrantsSchema, ...errors },
      },
    },
    async () => decisions.quadrants(),
  );

  app.put(
    '/radar/quadrants',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Name the four quadrants (admins); a key still in use must stay',
        security,
        body: quadrantsBodySchema,
        response: { 200: quadrantsSchema, ...errors },
      },
    },
    async (request) => decisions.setQuadrants(request.body),
  );

  app.put(
    '/repositories/:id/decision',
    {
      config: member,
      schema: {
        tags,
        summary: 'Record a decision: a new record with status, quadrant, rationale, links, review date',
        description:
          'Rationale is Markdown without raw HTML (refused with 400), required for adopt, hold and retired. With DECISIONS_BY=admins only admins may call it; members get 403 and propose instead.',
        security,
        params: repositoryIdParamsSchema,
        body: decisionBodySchema,
        response: { 200: decisionResponseSchema, ...errors },
      },
    },
    async (request) => ({
      decision: await decisions.decide(requireUser(request), request.params.id, request.body),
    }),
  );

  app.get(
    '/repositories/:id/decisions',
    {
      config: member,
      schema: {
        tags,
        summary: 'Every decision record of the repository, oldest first',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: decisionListSchema, ...errors },
      },
    },
    async (request) => ({ decisions: await decisions.decisions(requireUser(request), request.params.id) }),
  );

  app.post(
    '/repositories/:id/proposals',
    {
      config: member,
      schema: {
        tags,
        summary: 'Propose a move for an admin to accept or decline',
        security,
        params: repositoryIdParamsSchema,
        body: decisionBodySchema,
        response: { 201: proposalResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const proposal = await decisions.propose(requireUser(request), request.params.id, request.body);
      return reply.code(201).send({ proposal });
    },
  );

  app.get(
    '/proposals',
    {
      config: member,
      schema: {
        tags,
        summary: 'Proposals in one state (default open), newest first, keyset-paged',
        security,
        querystring: proposalsQuerySchema,
        response: { 200: proposalPageSchema, ...errors },
      },
    },
    async (request) => decisions.proposals(requireUser(request), request.query),
  );

  app.put(
    '/proposals/:id/vote',
    {
      config: member,
      schema: {
        tags,
        summary: 'Vote +1 or -1 on an open proposal; a new vote replaces yours',
        security,
        params: proposalIdParamsSchema,
        body: voteBodySchema,
        response: { 200: proposalResponseSchema, ...errors },
      },
    },
    async (request) => ({
      proposal: await decisions.vote(requireUser(request), request.params.id, request.body),
    }),
  );

  app.get(
    '/proposals/:id/comments',
    {
      config: member,
      schema: {
        tags,
        summary: 'The comments on a proposal, oldest first',
        security,
        params: proposalIdParamsSchema,
        response: { 200: proposalCommentListSchema, ...errors },
      },
    },
    async (request) => ({ comments: await decisions.comments(requireUser(request), request.params.id) }),
  );

  app.post(
    '/proposals/:id/comments',
    {
      config: member,
      schema: {
        tags,
        summary: 'Comment on an open proposal (Markdown without raw HTML, at most 5,000 characters)',
        description:
          'Whoever may see the repository, in either DECISIONS_BY mode; 409 once the proposal is accepted or declined. Comments are not activity events.',
        security,
        params: proposalIdParamsSchema,
        body: proposalCommentBodySchema,
        response: { 201: proposalCommentResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const comment = await decisions.comment(requireUser(request), request.params.id, request.body);
      return reply.code(201).send({ comment });
    },
  );

  app.post(
    '/proposals/:id/accept',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Accept an open proposal (admins): writes its decision record',
        security,
        params: proposalIdParamsSchema,
        response: { 200: proposalResponseSchema, ...errors },
      },
    },
    async (request) => ({ proposal: await decisions.accept(requireUser(request), request.params.id) }),
  );

  app.post(
    '/proposals/:id/decline',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Decline an open proposal with a reason (admins)',
        security,
        params: proposalIdParamsSchema,
        body: declineBodySchema,
        response: { 200: proposalResponseSchema, ...errors },
      },
    },
    async (request) => ({
      proposal: await decisions.decline(requireUser(request), request.params.id, request.body),
    }),
  );

  app.get(
    '/decisions/reviews-due',
    {
      config: member,
      schema: {
        tags,
        summary: 'Current decisions whose review date is today or past',
        security,
        response: { 200: reviewsDueSchema, ...errors },
      },
    },
    async (request) => decisions.reviewsDue(requireUser(request)),
  );
};
