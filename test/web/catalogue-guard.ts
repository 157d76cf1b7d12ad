/**
 * The hidden-cost check (issue 11): no screen may download the whole catalogue. `GET
 * /repositories/` (and the admin list, `GET /auth/admin/repositories`) answer every visible
 * repository when called without query parameters, so a screen's data load must always page.
 * `stubFetch` passes every request through `guardCatalogueRequest`; the web setup fails the test
 * that made such a call, whatever the screen did with the error.
 */

/** The list paths under any API base (`/repositories/`, `/api/repositories`, `/auth/admin/repositories`). */
const WHOLE_CATALOGUE_PATH = /\/repositories\/?$/;

const violations: string[] = [];

export class WholeCatalogueRequestError extends Error {
  constructor(url: string) {
    super(`A screen asked for the whole catalogue without paging parameters: GET ${url}`);
    this.name = 'WholeCatalogueRequestError';
  }
}

/** Throws (and remembers) when `request` is a list call without any query parameter. */
export function guardCatalogueRequest(request: Request): void {
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!WHOLE_CATALOGUE_PATH.test(url.pathname) || url.search !== '') return;
  violations.push(`GET ${url.pathname}`);
  throw new WholeCatalogueRequestError(url.pathname);
}

/** The unpaged list calls made since the last call, emptied. */
export function takeWholeCatalogueRequests(): string[] {
  return violations.splice(0);
}
