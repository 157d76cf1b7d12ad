import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.ts';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** Four forgot-password calls from one peer, each claiming another X-Forwarded-For. */
async function statuses(t: TestApp, remoteAddress: string) {
  const codes: number[] = [];
  for (let i = 0; i < 4; i++) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/forgot-password',
      payload: { email: `someone${i}@example.com` },
      remoteAddress,
      headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
    });
    codes.push(response.statusCode);
  }
  return codes;
}

describe('client addresses for rate limits (docs/security.md#a5)', () => {
  it('ignore X-Forwarded-For from an untrusted peer', async () => {
    const t = await createTestApp();
    apps.push(t);
    expect(await statuses(t, '198.51.100.7')).toEqual([200, 200, 200, 429]);
  });

  it('honour X-Forwarded-For from a trusted proxy', async () => {
    const t = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    apps.push(t);
    expect(await statuses(t, '127.0.0.1')).toEqual([200, 200, 200, 200]);
    // The proxy itself gets no pass from a spoofing peer behind it.
    expect(await statuses(t, '198.51.100.8')).toEqual([200, 200, 200, 429]);
  });
});
