import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { serializerFor } from './response-serializer.ts';

/** Every schema Fastify hands the compiler while the app's routes are registered. */
const handed = vi.hoisted(() => [] as { name: string; schema: unknown }[]);
vi.mock('./response-serializer.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./response-serializer.ts')>();
  return {
    ...original,
    responseSerializerCompiler: (route: Parameters<typeof original.responseSerializerCompiler>[0]) => {
      handed.push({ name: `${route.method} ${route.url} ${route.httpStatus}`, schema: route.schema });
      return original.responseSerializerCompiler(route);
    },
  };
});

describe('response writers', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  // Writers are compiled on a route's first answer; this compiles every one, so a schema that
  // fast-json-stringify cannot take fails here rather than in a user's request.
  test('every route’s response schemas compile', () => {
    expect(handed.length).toBeGreaterThan(200);
    const failed = handed.flatMap(({ name, schema }) => {
      try {
        serializerFor(schema as z.ZodType);
        return [];
      } catch (error) {
        return [`${name}: ${(error as Error).message}`];
      }
    });
    expect(failed).toEqual([]);
  });

  test('a writer writes only the declared properties, and is compiled once', () => {
    const schema = z.object({ name: z.string() });
    expect(serializerFor(schema)({ name: 'a', password_hash: 'secret' })).toBe('{"name":"a"}');
    expect(serializerFor(schema)).toBe(serializerFor(schema));
  });
});
