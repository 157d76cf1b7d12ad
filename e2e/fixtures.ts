import { createHash } from 'node:crypto';
import { test as base, type TestInfo } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * Every journey calls from its own client address (X-Forwarded-For, trusted from 127.0.0.1 by
 * e2e/serve.ts), so the sign-in and registration limits of one journey, or of a retry, never
 * spill into another's.
 */
function clientAddress(testInfo: TestInfo): string {
  const digest = createHash('sha256')
    .update(`${testInfo.file}|${testInfo.titlePath.join('|')}|${testInfo.retry}`)
    .digest();
  return `10.${digest[0]}.${digest[1]}.${digest[2]}`;
}

export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': clientAddress(testInfo) });
  },
});
