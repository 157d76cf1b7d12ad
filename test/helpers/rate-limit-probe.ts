import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { clientKey } from '../../server/lib/client-key.ts';

export const PROBE_PATH = '/_test/limited';

/**
 * A test-only route limited to `max` calls per client address in 15 minutes, under a rule name
 * of its own, so tests against a shared Redis never meet each other's (or an earlier run's)
 * counters. Pass the result's `extend` to createTestApp; instances given the same probe share
 * the rule.
 */
export function rateLimitProbe(max: number) {
  const name = `probe-${randomUUID()}`;
  return {
    name,
    extend(app: FastifyInstance) {
      app.get(
        PROBE_PATH,
        {
          config: { access: 'public' },
          onRequest: app.rateLimiter.hook({ name, max, windowMs: 15 * 60 * 1000, key: clientKey }),
        },
        async () => ({ ok: true }),
      );
    },
  };
}
