import { QueryClient } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { HashRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import type { ErrorCode } from '#shared/schemas/errors.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import type { VersionResponse } from '#shared/schemas/system.ts';
import { App } from '#web/app/app.tsx';
import { AppProviders } from '#web/app/providers.tsx';
import type { User } from '#web/lib/auth/user.ts';
import { guardCatalogueRequest } from './catalogue-guard.ts';

export const testVersion: VersionResponse = {
  app_name: 'Team Catalogue',
  api_version: '1.2.3',
  git_commit: '0123456789abcdef0123456789abcdef01234567',
  badges: false,
  public_pages: false,
};

export function buildUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    username: 'alice',
    email: 'alice@example.com',
    first_name: 'Alice',
    last_name: 'Smith',
    is_active: true,
    is_verified: true,
    is_admin: false,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    last_login_at: null,
    has_personal_github_token: false,
    github_token_last_four: null,
    github_token_set_at: null,
    github_default_quota_remaining: null,
    has_slack_webhook: false,
    slack_webhook_set_at: null,
    ...overrides,
  };
}

/** A repository as GET /repositories/ lists it: nothing counted, no licence, tags or dates. */
export function buildRepositorySummary(
  overrides: Partial<RepositorySummary> & { id: string },
): RepositorySummary {
  const { id } = overrides;
  return {
    user_id: 1,
    name: id.split('/')[1] ?? id,
    description: null,
    url: `https://github.com/${id}`,
    license: '',
    topics: '',
    tags: '',
    notes: '',
    stars: 0,
    forks: 0,
    issues: 0,
    commits: 0,
    total_commits: 0,
    contributors: 0,
    last_commit: null,
    last_synced: null,
    created_at: '2026-08-01T00:00:00Z',
    updated_at: '2026-08-01T00:00:00Z',
    language: null,
    archived: false,
    private: false,
    gone: false,
    default_branch: 'main',
    github_id: 1,
    comment_count: 0,
    version_count: 0,
    growth: { stars_7d: null, stars_30d: null },
    health: { score: null, grade: 'unknown' },
    decision: null,
    open_advisories: { critical: 0, high: 0, medium: 0, low: 0, unknown: 0 },
    ...overrides,
  };
}

/** Stores a session the way a sign-in will, so the app restores it at start. */
export function signIn(user: User = buildUser()): User {
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  localStorage.setItem(STORAGE_KEYS.accessToken, 'test-access-token');
  localStorage.setItem(STORAGE_KEYS.refreshToken, 'test-refresh-token');
  return user;
}

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
}

/** The `code` the server sends with each status (server/plugins/errors.ts). */
const ERROR_CODES: Record<number, ErrorCode> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  502: 'bad_gateway',
  503: 'service_unavailable',
};

/**
 * An error answer with the API's body (docs/product.md#error-body): `code` as the server sends it
 * with `status` (a 400 with `fields` is `validation_failed`), unless `extra` names another.
 */
export function errorResponse(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
): Response {
  const code =
    status === 400
      ? 'fields' in extra
        ? 'validation_failed'
        : 'bad_request'
      : (ERROR_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request'));
  return jsonResponse({ message, code, ...extra }, { status });
}

/**
 * GET /auth/me as the server answers it: the stored user when the request carries the stored
 * access token, else 401.
 */
export const meFromStorage: FetchHandler = (request) => {
  const token = localStorage.getItem(STORAGE_KEYS.accessToken);
  if (!token || request.headers.get('Authorization') !== `Bearer ${token}`) {
    return errorResponse(401, 'Authentication required');
  }
  return jsonResponse({ user: JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? 'null') });
};

/**
 * Replaces global fetch with a router of `METHOD /path` handlers. Defaults: `GET /version`
 * answers `version`, `GET /auth/me` answers the stored session (`meFromStorage`) and
 * `POST /auth/logout` succeeds; an unhandled call answers 404 with the API's error body. A list
 * call without paging parameters throws and fails the test (test/web/catalogue-guard.ts).
 */
export function stubFetch(
  handlers: Record<string, FetchHandler> = {},
  version: VersionResponse = testVersion,
) {
  const routes: Record<string, FetchHandler> = {
    'GET /version': () => jsonResponse(version),
    'GET /auth/me': meFromStorage,
    'POST /auth/logout': () => jsonResponse({ message: 'Signed out' }),
    // Cards composed into other screens (the repository page's activity, Settings' feed): quiet
    // by default, so a screen's own test needn't answer for them.
    'GET /activity': () => jsonResponse({ events: [], next_cursor: null }),
    'GET /auth/me/feed-token': () => jsonResponse({ exists: false, created_at: null, last_used_at: null }),
    // The profile's sign-in methods: a password, no single sign-on.
    'GET /auth/me/identities': () => jsonResponse({ identities: [], has_password: true }),
    // The sidebar's saved views: none unless a test says otherwise.
    'GET /views': () => jsonResponse({ views: [] }),
    // The sidebar's Radar badge: nothing due unless a test says otherwise.
    'GET /decisions/reviews-due': () => jsonResponse({ reviews_due: [] }),
    ...handlers,
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    guardCatalogueRequest(request);
    const handler = routes[`${request.method} ${new URL(request.url).pathname}`];
    if (handler) return handler(request);
    return jsonResponse({ message: 'Not found', code: 'not_found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

interface HappyDomWindow {
  happyDOM: { setViewport: (viewport: { width: number; height: number }) => void };
}

/** Resizes happy-dom's window; media queries (Mantine's useMediaQuery) follow it. */
export function setViewportWidth(width: number): void {
  (window as unknown as HappyDomWindow).happyDOM.setViewport({ width, height: 768 });
}

/**
 * Puts the window back to 1024 px. Called from test/web/setup.ts after each test: a hook
 * registered here would attach only to the first test file that imports this module when files
 * share a worker.
 */
export function resetRenderState(): void {
  setViewportWidth(1024);
}

export interface RenderAppOptions {
  /** The hash path to open, e.g. '/tags' or '/admin?tab=users'. */
  route?: string;
  version?: VersionResponse;
  handlers?: Record<string, FetchHandler>;
}

/** Opens `route` and renders `view`, which holds a hash router, inside the app's providers. */
function mount(route: string, fetchMock: ReturnType<typeof stubFetch>, view: ReactNode) {
  window.location.hash = `#${route}`;
  const user = userEvent.setup();
  const result = render(
    <AppProviders queryClient={createTestQueryClient()} env="test">
      {view}
    </AppProviders>,
  );
  return { ...result, user, fetchMock };
}

/** The whole app as main.tsx mounts it, on the real hash router, with a stubbed API. */
export function renderApp({ route = '/', version, handlers }: RenderAppOptions = {}) {
  return mount(route, stubFetch(handlers, version), <App />);
}

/** One component inside the providers and a hash router, for feature-level tests. */
export function renderWithProviders(
  ui: ReactNode,
  { route = '/', handlers }: { route?: string; handlers?: Record<string, FetchHandler> } = {},
) {
  return mount(
    route,
    stubFetch(handlers),
    <HashRouter>
      <Routes>
        <Route path="*" element={ui} />
      </Routes>
    </HashRouter>,
  );
}

/**
 * Goes to `path` as an address typed into the bar does. Browsers fire popstate on a change of
 * hash, which the hash router listens to; happy-dom fires only hashchange.
 */
export async function navigateTo(path: string): Promise<void> {
  await act(() => {
    window.history.pushState(null, '', `#${path}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
}

/** Answers 500 the first time, then as `handler` does: for the Retry of a failed load. */
export function failingOnce(handler: FetchHandler): FetchHandler {
  let failed = false;
  return (request) => {
    if (failed) return handler(request);
    failed = true;
    return errorResponse(500, 'down');
  };
}
