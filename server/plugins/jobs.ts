import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Runs the job queue's worker and the job registry's schedules (services.ts builds both) while
 * the app is up: they start once the app is ready, so every kind's handler is registered by
 * then, and stop when the app closes (the schedules first, then the worker: jobs in flight
 * finish, each within its deadline); `afterStop` then runs, e.g. closing the mail transport
 * those jobs used.
 */
async function jobs(app: FastifyInstance, options: { afterStop?: () => void }) {
  const queue = app.services.jobs;
  const registry = app.services.registry;
  app.addHook('onReady', async () => {
    queue.start();
    registry.start();
  });
  app.addHook('onClose', async () => {
    await registry.stop();
    await queue.stop();
    options.afterStop?.();
  });
}

export default fp(jobs, { name: 'jobs', dependencies: ['database'] });
