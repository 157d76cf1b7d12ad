import { describe, expect, it } from 'vitest';
import { hashToken, randomToken, SecretBox } from './secret-box.ts';

const box = new SecretBox('k'.repeat(64));

describe('SecretBox', () => {
  it('round-trips and never contains the plaintext', () => {
    const sealed = box.seal('ghp_secretvalue1234', 'user:1:github_token');
    expect(sealed).not.toContain('ghp_secretvalue1234');
    expect(sealed).toMatch(/^v1\./);
    expect(box.open(sealed, 'user:1:github_token')).toBe('ghp_secretvalue1234');
  });

  it('uses a fresh nonce every time', () => {
    expect(box.seal('same', 'c')).not.toBe(box.seal('same', 'c'));
  });

  it('refuses a tampered value', () => {
    const sealed = box.seal('secret', 'c');
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[3] ?? '', 'base64url');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[3] = ciphertext.toString('base64url');
    expect(() => box.open(parts.join('.'), 'c')).toThrow();
  });

  it('refuses a value moved to another row or field', () => {
    const sealed = box.seal('secret', 'user:1:github_token');
    expect(() => box.open(sealed, 'user:2:github_token')).toThrow();
    expect(() => box.open(sealed, 'user:1:slack_webhook')).toThrow();
  });

  it('refuses a value sealed under another key', () => {
    const sealed = new SecretBox('x'.repeat(64)).seal('secret', 'c');
    expect(() => box.open(sealed, 'c')).toThrow();
  });
});

describe('tokens', () => {
  it('are 256-bit and stored as SHA-256 hex', () => {
    const token = randomToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toBe(hashToken(randomToken()));
  });
});
