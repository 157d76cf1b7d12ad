import type { DoubleRepository } from './catalogue.ts';
import { linkHeader, parsePageRequest } from './pagination.ts';
import { type DoubleRelease, type DoubleTag, releaseBody, tagTarget } from './releases.ts';
import type { Resolution } from './repository-directory.ts';
import type { DoubleRoute, RouteContext, RouteResult } from './rest-routes.ts';
import { DOCS, type JsonObject, legacyNodeId, restError, restUser } from './shapes.ts';

/**
 * Releases and tags (releases.ts), by name and by id like the other repository routes:
 * `GET …/releases` (newest first, paginated, drafts only for collaborators), `…/releases/latest`
 * (404 when there is no full release) and `…/tags`. Answers are conditional (ETag, 304) and
 * their shapes are GitHub's (repos/list-releases, repos/get-latest-release, repos/list-tags).
 */

const WEB_URL = 'https://github.com';
const NAME = '(?<owner>[^/]+)/(?<repo>[^/]+)';

export const RELEASE_DOCS = {
  listReleases: 'https://docs.github.com/rest/releases/releases#list-releases',
  latestRelease: 'https://docs.github.com/rest/releases/releases#get-the-latest-release',
  listTags: 'https://docs.github.com/rest/repos/repos#list-repository-tags',
} as const;

type Endpoint = 'releases' | 'latest' | 'tags';
const SUB_PATHS: Record<Endpoint, string> = {
  releases: '/releases',
  latest: '/releases/latest',
  tags: '/tags',
};

export const RELEASE_ROUTES: readonly DoubleRoute[] = (['releases', 'latest', 'tags'] as const).flatMap(
  (endpoint): DoubleRoute[] => {
    const sub = SUB_PATHS[endpoint].replace('/', '\\/');
    return [
      {
        method: 'GET',
        template: `/repos/{owner}/{repo}${SUB_PATHS[endpoint]}`,
        pattern: new RegExp(`^/repos/${NAME}${sub}/?$`),
        resource: 'core',
        handle: (context) => {
          const owner = safeDecode(context.params.owner ?? '');
          const repo = safeDecode(context.params.repo ?? '');
          if (owner === undefined || repo === undefined) return notFound(endpoint);
          return answer(endpoint, context.directory.resolveName(`${owner}/${repo}`, context.caller), context);
        },
      },
      {
        method: 'GET',
        template: `/repositories/{id}${SUB_PATHS[endpoint]}`,
        pattern: new RegExp(`^/repositories/(?<id>\\d+)${sub}/?$`),
        resource: 'core',
        handle: (context) =>
          answer(endpoint, context.directory.resolveId(Number(context.params.id), context.caller), context),
      },
    ];
  },
);

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function documentation(endpoint: Endpoint): string {
  return endpoint === 'tags'
    ? RELEASE_DOCS.listTags
    : endpoint === 'latest'
      ? RELEASE_DOCS.latestRelease
      : RELEASE_DOCS.listReleases;
}

function notFound(endpoint: Endpoint): RouteResult {
  return { status: 404, body: restError('Not Found', documentation(endpoint), 404) };
}

function answer(endpoint: Endpoint, resolution: Resolution, context: RouteContext): RouteResult {
  if (resolution.kind === 'missing') return notFound(endpoint);
  const { repo } = resolution;
  if (resolution.kind === 'moved') {
    const location = `${context.baseUrl}/repositories/${repo.id}${SUB_PATHS[endpoint]}${context.url.search}`;
    return {
      status: 301,
      body: { message: 'Moved Permanently', url: location, documentation_url: DOCS.redirects },
      headers: { location },
    };
  }
  const overlay = context.directory.releases;
  if (endpoint === 'latest') {
    const latest = overlay.latest(repo);
    if (!latest) return notFound(endpoint);
    return { status: 200, body: restRelease(repo, latest, context.baseUrl), conditional: true };
  }
  const page = parsePageRequest(context.url.searchParams);
  const end = page.page * page.perPage;
  const collaborator = context.directory.isCollaborator(context.caller);
  // Only the pages up to this one are built: a history may hold thousands of releases.
  const items: (DoubleRelease | DoubleTag)[] =
    endpoint === 'releases' ? overlay.releases(repo, collaborator, end) : overlay.tags(repo, end);
  const total = endpoint === 'releases' ? overlay.releaseTotal(repo, collaborator) : overlay.tagTotal(repo);
  const slice = items.slice((page.page - 1) * page.perPage, end);
  const link = linkHeader(
    `${context.baseUrl}/repositories/${repo.id}${SUB_PATHS[endpoint]}`,
    context.url.searchParams,
    page,
    total,
  );
  return {
    status: 200,
    body: slice.map((item) =>
      'tag' in item ? restRelease(repo, item, context.baseUrl) : restTag(repo, item, context.baseUrl),
    ),
    headers: link ? { link } : {},
    conditional: true,
  };
}

/** GitHub's release object (the field order of its documented example). */
export function restRelease(repo: DoubleRepository, release: DoubleRelease, baseUrl: string): JsonObject {
  const api = `${baseUrl}/repos/${repo.fullName}/releases/${release.id}`;
  const html = release.draft
    ? `${WEB_URL}/${repo.fullName}/releases/tag/untagged-${release.id.toString(16)}`
    : `${WEB_URL}/${repo.fullName}/releases/tag/${encodeURIComponent(release.tag)}`;
  return {
    url: api,
    assets_url: `${api}/assets`,
    upload_url: `https://uploads.github.com/repos/${repo.fullName}/releases/${release.id}/assets{?name,label}`,
    html_url: html,
    id: release.id,
    author: restUser(repo.owner, baseUrl),
    node_id: legacyNodeId('Release', release.id),
    tag_name: release.tag,
    target_commitish: repo.defaultBranch,
    name: release.name,
    draft: release.draft,
    immutable: false,
    prerelease: release.prerelease,
    created_at: release.createdAt,
    updated_at: release.publishedAt ?? release.createdAt,
    published_at: release.publishedAt,
    assets: [],
    tarball_url: `${baseUrl}/repos/${repo.fullName}/tarball/${encodeURIComponent(release.tag)}`,
    zipball_url: `${baseUrl}/repos/${repo.fullName}/zipball/${encodeURIComponent(release.tag)}`,
    body: releaseBody(repo, release),
  };
}

export function restTag(repo: DoubleRepository, tag: DoubleTag, baseUrl: string): JsonObject {
  const { sha } = tagTarget(repo, tag);
  const name = encodeURIComponent(tag.name);
  return {
    name: tag.name,
    zipball_url: `${baseUrl}/repos/${repo.fullName}/zipball/refs/tags/${name}`,
    tarball_url: `${baseUrl}/repos/${repo.fullName}/tarball/refs/tags/${name}`,
    commit: { sha, url: `${baseUrl}/repos/${repo.fullName}/commits/${sha}` },
    node_id: legacyNodeId('Ref', `${repo.id}:refs/tags/${tag.name}`),
  };
}
