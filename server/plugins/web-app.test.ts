import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers/test-app.ts';

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
