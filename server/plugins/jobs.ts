import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Runs the job queue's worker (services.ts builds the queue) while the app is up: it starts once
 * the app is ready, so every kind's handler is registered by then, and stops when the app
 * closes (jobs in flight finish first, each within its deadline); `afterStop` then runs, e.g.
 * closing the mail transport those jobs used.
 */
async function jobs(app: FastifyInstance, options: { afterStop?: () => void }) {
  const queue = app.services.jobs;
  app.addHook('onReady', async () => queue.start());
  app.addHook('onClose', async () => {
    await queue.stop();
    options.afterStop?.();
  });
}

export default fp(jobs, { name: 'jobs', dependencies: ['database'] });
