import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import { declarePublicRoutes } from './access.ts';

export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * Serves the built SPA: `index.html` at `/` (revalidated on every load, so a deploy shows at
 * once) and hashed assets under `/assets/` cached for a year. Without a build, `/` explains
 * how to make one instead of answering a bare 404.
 */
async function webApp(app: FastifyInstance, options: { distDir?: string }) {
  const root = options.distDir ?? WEB_DIST_DIR;
  await app.register(async (web) => {
    declarePublicRoutes(web);
    if (!existsSync(`${root}/index.html`)) {
      web.get('/', async () => {
        throw new AppError(503, 'service_unavailable', 'The web app is not built yet: run `npm run build`.');
      });
      return;
    }
    await web.register(fastifyStatic, {
      root,
      prefix: '/',
      index: ['index.html'],
      wildcard: true,
      setHeaders(reply, filePath) {
        if (filePath.includes('/assets/'))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        else reply.header('cache-control', 'no-cache');
      },
    });
  });
}

export default fp(webApp, { name: 'web-app' });
