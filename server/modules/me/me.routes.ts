import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordBodySchema,
  changePasswordResponseSchema,
  githubTokenBodySchema,
  githubTokenStatusSchema,
  slackWebhookBodySchema,
  slackWebhookStatusSchema,
  updateProfileBodySchema,
  userResponseSchema,
} from '#shared/schemas/auth.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const security = [{ bearerAuth: [] }];

/** The signed-in caller's own account: profile, password, GitHub token and Slack webhook. */
export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.me;
  // The profile is what a member edits on screen: API tokens may read and rename it. Everything
  // else here sets a password or a secret and needs a session (docs/security.md#c8).
  const route = { config: { access: 'user' as const, apiTokens: true } };
  const sessionOnly = { config: { access: 'user' as const, apiTokens: false } };

  app.get(
    '/auth/me',
    {
      ...route,
      schema: {
        tags: ['account'],
        summary: 'The signed-in user',
        security,
        response: { 200: userResponseSchema, ...errors },
      },
    },
    async (request) => ({ user: await service.getUser(requireUser(request).id) }),
  );

  app.patch(
    '/auth/me',
    {
      ...route,
      schema: {
        tags: ['account'],
        summary: 'Update first and last name',
        security,
        body: updateProfileBodySchema,
        response: { 200: userResponseSchema, ...errors },
      },
    },
    async (request) => ({
      user: await service.updateProfile(
        requireUser(request).id,
        request.body.first_name,
        request.body.last_name,
      ),
    }),
  );

  app.post(
    '/auth/change-password',
    {
      ...sessionOnly,
      schema: {
        tags: ['account'],
        summary: 'Change the password; every session ends, the caller gets a new pair',
        security,
        body: changePasswordBodySchema,
        response: { 200: changePasswordResponseSchema, ...errors },
      },
    },
    async (request) =>
      app.services.auth.changePassword(
        requireUser(request).id,
        request.body.current_password,
        request.body.new_password,
        request.body.refresh_token,
      ),
  );

  const tokenSchema = { tags: ['account'], security, response: { 200: githubTokenStatusSchema, ...errors } };
  app.get(
    '/auth/me/github-token',
    { ...sessionOnly, schema: { ...tokenSchema, summary: 'Personal GitHub token status' } },
    async (request) => service.getGitHubToken(requireUser(request).id),
  );
  app.put(
    '/auth/me/github-token',
    {
      ...sessionOnly,
      schema: {
        ...tokenSchema,
        summary: 'Store a personal GitHub token (encrypted)',
        body: githubTokenBodySchema,
      },
    },
    async (request) => service.setGitHubToken(requireUser(request).id, request.body.token),
  );
  app.delete(
    '/auth/me/github-token',
    { ...sessionOnly, schema: { ...tokenSchema, summary: 'Remove the personal GitHub token' } },
    async (request) => service.removeGitHubToken(requireUser(request).id),
  );

  const webhookSchema = {
    tags: ['account'],
    security,
    response: { 200: slackWebhookStatusSchema, ...errors },
  };
  app.get(
    '/auth/me/slack-webhook',
    { ...sessionOnly, schema: { ...webhookSchema, summary: 'Slack webhook status' } },
    async (request) => service.getSlackWebhook(requireUser(request).id),
  );
  app.put(
    '/auth/me/slack-webhook',
    {
      ...sessionOnly,
      schema: {
        ...webhookSchema,
        summary: 'Store a Slack webhook URL (checked, encrypted)',
        body: slackWebhookBodySchema,
      },
    },
    async (request) => service.setSlackWebhook(requireUser(request).id, request.body.url),
  );
  app.delete(
    '/auth/me/slack-webhook',
    { ...sessionOnly, schema: { ...webhookSchema, summary: 'Remove the Slack webhook' } },
    async (request) => service.removeSlackWebhook(requireUser(request).id),
  );
};
