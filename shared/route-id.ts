/**
 * Repository ids in routes (docs/product.md#route-table): base64 of the full name. Written URL-safe without
 * padding (RFC 4648 §5); read in either alphabet, padded or not.
 */

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function encodeRouteId(fullName: string): string {
  return toBase64Url(new TextEncoder().encode(fullName));
}

/** The full name, or null when the value isn't base64 of an `owner/name`. */
export function decodeRouteId(value: string): string | null {
  const normalized = value.trim().replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
  if (normalized === '' || !/^[A-Za-z0-9+/]+$/.test(normalized) || normalized.length % 4 === 1) return null;
  try {
    const binary = atob(normalized + '='.repeat((4 - (normalized.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(text) ? text : null;
  } catch {
    return null;
  }
}
