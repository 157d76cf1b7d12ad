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
    '::ffff:7f00:1',
    'not-an-ip',
    'fe80::1%eth0',
    // IPv4-compatible (deprecated) and IPv4-translated forms, refused whole.
    '::7f00:1',
    '::127.0.0.1',
    '::808:808',
    '::ffff:0:7f00:1',
    '::ffff:0:8.8.8.8',
    // NAT64's well-known prefix carrying a blocked IPv4 address; the local-use prefix, whole.
    '64:ff9b::7f00:1',
    '64:ff9b::10.1.2.3',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1:0:808:808::',
    // 6to4 of loopback, private and metadata addresses; Teredo and the other IETF blocks, whole.
    '2002:7f00:1::1',
    '2002:a00:1::',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:2::1',
    '100::1',
    '2001:db8::1',
    '3fff::1',
    '5f00::1',
    'fec0::1',
    '192.88.99.1',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '34.235.1.2',
    '8.8.8.8',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001::1',
    // The same forms carrying a public address reach that public address.
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('allows %s', (address) => {
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
    ['https://evil.example/services/T0', /this host is not allowed/],
    ['https://hooks.slack.com.evil.example/services/T0', /this host is not allowed/],
    ['https://hooks.slack.com:8443/services/T0', /this host is not allowed/],
    ['https://hooks.slack.com/api/other', /services/],
    ['http://127.0.0.1:8080/hook', /this host is not allowed/],
    ['http://169.254.169.254/latest/meta-data', /this host is not allowed/],
    ['http://localhost:9999/hook', /this host is not allowed/],
  ])('refuses %s', async (raw, message) => {
    await expect(checkWebhookUrl(raw, allowed, publicResolver)).rejects.toThrow(message);
  });

  it('tells a host is not allowed without naming the hosts that are', async () => {
    const refusal = checkWebhookUrl('https://evil.example/services/T0', allowed, publicResolver);
    await expect(refusal).rejects.toThrow(
      'Slack webhook URL must point to an allowed host: this host is not allowed',
    );
    await expect(refusal).rejects.not.toThrow(/hooks\.slack\.com|127\.0\.0\.1/);
  });

  it.each(['[::7f00:1]', '[::ffff:0:7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]'])(
    'refuses the listed literal %s, an IPv6 form of loopback',
    async (host) => {
      await expect(
        checkWebhookUrl(`https://${host}/services/T0`, ['hooks.slack.com', host], publicResolver),
      ).rejects.toThrow(/private or reserved/);
    },
  );

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
