import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets users store (GitHub token, Slack webhook URL) are sealed with AES-256-GCM under a key
 * derived from SECRET_KEY (docs/security.md#e1). The additional data binds a sealed value to its
 * owner and field, so a value copied into another row or column fails to open.
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each base64url.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(secretKey: string) {
    this.#key = deriveKey(secretKey, 'stored-secrets-v1');
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the value was tampered with, sealed for another context, or under another key. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined)
      throw new Error('Unrecognised sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** A 32-byte key for one purpose, derived from the instance secret with HKDF-SHA256. */
export function deriveKey(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secretKey), Buffer.alloc(0), Buffer.from(purpose), 32));
}

/** A URL-safe random token of `bytes` random bytes (≥ 32 for anything that grants access). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens are stored only as this digest; lookups hash the presented value. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
