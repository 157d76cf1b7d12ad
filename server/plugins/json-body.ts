import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/app-error.ts';

/**
 * The web client sends `Content-Type: application/json` on every call, bodiless ones included, so an empty
 * body counts as `{}` (docs/product.md#api-conventions). Fastify's own secure parser still handles every
 * non-empty body, keeping its `__proto__`/`constructor` poisoning rejection.
 */
async function jsonBody(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  // JSON is the only request body the API takes; anything else is a 415 (docs/security.md#g1).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      done(null, {});
      return;
    }
    parse(request, text, done);
  });

  // PostgreSQL text can't hold U+0000: a NUL in any field that reaches a query failed it with
  // "invalid byte sequence" (a 500 on PATCH /auth/me, login, register, comments, search, …;
  // found by server/fuzz.property.test.ts under TEST_DB=postgres). No field of the API has a use
  // for it, so it is refused up front on both databases, before validation and handlers.
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['body', request.body],
      ['querystring', request.query],
      ['params', request.params],
    ] as const) {
      const field = findNul(value);
      if (field !== null) {
        const name = field || part;
        throw badRequest('Text may not contain NUL characters (U+0000)', {
          [name]: 'Text may not contain NUL characters (U+0000)',
        });
      }
    }
  });
}

/** Where the first U+0000 is (dotted path of the string, or of the object with such a key; '' for the top), or null. */
function findNul(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop() as [unknown, string];
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        if (key.includes('\u0000')) return path;
        stack.push([child, path ? `${path}.${key}` : key]);
      }
    }
  }
  return null;
}

export default fp(jsonBody, { name: 'json-body' });
