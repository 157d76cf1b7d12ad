import type { DoubleRepository } from './catalogue.ts';
import { linkHeader, parsePageRequest } from './pagination.ts';
import type { DoubleRoute, RouteContext, RouteResult } from './rest-routes.ts';
import { DOCS, restError, restRepository } from './shapes.ts';
import { hashUint32 } from './stable-hash.ts';

/**
 * The repository lists the app imports from: a user's stars, and an organisation's or a
 * user's repositories. Stars are a deterministic pick of about one in fifty public
 * repositories per login, so every known login has a stable, realistic list.
 */
const STAR_ONE_IN = 50;

export const LISTING_ROUTES: readonly DoubleRoute[] = [
  listing('/users/{username}/starred', /^\/users\/(?<login>[^/]+)\/starred\/?$/, (context, login) => {
    const stars = context.directory
      .listVisible(context.caller)
      .filter(
        (repo) =>
          !repo.isPrivate && hashUint32(`${login.toLowerCase()}:starred:${repo.key}`) % STAR_ONE_IN === 0,
      );
    return stars.sort((a, b) => hashUint32(`${login}:${a.key}`) - hashUint32(`${login}:${b.key}`));
  }),
  listing('/orgs/{org}/repos', /^\/orgs\/(?<login>[^/]+)\/repos\/?$/, ownedBy),
  listing('/users/{username}/repos', /^\/users\/(?<login>[^/]+)\/repos\/?$/, ownedBy),
];

function ownedBy(context: RouteContext, login: string): DoubleRepository[] {
  return context.directory
    .listVisible(context.caller)
    .filter((repo) => repo.owner.login.toLowerCase() === login.toLowerCase());
}

/** A login is known when it owns at least one repository of the catalogue (any case). */
function loginExists(context: RouteContext, login: string): boolean {
  return context.directory
    .listVisible({ kind: 'anonymous' })
    .some((repo) => repo.owner.login.toLowerCase() === login.toLowerCase());
}

function listing(
  template: string,
  pattern: RegExp,
  select: (context: RouteContext, login: string) => DoubleRepository[],
): DoubleRoute {
  return {
    method: 'GET',
    template,
    pattern,
    resource: 'core',
    handle: (context): RouteResult => {
      const login = decodeURIComponent(context.params.login ?? '');
      if (!loginExists(context, login)) return { status: 404, body: restError('Not Found', DOCS.root, 404) };
      const repos = select(context, login);
      const page = parsePageRequest(context.url.searchParams);
      const slice = repos.slice((page.page - 1) * page.perPage, page.page * page.perPage);
      const link = linkHeader(
        `${context.baseUrl}${context.url.pathname}`,
        context.url.searchParams,
        page,
        repos.length,
      );
      return {
        status: 200,
        body: slice.map((repo) =>
          restRepository(repo, { baseUrl: context.baseUrl, authenticated: context.caller.kind === 'token' }),
        ),
        headers: link ? { link } : {},
        conditional: true,
      };
    },
  };
}
