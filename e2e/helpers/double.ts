import { type APIRequestContext, expect } from '@playwright/test';
import { CONTROL_URL } from './mail.ts';

/** base64url of a full name, as the app writes route ids (docs/product.md#route-table). */
export function routeId(fullName: string): string {
  return Buffer.from(fullName, 'utf8').toString('base64url');
}

/** The GitHub double's address, from e2e/serve.ts's control server. */
export async function doubleUrl(request: APIRequestContext): Promise<string> {
  const response = await request.get(`${CONTROL_URL}/github`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { url: string }).url;
}

/** Steers the GitHub double (reset, snapshot, releases, …) through its `/_double/` routes. */
export async function steerDouble(
  request: APIRequestContext,
  path: string,
  data: unknown = {},
): Promise<void> {
  const response = await request.post(`${await doubleUrl(request)}/_double/${path}`, { data });
  expect(response.ok(), await response.text()).toBe(true);
}
