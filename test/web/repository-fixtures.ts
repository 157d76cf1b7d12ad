import type { Repository, RepositorySummary } from '#shared/schemas/repositories.ts';

let next = 1;

/** A RepositorySummary as GET /repositories/ answers it. */
export function buildSummary(overrides: Partial<RepositorySummary> = {}): RepositorySummary {
  const n = next++;
  const id = overrides.id ?? `owner${n}/repo-${n}`;
  const [, name = id] = id.split('/');
  return {
    id,
    user_id: 1,
    description: `Description of ${name}`,
    url: `https://github.com/${id}`,
    license: 'MIT',
    topics: 'typescript,web',
    tags: '',
    notes: '',
    stars: 100 * n,
    forks: 10 * n,
    issues: n,
    commits: 1000 + n,
    total_commits: 1000 + n,
    contributors: 10 + n,
    last_commit: new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString(),
    last_synced: '2026-08-20T10:00:00.000Z',
    created_at: '2026-08-01T10:00:00.000Z',
    updated_at: '2026-08-20T10:00:00.000Z',
    language: 'TypeScript',
    archived: false,
    private: false,
    gone: false,
    default_branch: 'main',
    github_id: 1000 + n,
    comment_count: 0,
    version_count: 0,
    growth: { stars_7d: null, stars_30d: null },
    health: { score: null, grade: 'unknown' },
    decision: null,
    open_advisories: { critical: 0, high: 0, medium: 0, low: 0, unknown: 0 },
    ...overrides,
    name: overrides.name ?? name,
  };
}

/** A Repository as GET /repositories/{id} answers it. */
export function buildRepository(overrides: Partial<Repository> = {}): Repository {
  return {
    ...buildSummary(overrides),
    comments: [],
    versions: [],
    recent_commits: [],
    release_tracking: { include_prereleases: false, tag_pattern: '', follows: null, checked_at: null },
    ...overrides,
  };
}

/** A streamed NDJSON answer whose lines are released by `push`, and finished by `end`. */
export function ndjsonStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    response: () =>
      new Response(stream, {
        status: 200,
        headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8' },
      }),
    push: (...lines: unknown[]) =>
      controller.enqueue(encoder.encode(lines.map((line) => `${JSON.stringify(line)}\n`).join(''))),
    pushRaw: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    fail: (error: Error) => controller.error(error),
  };
}

/** A fetch handler that never answers until the request is aborted (a time-out). */
export function hangingResponse(request: Request): Promise<Response> {
  return new Promise((_, reject) => {
    request.signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
  });
}
