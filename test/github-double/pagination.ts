/**
 * GitHub's page-number pagination: `per_page` (default 30, at most 100) and `page` (from 1),
 * and a `Link` header whose URLs keep the request's own parameters with `page` replaced.
 * GitHub writes those URLs against /repositories/{id}/…, not the name the client used.
 */

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;

export interface PageRequest {
  perPage: number;
  page: number;
}

export function parsePageRequest(params: URLSearchParams): PageRequest {
  const perPage = positiveInteger(params.get('per_page')) ?? DEFAULT_PER_PAGE;
  const page = positiveInteger(params.get('page')) ?? 1;
  return { perPage: Math.min(perPage, MAX_PER_PAGE), page };
}

function positiveInteger(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) {
    return undefined;
  }
  const number = Number(value);
  return number >= 1 ? number : undefined;
}

export function lastPage(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/**
 * The Link header for `page` of `total` items, or undefined when everything fits on page 1.
 * rel order is GitHub's: prev, next, last, first (first and prev only after page 1).
 */
export function linkHeader(
  listUrl: string,
  params: URLSearchParams,
  request: PageRequest,
  total: number,
): string | undefined {
  const last = lastPage(total, request.perPage);
  if (last <= 1 && request.page <= 1) {
    return undefined;
  }
  const pageUrl = (page: number) => {
    const next = new URLSearchParams(params);
    if (next.has('page')) {
      next.set('page', String(page));
    } else {
      next.append('page', String(page));
    }
    return `<${listUrl}?${next.toString()}>`;
  };
  const parts: string[] = [];
  if (request.page > 1) {
    parts.push(`${pageUrl(request.page - 1)}; rel="prev"`);
  }
  if (request.page < last) {
    parts.push(`${pageUrl(request.page + 1)}; rel="next"`, `${pageUrl(last)}; rel="last"`);
  }
  if (request.page > 1) {
    parts.push(`${pageUrl(1)}; rel="first"`);
  }
  return parts.join(', ');
}
