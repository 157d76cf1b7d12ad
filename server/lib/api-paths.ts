/**
 * Paths the API answers at the origin root (docs/product.md#api-conventions); everything else belongs to the
 * SPA.
 */
export const API_PREFIXES = [
  '/auth',
  '/repositories',
  '/api',
  '/health',
  '/version',
  '/docs',
  '/tags',
  '/badge',
] as const;

export function isApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
