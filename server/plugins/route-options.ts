import { errorBodySchema } from '#shared/schemas/errors.ts';

/**
 * What route files declare alike: the one error body for each status a route may answer with,
 * the bearer scheme OpenAPI shows, and the member access level (plugins/access.ts).
 */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    S,
    typeof errorBodySchema
  >;
}

/** The errors of a call on one repository: validation, sign-in, access, missing, conflict, limits, GitHub. */
export const REPOSITORY_ERRORS = errorResponses(400, 401, 403, 404, 409, 429, 502);

export const bearerSecurity = [{ bearerAuth: [] }];

/** Signed-in members (and admins). */
export const memberAccess = { access: 'user' as const };
