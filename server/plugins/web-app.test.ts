import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers/test-app.ts';
import { DOCUMENT_ONLY_HEADERS } from './web-app.ts';

describe('index.html', () => {
  it('is read once at startup and answered from memory, revalidated by its ETag', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'rt-dist-'));
    mkdirSync(join(dist, 'assets'));
    const html = '<!doctype html><title>t</title><div id="root"></div>';
    writeFileSync(join(dist, 'index.html'), html);
    const web = await createTestApp({}, { webDistDir: dist });
    try {
      // Removed after startup: the page still answers, from memory.
      rmSync(join(dist, 'index.html'));
      for (const url of ['/', '/index.html']) {
        const page = await web.app.inject({ method: 'GET', url });
        expect(page.statusCode).toBe(200);
        expect(page.body).toBe(html);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.headers['cache-control']).toBe('no-cache');
        const etag = String(page.headers.etag);
        expect(etag).toMatch(/^"[\w-]+"$/);
        const again = await web.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');
      }
      const other = await web.app.inject({
        method: 'GET',
        url: '/',
        headers: { 'if-none-match': '"other"' },
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await web.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('hashed assets', () => {
  it('are answered precompressed as the request accepts, with the same bytes decoded', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'rt-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>t</title>');
    // Large enough for @fastify/compress to compress it on the fly (threshold 1 kB) if it could.
    const script = Buffer.from(
      Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i * 7};`).join('\n'),
    );
    const br = brotliCompressSync(script, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    const gz = gzipSync(script, { level: 9 });
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), script);
    writeFileSync(join(dist, 'assets', 'app-abc123.js.br'), br);
    writeFileSync(join(dist, 'assets', 'app-abc123.js.gz'), gz);
    const web = await createTestApp({}, { webDistDir: dist });
    try {
      const get = (acceptEncoding?: string) =>
        web.app.inject({
          method: 'GET',
          url: '/assets/app-abc123.js',
          headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
        });
      const cases = [
        { accept: 'gzip, deflate, br, zstd', encoding: 'br', file: br, decode: brotliDecompressSync },
        { accept: 'gzip', encoding: 'gzip', file: gz, decode: gunzipSync },
        { accept: 'identity', encoding: undefined, file: script, decode: (body: Buffer) => body },
        { accept: undefined, encoding: undefined, file: script, decode: (body: Buffer) => body },
      ];
      for (const { accept, encoding, file, decode } of cases) {
        const answer = await get(accept);
        expect(answer.statusCode, `accept-encoding: ${accept}`).toBe(200);
        expect(answer.headers['content-encoding']).toBe(encoding);
        // The file the build wrote, not a second compression of it.
        expect(answer.rawPayload.equals(file)).toBe(true);
        expect(decode(answer.rawPayload).equals(script)).toBe(true);
        expect(answer.headers['content-type']).toBe('application/javascript; charset=utf-8');
        expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(answer.headers.etag).toMatch(/^W\/"[\w-]+"$/);
        expect(String(answer.headers.vary)).toMatch(/accept-encoding/i);
        // Headers only a document reads are left off; those a script's fetch reads stay.
        for (const name of DOCUMENT_ONLY_HEADERS) expect(answer.headers[name], name).toBeUndefined();
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
        expect(answer.headers['referrer-policy']).toBe('no-referrer');
      }
      const page = await web.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } });
      for (const name of DOCUMENT_ONLY_HEADERS) expect(page.headers[name], name).toBeDefined();
    } finally {
      await web.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
