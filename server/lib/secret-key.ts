import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET_FILE = 'secret_key';

/**
 * The key that signs tokens and encrypts stored secrets: `SECRET_KEY` when set, otherwise
 * generated once into `DATA_DIR/secret_key` with mode 0600 and reused on every boot.
 * Losing this file makes stored GitHub tokens and webhooks unreadable, so it is created with
 * an exclusive write and never overwritten.
 */
export function resolveSecretKey(options: { secretKey?: string; dataDir: string }): string {
  if (options.secretKey) return options.secretKey;
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, SECRET_FILE);
  if (!existsSync(file)) {
    try {
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process created it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const key = readFileSync(file, 'utf8').trim();
  if (key.length < 32) throw new Error(`${file} holds no usable key (expected 64 hex characters)`);
  return key;
}
