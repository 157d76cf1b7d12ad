import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  normalizeTags,
  parseAddLine,
  TAGS_MAX_LENGTH,
  TAGS_TOO_LONG,
  tagsError,
  toFullName,
} from './repository-input.ts';
import { decodeRouteId, encodeRouteId } from './route-id.ts';
import { bulkBodySchema } from './schemas/bulk.ts';
import { batchBodySchema, metadataBodySchema } from './schemas/repositories.ts';

describe('parseAddLine', () => {
  it.each([
    ['https://github.com/facebook/react', { kind: 'url', value: 'https://github.com/facebook/react' }],
    ['  http://github.com/a/b  ', { kind: 'url', value: 'http://github.com/a/b' }],
    ['github.com/vuejs/core', { kind: 'url', value: 'https://github.com/vuejs/core' }],
    ['www.github.com/vuejs/core', { kind: 'url', value: 'https://www.github.com/vuejs/core' }],
    ['facebook/react', { kind: 'id', value: 'facebook/react' }],
    ['my.org/some_repo-1.x', { kind: 'id', value: 'my.org/some_repo-1.x' }],
    ['react', { kind: 'invalid' }],
    ['a/b/c', { kind: 'invalid' }],
    ['', { kind: 'invalid' }],
    ['owner/na me', { kind: 'invalid' }],
  ])('%s', (line, expected) => {
    expect(parseAddLine(line)).toEqual(expected);
  });
});

describe('toFullName', () => {
  it.each([
    ['https://github.com/facebook/react', 'facebook/react'],
    ['https://www.GitHub.com/Facebook/React', 'Facebook/React'],
    ['https://github.com/facebook/react.git', 'facebook/react'],
    ['https://github.com/facebook/react/', 'facebook/react'],
    ['https://github.com/facebook/react/tree/main/packages', 'facebook/react'],
    ['https://github.com/facebook/react/issues/1?x=1#y', 'facebook/react'],
    ['http://github.com/a/b', 'a/b'],
  ])('url %s → %s', (url, expected) => {
    expect(toFullName({ url })).toBe(expected);
  });

  it.each([
    'https://gitlab.com/a/b',
    'https://github.com/only-owner',
    'ftp://github.com/a/b',
    'not a url',
    'https://evilgithub.com/a/b',
  ])('url %s → null', (url) => {
    expect(toFullName({ url })).toBeNull();
  });

  it('reads ids, dropping a trailing .git', () => {
    expect(toFullName({ id: 'vuejs/core.git' })).toBe('vuejs/core');
    expect(toFullName({ id: 'vuejs/../etc' })).toBeNull();
    expect(toFullName({ id: 'vuejs' })).toBeNull();
  });
});

describe('tags', () => {
  it('trims, drops empties and case-insensitive duplicates', () => {
    expect(normalizeTags(' react, UI ,, react ,React,ui, state ')).toBe('react,UI,state');
    expect(normalizeTags(undefined)).toBe('');
  });

  it('one rule, on the tags as stored, for every schema that takes tags', () => {
    const full = 'x'.repeat(TAGS_MAX_LENGTH);
    expect(tagsError(full)).toBeNull();
    expect(tagsError(`${full}y`)).toBe(TAGS_TOO_LONG);
    // Sent longer, stored within the limit (spaces and a duplicate dropped): accepted.
    const padded = ` ${full} , ${full.toUpperCase()} `;
    const over = `${full.slice(1)},ab`;
    for (const [schema, body] of [
      [metadataBodySchema, {}],
      [batchBodySchema, { items: [{ id: 'a/b' }] }],
      [bulkBodySchema, { items: ['a/b'], action: 'add_tags' }],
    ] as const) {
      expect(schema.safeParse({ ...body, tags: padded }).success).toBe(true);
      const refused = schema.safeParse({ ...body, tags: over });
      expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        ['tags', TAGS_TOO_LONG],
      ]);
    }
  });
});

describe('route ids', () => {
  it('writes URL-safe base64 without padding and reads every form', () => {
    const id = encodeRouteId('facebook/react');
    expect(id).toBe('ZmFjZWJvb2svcmVhY3Q');
    expect(decodeRouteId(id)).toBe('facebook/react');
    expect(decodeRouteId('ZmFjZWJvb2svcmVhY3Q=')).toBe('facebook/react');
    expect(decodeRouteId(Buffer.from('a-b/c.d_e').toString('base64'))).toBe('a-b/c.d_e');
  });

  it.each([
    '',
    '!!!',
    'a',
    Buffer.from('no-slash').toString('base64url'),
    Buffer.from([0xff, 0xfe]).toString('base64url'),
  ])('refuses %j', (value) => {
    expect(decodeRouteId(value)).toBeNull();
  });

  it('round-trips any valid full name', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_.-]{1,30}$/);
    fc.assert(
      fc.property(segment, segment, (owner, name) => {
        const fullName = `${owner}/${name}`;
        const encoded = encodeRouteId(fullName);
        expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeRouteId(encoded)).toBe(fullName);
        expect(decodeRouteId(Buffer.from(fullName).toString('base64'))).toBe(fullName);
      }),
    );
  });
});
