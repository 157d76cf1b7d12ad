import type { z } from 'zod';
import { badRequest } from './app-error.ts';

/**
 * The one cursor encoder (keyset paging of the catalogue list and the activity feed): a cursor
 * is the base64url of a small JSON object, opaque to clients. Decoding checks it against the
 * caller's zod schema, so a cursor that was tampered with, truncated or made by another kind
 * of page answers 400 with the field named, never a 500 or a wrong page.
 */
export const CURSOR_INVALID = 'Invalid cursor: start again without it.';

/** The largest id a cursor may carry: ids are PostgreSQL `integer`s. */
export const CURSOR_ID_MAX = 2_147_483_647;

export function encodeCursor(body: object): string {
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

export function invalidCursor(message = CURSOR_INVALID) {
  return badRequest(message, { cursor: message });
}

export function decodeCursor<S extends z.ZodType>(cursor: string, schema: S): z.output<S> {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidCursor();
  return parsed.data;
}
