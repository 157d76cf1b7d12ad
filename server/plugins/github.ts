import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { GitHubClient } from '../github/github-client.ts';
import { ReposService } from '../modules/repos/repos.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    github: GitHubClient;
    repos: ReposService;
  }
}

/** The GitHub client (one per process: its quota book and concurrency limits are shared) and the catalogue service. */
async function github(app: FastifyInstance, options: { timeoutMs?: number }) {
  const client = new GitHubClient({
    apiUrl: app.config.githubApiUrl,
    graphqlUrl: app.config.githubGraphqlUrl,
    serverToken: app.config.githubToken,
    sharedQuota: app.sharedQuota,
    timeoutMs: options.timeoutMs,
    userAgent: `${app.config.appName.replace(/[^\w.-]+/g, '-')}/repo-tracker`,
  });
  app.decorate('github', client);
  app.decorate(
    'repos',
    new ReposService({
      db: app.db,
      github: client,
      me: app.meService,
      clock: app.clock,
      config: app.config,
      log: app.log,
    }),
  );
}

export default fp(github, { name: 'github', dependencies: ['auth'] });
