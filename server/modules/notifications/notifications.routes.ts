import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CHANNEL_TEST_WINDOW_MS, CHANNEL_TESTS_PER_MEMBER } from '#shared/constants.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import {
  channelSchema,
  channelsResponseSchema,
  createChannelBodySchema,
  createRuleBodySchema,
  deliveriesResponseSchema,
  notificationIdParamsSchema,
  notificationMessageSchema,
  ruleSchema,
  rulesResponseSchema,
  testChannelResponseSchema,
  updateChannelBodySchema,
  updateRuleBodySchema,
} from '#shared/schemas/notifications.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const testErrors = { ...errors, 429: errorBodySchema };
const security = [{ bearerAuth: [] }];
const tags = ['notifications'];
const BASE = '/auth/me/notifications';

/**
 * The caller's own notification channels, rules and deliveries (docs/product.md#notification-api).
 * Another member's ids answer 404, exactly like missing ones.
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.notificationSettings;
  // Channels carry webhook URLs and addresses: set with a session only, never an API token.
  const route = { config: { access: 'user' as const, apiTokens: false } };

  app.get(
    `${BASE}/channels`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Your notification channels',
        response: { 200: channelsResponseSchema, ...errors },
      },
    },
    async (request) => ({ channels: await service.listChannels(requireUser(request).id) }),
  );
  app.post(
    `${BASE}/channels`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Add a channel (Slack, webhook, Discord or e-mail); URLs are checked and stored encrypted',
        body: createChannelBodySchema,
        response: { 201: channelSchema, ...errors },
      },
    },
    async (request, reply) => {
      const channel = await service.createChannel(requireUser(request).id, request.body);
      return reply.code(201).send(channel);
    },
  );
  app.patch(
    `${BASE}/channels/:id`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Rename a channel or give it a new URL (which clears its failures)',
        params: notificationIdParamsSchema,
        body: updateChannelBodySchema,
        response: { 200: channelSchema, ...errors },
      },
    },
    async (request) => service.updateChannel(requireUser(request).id, request.params.id, request.body),
  );
  app.delete(
    `${BASE}/channels/:id`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Remove a channel and its rules',
        params: notificationIdParamsSchema,
        response: { 200: notificationMessageSchema, ...errors },
      },
    },
    async (request) => {
      await service.deleteChannel(requireUser(request).id, request.params.id);
      return { message: 'Channel removed' };
    },
  );
  app.post(
    `${BASE}/channels/:id/enable`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Turn a channel back on after failures turned it off',
        params: notificationIdParamsSchema,
        response: { 200: channelSchema, ...errors },
      },
    },
    async (request) => service.enableChannel(requireUser(request).id, request.params.id),
  );
  app.post(
    `${BASE}/channels/:id/test`,
    {
      ...route,
      // Each test mails or posts at once from the server's address: 15 mails and 15 webhook
      // posts had left in 1.9 s (issue 22). Counted per member, whichever channel.
      preHandler: app.rateLimiter.hook({
        name: 'channel-test:member',
        max: CHANNEL_TESTS_PER_MEMBER,
        windowMs: CHANNEL_TEST_WINDOW_MS,
        key: (request) => String(requireUser(request).id),
        refusal: ({ retryAfter }) => {
          const minutes = Math.ceil(retryAfter / 60);
          return `You can send ${CHANNEL_TESTS_PER_MEMBER} test messages every ${CHANNEL_TEST_WINDOW_MS / 60_000} minutes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
        },
      }),
      schema: {
        tags,
        security,
        summary: `Send a test message now; answers within WEBHOOK_TIMEOUT_MS with the outcome (${CHANNEL_TESTS_PER_MEMBER} per member in ${CHANNEL_TEST_WINDOW_MS / 60_000} minutes)`,
        params: notificationIdParamsSchema,
        response: { 200: testChannelResponseSchema, ...testErrors },
      },
    },
    async (request) => service.testChannel(requireUser(request).id, request.params.id),
  );

  app.get(
    `${BASE}/rules`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Your notification rules',
        response: { 200: rulesResponseSchema, ...errors },
      },
    },
    async (request) => ({ rules: await service.listRules(requireUser(request).id) }),
  );
  app.post(
    `${BASE}/rules`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Add a rule: which events, for which tags, to which channel, how often',
        body: createRuleBodySchema,
        response: { 201: ruleSchema, ...errors },
      },
    },
    async (request, reply) => {
      const rule = await service.createRule(requireUser(request).id, request.body);
      return reply.code(201).send(rule);
    },
  );
  app.patch(
    `${BASE}/rules/:id`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Change a rule',
        params: notificationIdParamsSchema,
        body: updateRuleBodySchema,
        response: { 200: ruleSchema, ...errors },
      },
    },
    async (request) => service.updateRule(requireUser(request).id, request.params.id, request.body),
  );
  app.delete(
    `${BASE}/rules/:id`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Remove a rule',
        params: notificationIdParamsSchema,
        response: { 200: notificationMessageSchema, ...errors },
      },
    },
    async (request) => {
      await service.deleteRule(requireUser(request).id, request.params.id);
      return { message: 'Rule removed' };
    },
  );

  app.get(
    `${BASE}/deliveries`,
    {
      ...route,
      schema: {
        tags,
        security,
        summary: 'Your 50 most recent deliveries with their outcome',
        response: { 200: deliveriesResponseSchema, ...errors },
      },
    },
    async (request) => ({ deliveries: await service.listDeliveries(requireUser(request).id) }),
  );
};
