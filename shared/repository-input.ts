/**
 * Reading what people paste (docs/product.md#add-repositories): URLs in their many forms, bare
 * `github.com/...` lines and `owner/name` ids. Shared by the add page and the server, which
 * parses again rather than trusting the client.
 */

export const GITHUB_HOST = 'github.com';

/** GitHub's rules: owner = letters, digits, hyphens; name = letters, digits, `_.-`. Loosened to one set for both sides. */
const SEGMENT = /^[A-Za-z0-9_.-]+$/;
const OWNER_NAME = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;

export type ParsedLine = { kind: 'url'; value: string } | { kind: 'id'; value: string } | { kind: 'invalid' };

/** How the add page sends one line: `url` for links (with https:// added to bare host lines), `id` for owner/name. */
export function parseAddLine(raw: string): ParsedLine {
  const line = raw.trim();
  if (line === '') return { kind: 'invalid' };
  if (/^https?:\/\//i.test(line)) return { kind: 'url', value: line };
  if (/^(www\.)?github\.com\//i.test(line)) return { kind: 'url', value: `https://${line}` };
  if (OWNER_NAME.test(line)) return { kind: 'id', value: line };
  return { kind: 'invalid' };
}

/**
 * The `owner/name` a URL or id points at, or null. Accepts `www.`, any case, a trailing `.git`
 * or slash, and deeper paths (`/tree/main/src`, `/issues/1`, `?tab=readme`).
 */
export function toFullName(input: { url?: string; id?: string }): string | null {
  if (input.id !== undefined) return cleanFullName(input.id.trim());
  if (input.url === undefined) return null;
  let url: URL;
  try {
    url = new URL(input.url.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  if (host !== GITHUB_HOST) return null;
  const [owner, name] = url.pathname.split('/').filter(Boolean);
  if (!owner || !name) return null;
  return cleanFullName(`${owner}/${name}`);
}

function cleanFullName(value: string): string | null {
  const withoutGit = value.replace(/\/+$/, '').replace(/\.git$/i, '');
  const match = withoutGit.match(OWNER_NAME);
  if (!match?.[1] || !match[2]) return null;
  if (!SEGMENT.test(match[1]) || !SEGMENT.test(match[2]) || match[2] === '.' || match[2] === '..')
    return null;
  return `${match[1]}/${match[2]}`;
}

/** The most a repository's tags may take as stored: comma-joined, once normalised (docs/product.md#sizes-and-lengths). */
export const TAGS_MAX_LENGTH = 2000;
export const TAGS_TOO_LONG = 'Tags are too long';

/**
 * The one rule for a repository's tags, on what would be stored (`normalizeTags`' result): the
 * message when it breaks it, else null. The request schemas check it on what was sent, and the
 * server again on the result of every change (the metadata form, a bulk add, an add, a batch
 * or import line, a queued line), so no path stores more (issue 22, item 2).
 */
export function tagsError(normalized: string): string | null {
  return normalized.length > TAGS_MAX_LENGTH ? TAGS_TOO_LONG : null;
}

/** Tags as stored: trimmed, empties dropped, duplicates removed case-insensitively (first spelling wins), comma-joined. */
export function normalizeTags(value: string | undefined | null): string {
  if (!value) return '';
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of value.split(',')) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags.join(',');
}
