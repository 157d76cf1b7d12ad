import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { type ZodType, z } from 'zod';

/**
 * Responses are written by fast-json-stringify from the JSON Schema of each route's zod
 * response schema. Like zod's own serializer it writes only the declared properties (so a hash
 * or secret on a row can never reach the wire), but several times faster: validating 3,855
 * repositories through zod took 18 ms of a 30 ms request (see bench/).
 */
export const responseSerializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema }) => {
  const stringify = fastJson(
    z.toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'any' }) as object,
  );
  return (data: unknown) => stringify(data);
};
