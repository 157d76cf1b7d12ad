import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isBlockedAddress, type Resolver } from './outbound-guard.ts';

const publicResolver: Resolver = async () => ['34.235.1.2'];
const allowed = ['hooks.slack.com', '127.0.0.1:9999'];

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    'not-an-ip',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['34.235.1.2', '8.8.8.8', '2606:4700::1111'])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('checkWebhookUrl', () => {
  it('accepts a Slack webhook', async () => {
    const url = await checkWebhookUrl(
      ' https://hooks.slack.com/services/T0/B0/XyZ ',
      allowed,
      publicResolver,
    );
    expect(url.href).toBe('https://hooks.slack.com/services/T0/B0/XyZ');
  });

  it('accepts a listed loopback sink over http', async () => {
    await expect(
      checkWebhookUrl('http://127.0.0.1:9999/hook', allowed, publicResolver),
    ).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ['not a url', /valid URL/],
    ['http://hooks.slack.com/services/T0/B0/X', /https/],
    ['https://user:pass@hooks.slack.com/services/T0/B0/X', /credentials/],
    ['https://evil.example/services/T0', /must point to/],
    ['https://hooks.slack.com.evil.example/services/T0', /must point to/],
    ['https://hooks.slack.com:8443/services/T0', /must point to/],
    ['https://hooks.slack.com/api/other', /services/],
    ['http://127.0.0.1:8080/hook', /must point to/],
    ['http://169.254.169.254/latest/meta-data', /must point to/],
    ['http://localhost:9999/hook', /must point to/],
  ])('refuses %s', async (raw, message) => {
    await expect(checkWebhookUrl(raw, allowed, publicResolver)).rejects.toThrow(message);
  });

  it('refuses a listed public host that resolves to a private address', async () => {
    await expect(
      checkWebhookUrl('https://hooks.slack.com/services/T0/B0/X', allowed, async () => ['10.0.0.5']),
    ).rejects.toThrow(/private or reserved/);
  });

  it('refuses a host that does not resolve', async () => {
    await expect(
      checkWebhookUrl('https://hooks.slack.com/services/T0/B0/X', allowed, async () => {
        throw new Error('ENOTFOUND');
      }),
    ).rejects.toThrow(/could not be resolved/);
  });
});
