import type { DoubleRepository } from './catalogue.ts';
import { commitByNumber, commitDateMs, commitSha } from './history.ts';
import {
  BARE_REPOSITORY,
  DOOMED_REPOSITORY,
  EMPTY_REPOSITORY,
  SINGLE_COMMIT_REPOSITORY,
} from './special-repositories.ts';
import { hashInt, hashPick, hashUnit } from './stable-hash.ts';

/**
 * Releases and tags of the double's repositories, derived from each repository's seed and
 * history so they are the same on every run: about 60% of repositories publish releases (some
 * of them pre-releases, some with a draft waiting on top), about 20% only push tags, the rest
 * have neither. A release is cut every `step` commits, so the later snapshot (with more
 * commits) has more releases and the older ones keep their tags, dates and ids. Tests publish
 * and delete releases on top of that through a `ReleaseOverlay` (one per double).
 */

export type ReleaseStyle = 'releases' | 'tags' | 'none';

export interface DoubleRelease {
  id: number;
  tag: string;
  name: string | null;
  /** The notes a test gave; derived ones come from `releaseBody` when shown (they cost commits). */
  body: string | null;
  /** Position in the derived history; undefined for releases a test published. */
  index?: number;
  draft: boolean;
  prerelease: boolean;
  createdAt: string;
  /** null for a draft. */
  publishedAt: string | null;
  /** The commit the tag points at. */
  commitNumber: number;
}

export interface DoubleTag {
  name: string;
  commitNumber: number;
  /** Orders tags on the same commit: newer first. */
  order: number;
}

/** Fixed styles for the special repositories, so tests can name one of each. */
const SPECIAL_STYLES: ReadonlyMap<string, ReleaseStyle> = new Map([
  [EMPTY_REPOSITORY, 'none'],
  [BARE_REPOSITORY, 'none'],
  [SINGLE_COMMIT_REPOSITORY, 'tags'],
  [DOOMED_REPOSITORY, 'releases'],
]);

export function releaseStyleOf(repo: DoubleRepository): ReleaseStyle {
  if (repo.isEmpty || repo.commitCount === 0) return 'none';
  const special = SPECIAL_STYLES.get(repo.key);
  if (special) return special;
  const draw = hashUnit(`${repo.key}:release-style`);
  return draw < 0.6 ? 'releases' : draw < 0.8 ? 'tags' : 'none';
}

/** Commits between two releases: the repository's own rhythm. */
function releaseStep(repo: DoubleRepository): number {
  return Math.max(1, hashInt(`${repo.key}:release-step`, 40, 400));
}

/** How many releases (or tags) the history holds: one per step, at least one. */
function releaseCount(repo: DoubleRepository): number {
  return Math.max(1, Math.floor(repo.commitCount / releaseStep(repo)));
}

function commitOf(repo: DoubleRepository, index: number): number {
  return Math.min(repo.commitCount, (index + 1) * releaseStep(repo));
}

function tagName(repo: DoubleRepository, index: number, prerelease: boolean): string {
  const prefix = hashPick(`${repo.key}:tag-prefix`, ['v', 'v', 'v', '']);
  const major = 1 + Math.floor(index / 20);
  const minor = Math.floor(index / 5) % 4;
  const patch = index % 5;
  return `${prefix}${major}.${minor}.${patch}${prerelease ? `-rc.${1 + (index % 3)}` : ''}`;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function generatedRelease(repo: DoubleRepository, index: number): DoubleRelease {
  const prerelease = hashUnit(`${repo.key}:prerelease:${index}`) < 0.15;
  const tag = tagName(repo, index, prerelease);
  const commitNumber = commitOf(repo, index);
  // Published an hour after the commit it tags.
  const at = iso(commitDateMs(repo, commitNumber) + 3600_000);
  return {
    id: repo.id * 10_000 + index + 1,
    tag,
    name: releaseName(repo, tag, index),
    body: null,
    index,
    draft: false,
    prerelease,
    createdAt: at,
    publishedAt: at,
    commitNumber,
  };
}

function releaseName(repo: DoubleRepository, tag: string, index: number): string | null {
  const style = hashInt(`${repo.key}:release-name`, 0, 3);
  if (style === 0) return tag;
  if (style === 1) return `Release ${tag}`;
  if (style === 2) return `${repo.name} ${tag.replace(/^v/, '')}`;
  // Some projects leave the title empty on some releases: GitHub shows the tag then.
  return hashUnit(`${repo.key}:untitled:${index}`) < 0.5 ? null : tag;
}

/** The release notes as GitHub shows them. */
export function releaseBody(repo: DoubleRepository, release: DoubleRelease): string | null {
  return release.index === undefined || release.draft
    ? release.body
    : releaseNotes(repo, release.tag, release.index, release.commitNumber);
}

/** GitHub's generated notes: a few merged changes and the changelog link. */
function releaseNotes(repo: DoubleRepository, tag: string, index: number, commitNumber: number): string {
  const lines = ["## What's Changed"];
  const count = hashInt(`${repo.key}:notes:${index}`, 1, 4);
  for (let offset = 0; offset < count && commitNumber - offset >= 1; offset++) {
    const commit = commitByNumber(repo, commitNumber - offset);
    const title = commit.message.split('\n')[0] ?? '';
    const login = commit.authorAccount?.login ?? repo.owner.login;
    lines.push(`* ${title} by @${login}`);
  }
  const previous = index > 0 ? tagName(repo, index - 1, false) : null;
  if (previous)
    lines.push('', `**Full Changelog**: https://github.com/${repo.fullName}/compare/${previous}...${tag}`);
  return lines.join('\n');
}

/** One double's changes on top of the derived releases: published, deleted, tags pushed. */
export class ReleaseOverlay {
  #published = new Map<string, DoubleRelease[]>();
  #deleted = new Map<string, Set<string>>();
  #tags = new Map<string, DoubleTag[]>();
  /** A release's tag (or a tag) pushed now moves the repository's `pushed_at`, as on GitHub. */
  #pushedAt = new Map<string, string>();
  #sequence = 0;

  reset(): void {
    this.#published.clear();
    this.#deleted.clear();
    this.#tags.clear();
    this.#pushedAt.clear();
    this.#sequence = 0;
  }

  /** A new release on the newest commit, created now (a tag it names is created with it). */
  publish(
    repo: DoubleRepository,
    input: { tag: string; name?: string | null; body?: string | null; prerelease?: boolean; draft?: boolean },
  ): DoubleRelease {
    if (repo.isEmpty) throw new Error(`GitHub double: ${repo.fullName} is empty and can't be released`);
    if (this.releases(repo, true).some((release) => release.tag === input.tag))
      throw new Error(`GitHub double: ${repo.fullName} already has a release ${input.tag}`);
    const newest = this.releases(repo, true, 1)[0];
    // Never older than what is listed already, whatever the clock says.
    const at = iso(Math.max(Date.now(), newest ? Date.parse(newest.createdAt) + 60_000 : 0));
    this.#sequence += 1;
    const release: DoubleRelease = {
      id: repo.id * 10_000 + 9_000 + this.#sequence,
      tag: input.tag,
      name: input.name ?? input.tag,
      body: input.body ?? null,
      draft: input.draft ?? false,
      prerelease: input.prerelease ?? false,
      createdAt: at,
      publishedAt: input.draft ? null : at,
      commitNumber: repo.commitCount,
    };
    this.#list(this.#published, repo.key).push(release);
    if (!release.draft) this.#pushedAt.set(repo.key, at);
    this.#deleted.get(repo.key)?.delete(input.tag);
    return release;
  }

  /** Deletes the release (its tag stays, as on GitHub). */
  delete(repo: DoubleRepository, tag: string): void {
    if (!this.releases(repo, true).some((release) => release.tag === tag))
      throw new Error(`GitHub double: ${repo.fullName} has no release ${tag}`);
    let deleted = this.#deleted.get(repo.key);
    if (!deleted) {
      deleted = new Set();
      this.#deleted.set(repo.key, deleted);
    }
    deleted.add(tag);
  }

  /** Pushes a tag on the newest commit. */
  tag(repo: DoubleRepository, name: string): void {
    if (repo.isEmpty) throw new Error(`GitHub double: ${repo.fullName} is empty and can't be tagged`);
    if (this.tags(repo).some((tag) => tag.name === name))
      throw new Error(`GitHub double: ${repo.fullName} already has a tag ${name}`);
    this.#sequence += 1;
    this.#pushedAt.set(repo.key, iso(Date.now()));
    this.#list(this.#tags, repo.key).push({
      name,
      commitNumber: repo.commitCount,
      order: 1_000_000 + this.#sequence,
    });
  }

  /** When a test last pushed a tag to the repository, if it did. */
  pushedAt(key: string): string | undefined {
    return this.#pushedAt.get(key);
  }

  /**
   * Releases newest first (by creation, as GitHub lists them); drafts only for collaborators.
   * `limit`: only the newest that many are built (a history may hold thousands, and a page or
   * the batch query's `first: 5` needs a few).
   */
  releases(repo: DoubleRepository, withDrafts: boolean, limit = Number.POSITIVE_INFINITY): DoubleRelease[] {
    const deleted = this.#deleted.get(repo.key);
    const keep = (release: DoubleRelease) => !deleted?.has(release.tag) && (withDrafts || !release.draft);
    // What tests published is newer than anything derived (publish() sees to it).
    const result = [...(this.#published.get(repo.key) ?? [])].reverse().filter(keep);
    if (releaseStyleOf(repo) === 'releases') {
      const count = releaseCount(repo);
      const draft = this.#derivedDraft(repo, count);
      if (draft && keep(draft)) result.push(draft);
      // Derived releases are in commit order, so newest first is highest index first.
      for (let index = count - 1; index >= 0 && result.length < limit; index--) {
        const release = generatedRelease(repo, index);
        if (keep(release)) result.push(release);
      }
    }
    return result
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id)
      .slice(0, limit);
  }

  /** How many releases `releases()` lists in all, without building them. */
  releaseTotal(repo: DoubleRepository, withDrafts: boolean): number {
    const deleted = this.#deleted.get(repo.key) ?? new Set<string>();
    const published = (this.#published.get(repo.key) ?? []).filter(
      (release) => !deleted.has(release.tag) && (withDrafts || !release.draft),
    ).length;
    if (releaseStyleOf(repo) !== 'releases') return published;
    const count = releaseCount(repo);
    const draft = this.#derivedDraft(repo, count);
    const publishedTags = new Set((this.#published.get(repo.key) ?? []).map((release) => release.tag));
    let derived = count + (draft && withDrafts ? 1 : 0);
    for (const tag of deleted) {
      if (publishedTags.has(tag)) continue;
      if (draft && tag === draft.tag) derived -= withDrafts ? 1 : 0;
      else derived -= 1;
    }
    return published + derived;
  }

  /** Some projects keep a draft of the next release on top. */
  #derivedDraft(repo: DoubleRepository, count: number): DoubleRelease | undefined {
    if (hashUnit(`${repo.key}:draft`) >= 0.3) return undefined;
    const tag = tagName(repo, count, false);
    const at = iso(commitDateMs(repo, repo.commitCount) + 7200_000);
    return {
      id: repo.id * 10_000 + count + 1,
      tag,
      name: `${tag} (draft)`,
      body: 'Notes for the next release.',
      draft: true,
      prerelease: false,
      createdAt: at,
      publishedAt: null,
      commitNumber: repo.commitCount,
    };
  }

  /** GitHub's "latest release": the newest published release that is not a pre-release. */
  latest(repo: DoubleRepository): DoubleRelease | undefined {
    for (let limit = 8; ; limit *= 4) {
      const releases = this.releases(repo, false, limit);
      const latest = releases.find((release) => !release.prerelease);
      if (latest || releases.length < limit) return latest;
    }
  }

  /** Tags, newest commit first (a deleted release leaves its tag; drafts have none yet). */
  tags(repo: DoubleRepository, limit = Number.POSITIVE_INFINITY): DoubleTag[] {
    const tags: DoubleTag[] = [];
    for (const release of this.#published.get(repo.key) ?? []) {
      // Pushed after every derived tag: ordered by the overlay's sequence, above them.
      const order = 1_000_000 + release.id - (repo.id * 10_000 + 9_000);
      if (!release.draft) tags.push({ name: release.tag, commitNumber: release.commitNumber, order });
    }
    tags.push(...(this.#tags.get(repo.key) ?? []));
    const style = releaseStyleOf(repo);
    if (style !== 'none') {
      const count = releaseCount(repo);
      // Tests' tags sit on the newest commits: the newest `limit` derived ones are enough.
      for (let index = count - 1; index >= 0 && count - 1 - index < limit; index--) {
        const prerelease = style === 'releases' && hashUnit(`${repo.key}:prerelease:${index}`) < 0.15;
        tags.push({
          name: tagName(repo, index, prerelease),
          commitNumber: commitOf(repo, index),
          order: index,
        });
      }
    }
    return tags.sort((a, b) => b.commitNumber - a.commitNumber || b.order - a.order).slice(0, limit);
  }

  /** How many tags `tags()` lists in all. */
  tagTotal(repo: DoubleRepository): number {
    const derived = releaseStyleOf(repo) === 'none' ? 0 : releaseCount(repo);
    const published = (this.#published.get(repo.key) ?? []).filter((release) => !release.draft).length;
    return derived + published + (this.#tags.get(repo.key)?.length ?? 0);
  }

  #list<T>(map: Map<string, T[]>, key: string): T[] {
    let list = map.get(key);
    if (!list) {
      list = [];
      map.set(key, list);
    }
    return list;
  }
}

/** The sha and committer date a tag points at. */
export function tagTarget(repo: DoubleRepository, tag: DoubleTag): { sha: string; date: string } {
  return { sha: commitSha(repo, tag.commitNumber), date: iso(commitDateMs(repo, tag.commitNumber)) };
}
