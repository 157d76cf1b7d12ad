import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry (`GET /metrics`): one per app, so tests' apps never share counters. */
    metrics: Registry;
  }
}

/** Request durations in seconds: API answers are mostly milliseconds, exports and adds longer. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * HTTP request counts and durations for `GET /metrics` (docs/operations.md#monitoring), labelled
 * by the route pattern that answered (`/repositories/:id`), never the requested path: a path
 * can carry anything a client put there (a token, a search), and every distinct URL would be a
 * new series. Unmatched paths share one label. Also the process's own metrics (CPU, memory,
 * event-loop lag, handles), prom-client's defaults.
 */
async function metrics(app: FastifyInstance) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'repo_tracker_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'repo_tracker_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by method, route pattern and status code',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  app.decorate('metrics', registry);
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions?.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  });
}

export default fp(metrics, { name: 'metrics' });
