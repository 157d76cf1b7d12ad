import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * SPEC's client sends `Content-Type: application/json` on every call, bodiless ones included,
 * so an empty body counts as `{}` (DESIGN §4). Fastify's own secure parser still handles
 * every non-empty body, keeping its `__proto__`/`constructor` poisoning rejection.
 */
async function jsonBody(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  // JSON is the only request body the API takes; anything else is a 415 (SECURITY.md G1).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      done(null, {});
      return;
    }
    parse(request, text, done);
  });
}

export default fp(jsonBody, { name: 'json-body' });
