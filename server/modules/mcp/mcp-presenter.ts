import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Decision } from '#shared/schemas/decisions.ts';
import type { HealthSignal, RepositoryHealth } from '#shared/schemas/health.ts';
import type { Repository, RepositorySummary, Version } from '#shared/schemas/repositories.ts';
import { UNTRUSTED_NOTICE, type UntrustedText, untrusted, untrustedList } from './untrusted-text.ts';

/**
 * What the MCP tools answer (docs/mcp.md#tools): the services' answers cut to what an assistant
 * needs, every string from a repository or a member wrapped as untrusted data.
 */

/** A tool's answer: a line saying what it is, the notice, and the structured result as JSON. */
export function toolResult(summary: string, data: Record<string, unknown>): CallToolResult {
  return {
    content: [
      { type: 'text', text: `${summary}\n\n${UNTRUSTED_NOTICE}\n\n${JSON.stringify(data, null, 2)}` },
    ],
    structuredContent: data,
  };
}

/** A refusal or a failed call: the message, marked as an error for the assistant. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** One repository as a search lists it. */
export function presentListed(repository: RepositorySummary) {
  return {
    id: repository.id,
    url: repository.url,
    description: untrusted(repository.description),
    language: repository.language,
    license: repository.license || null,
    topics: untrustedList(repository.topics),
    tags: untrustedList(repository.tags),
    stars: repository.stars,
    forks: repository.forks,
    open_issues: repository.issues,
    last_commit: repository.last_commit,
    archived: repository.archived,
    private: repository.private,
    gone: repository.gone,
    growth: repository.growth,
    health: repository.health,
    decision: repository.decision,
    open_advisories: repository.open_advisories,
  };
}

/** The newest version by release date (then by when it was recorded); null when none. */
export function latestVersion(versions: readonly Version[]): Version | null {
  let latest: Version | null = null;
  for (const version of versions) {
    const key = version.release_date ?? version.created_at;
    const latestKey = latest ? (latest.release_date ?? latest.created_at) : '';
    if (!latest || key >= latestKey) latest = version;
  }
  return latest;
}

export function presentRelease(version: Version | null) {
  if (!version) return null;
  return {
    version: untrusted(version.version_number),
    release_date: version.release_date,
    notes: untrusted(version.description),
    url: version.release_url,
    source: version.source,
  };
}

export function presentSignal(signal: HealthSignal) {
  return {
    key: signal.key,
    label: signal.label,
    value: signal.value,
    unit: signal.unit,
    points: signal.points,
    max_points: signal.max_points,
    note: signal.note,
  };
}

export function presentHealth(health: RepositoryHealth) {
  return {
    score: health.score,
    grade: health.grade,
    computed_at: health.computed_at,
    override: health.override
      ? { reason: untrusted(health.override.reason), set_at: health.override.set_at }
      : null,
    signals: health.signals.map(presentSignal),
  };
}

/** The decision record in force (the last one), or null when the repository never had one. */
export function presentDecision(decision: Decision | undefined) {
  if (!decision) return null;
  return {
    status: decision.to_status,
    quadrant: decision.to_quadrant,
    rationale: untrusted(decision.rationale),
    links: decision.links.map((link) => untrusted(link)),
    decided_by: decision.decided_by.username,
    decided_at: decision.decided_at,
    review_by: decision.review_by,
  };
}

/** `get_repository`: the detail with health, the decision in force, the latest release, notes. */
export function presentDetail(repository: Repository, health: RepositoryHealth, decisions: Decision[]) {
  return {
    ...presentListed(repository),
    notes: untrusted(repository.notes),
    commits: repository.total_commits,
    contributors: repository.contributors,
    last_synced: repository.last_synced,
    added_at: repository.created_at,
    health: presentHealth(health),
    decision: repository.decision
      ? { ...repository.decision, record: presentDecision(decisions.at(-1)) }
      : { status: null, quadrant: null, record: presentDecision(decisions.at(-1)) },
    latest_release: presentRelease(latestVersion(repository.versions)),
    comments: repository.comments.slice(-10).map((comment) => ({
      author: untrusted(comment.author),
      comment: untrusted(comment.comment),
      created_at: comment.created_at,
    })),
  };
}

/** Every string inside a value wrapped as untrusted (an event's data, from GitHub or a member). */
export function untrustedStrings(value: unknown): unknown {
  if (typeof value === 'string') return untrusted(value) satisfies UntrustedText;
  if (Array.isArray(value)) return value.map(untrustedStrings);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, untrustedStrings(item)]));
  return value;
}
