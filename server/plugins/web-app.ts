import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import { declarePublicRoutes } from './access.ts';

export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * Headers that only a document (a page the browser navigates to or frames) reads, which the
 * security plugin sets on every answer: a script or stylesheet under `/assets/` goes without
 * them, about 470 bytes a file (docs/security.md#g3). `nosniff`, `Cross-Origin-Resource-Policy`
 * and `Referrer-Policy` (a stylesheet's and a module script's own requests follow it) stay.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

const SUBRESOURCE = /^\/assets\/[^/?]+\.(js|css)(\?|$)/;

/**
 * Serves the built SPA: `index.html` at `/` (revalidated on every load, so a deploy shows at
 * once) and hashed assets under `/assets/` cached for a year. Without a build, `/` explains
 * how to make one instead of answering a bare 404.
 *
 * `index.html` is read once, at startup, and answered from memory with an ETag of its content
 * (a matching If-None-Match gets 304): every page load asks for it, and reading the file took
 * a turn of the event loop's file-system queue (docs/architecture.md#web-app). A new build is
 * served after a restart, as the assets it names are.
 *
 * Assets are answered precompressed: the build writes `.br` (brotli 11) and `.gz` (gzip 9)
 * beside each script and stylesheet (vite.config.ts), and `preCompressed` sends the one the
 * request accepts with `content-encoding` and `vary: accept-encoding`, or the file itself;
 * @fastify/compress leaves an answer that already has a `content-encoding` as it is.
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
    const indexHtml = readFileSync(`${root}/index.html`);
    const indexEtag = `"${createHash('sha256').update(indexHtml).digest('base64url').slice(0, 27)}"`;
    const serveIndex = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', 'no-cache').header('etag', indexEtag);
      if (request.headers['if-none-match'] === indexEtag) return reply.code(304).send();
      return reply.type('text/html; charset=utf-8').send(indexHtml);
    };
    web.get('/', serveIndex);
    web.get('/index.html', serveIndex);
    web.addHook('onSend', async (request, reply, payload) => {
      if (SUBRESOURCE.test(request.url)) for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
      return payload;
    });
    await web.register(fastifyStatic, {
      root,
      prefix: '/',
      index: false,
      wildcard: true,
      preCompressed: true,
      setHeaders(reply, filePath) {
        if (filePath.includes('/assets/'))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        else reply.header('cache-control', 'no-cache');
      },
    });
  });
}

export default fp(webApp, { name: 'web-app' });
