import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { isApiPath } from '../lib/api-paths.ts';

/**
 * Security headers (docs/security.md#c6, #g3): a strict CSP with no inline or third-party script,
 * no framing, no referrer leaks; CORS only for configured origins (never reflected); API
 * answers are never cached.
 */
async function security(app: FastifyInstance, options: { config: AppConfig }) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS only makes sense behind TLS; a reverse proxy adds it there.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });

  if (options.config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: options.config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept'],
      exposedHeaders: ['Retry-After', 'X-Request-Id', 'Content-Disposition'],
      maxAge: 600,
    });
  }

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    const path = request.url.split('?')[0] ?? '/';
    if (isApiPath(path) && !path.startsWith('/docs') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}

export default fp(security, { name: 'security' });
