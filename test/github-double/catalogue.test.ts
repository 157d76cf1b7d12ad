import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findRenamedRepository, findRepository, getCatalogue, listDoubleRepositories } from './catalogue.ts';
import { parseCsv } from './csv.ts';
import { commitByNumber, commitDateMs, contributorTotal, listCommits, listContributors } from './history.ts';
import { loadRankingSnapshot, rankingCsvUrl, SNAPSHOT_DATES } from './ranking-snapshots.ts';
import {
  EMPTY_REPOSITORY,
  RENAMED_REPOSITORY_NEW_NAME,
  RENAMED_REPOSITORY_OLD_NAME,
  SINGLE_COMMIT_REPOSITORY,
} from './special-repositories.ts';

const [OLDER, NEWER] = SNAPSHOT_DATES;
const PINNED = { id: 528612421, commits: 22198, rootSha: '87d419881b752673a58b95c28c105d0e3edbf83c' };

describe('parseCsv (RFC 4180)', () => {
  it('handles quoted commas, doubled quotes, line breaks, CRLF, a BOM and a missing final newline', () => {
    const text = '\uFEFFa,b,c\r\n1,"x, y","say ""hi"""\r\n2,"two\nlines",\n3,,"é 😎"';
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, y', 'say "hi"'],
      ['2', 'two\nlines', ''],
      ['3', '', 'é 😎'],
    ]);
  });

  it('ignores one trailing line break and rejects an unterminated quote', () => {
    expect(parseCsv('a,b\n1,2\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(() => parseCsv('a\n"open')).toThrow(/quoted field/);
  });

  it('reads every row of the real exports with the documented header', () => {
    for (const date of SNAPSHOT_DATES) {
      const rows = parseCsv(readFileSync(rankingCsvUrl(date), 'utf8'));
      expect(rows[0]).toEqual([
        'rank',
        'item',
        'repo_name',
        'stars',
        'forks',
        'language',
        'repo_url',
        'username',
        'issues',
        'last_commit',
        'description',
      ]);
      expect(rows).toHaveLength(3601);
      expect(rows.every((row) => row.length === 11)).toBe(true);
    }
  });
});

describe('ranking snapshots', () => {
  it('keeps descriptions whole: the 5,835-character one, quotes, commas and non-ASCII', () => {
    const rows = [...loadRankingSnapshot(OLDER).values()];
    const longest = Math.max(...rows.map((row) => row.description?.length ?? 0));
    expect(longest).toBe(5835);
    expect(rows.some((row) => row.description?.includes(','))).toBe(true);
    expect(rows.some((row) => row.description?.includes('"'))).toBe(true);
    expect(rows.some((row) => /\P{ASCII}/u.test(row.description ?? ''))).toBe(true);
    expect(loadRankingSnapshot(OLDER).get('freecodecamp/freecodecamp')).toMatchObject({
      fullName: 'freeCodeCamp/freeCodeCamp',
      stars: 424799,
      forks: 41047,
      language: 'TypeScript',
      openIssues: 196,
      lastCommit: '2025-08-01T00:40:49Z',
    });
  });

  it('lists a repository once even when it appears in several rankings', () => {
    const snapshot = loadRankingSnapshot(OLDER);
    expect(snapshot.size).toBe(3448);
    expect(snapshot.get('freecodecamp/freecodecamp')?.lists).toEqual([
      'top-100-stars',
      'top-100-forks',
      'TypeScript',
    ]);
  });
});

describe('catalogue', () => {
  it('is deterministic: the same ids and derived values on every build', () => {
    const react = findRepository('facebook/react', OLDER);
    if (!react) throw new Error('missing');
    // Pinned: other tests, demos and benchmarks may rely on these staying put.
    expect(react.id).toBe(PINNED.id);
    expect(react.commitCount).toBe(PINNED.commits);
    expect(commitByNumber(react, 1).sha).toBe(PINNED.rootSha);
    expect(listDoubleRepositories().find((repo) => repo.fullName === 'facebook/react')).toEqual({
      fullName: 'facebook/react',
      id: react.id,
      stars: 237761,
      forks: 49045,
      language: 'JavaScript',
      openIssuesCount: react.openIssuesCount,
      commits: react.commitCount,
      contributors: react.contributorCount,
      lastCommitAt: '2025-07-31T17:13:32Z',
      license: react.license?.spdxId ?? null,
      isPrivate: false,
      special: false,
    });
  });

  it('finds names in any case and answers in GitHub’s spelling', () => {
    expect(findRepository('FREECODECAMP/FreeCodeCamp', OLDER)?.fullName).toBe('freeCodeCamp/freeCodeCamp');
    // This owner changed the case of its login between the two snapshots.
    expect(findRepository('saghen/blink.cmp', OLDER)?.fullName).toBe('Saghen/blink.cmp');
    expect(findRepository('saghen/blink.cmp', NEWER)?.fullName).toBe('saghen/blink.cmp');
  });

  it('gives unique ids that stay the same across snapshots', () => {
    const older = getCatalogue(OLDER).repositories;
    expect(new Set(older.map((repo) => repo.id)).size).toBe(older.length);
    for (const repo of older.slice(0, 200)) {
      expect(findRepository(repo.fullName, NEWER)?.id).toBe(repo.id);
    }
  });

  it('derives a realistic spread of licences, topics, branches and counts', () => {
    const repos = getCatalogue(OLDER).repositories.filter((repo) => !repo.special);
    const spdx = new Set(repos.map((repo) => repo.license?.spdxId ?? null));
    expect(spdx).toEqual(
      new Set(['MIT', 'Apache-2.0', 'BSD-3-Clause', 'GPL-3.0', 'MPL-2.0', 'NOASSERTION', null]),
    );
    expect(repos.find((repo) => repo.license?.spdxId === 'NOASSERTION')?.license?.name).toBe('Other');
    expect(repos.every((repo) => repo.topics.length <= 6)).toBe(true);
    expect(repos.some((repo) => repo.topics.length === 0)).toBe(true);
    expect(repos.every((repo) => repo.topics.every((topic) => /^[a-z0-9][a-z0-9-]*$/.test(topic)))).toBe(
      true,
    );
    expect(new Set(repos.map((repo) => repo.defaultBranch))).toEqual(new Set(['main', 'master']));
    for (const repo of repos) {
      expect(repo.commitCount).toBeGreaterThanOrEqual(300);
      expect(repo.contributorCount).toBeGreaterThanOrEqual(1);
      expect(repo.contributorCount).toBeLessThanOrEqual(repo.commitCount);
      expect(repo.linkedContributorCount).toBeLessThanOrEqual(repo.contributorCount);
      expect(repo.openIssuesCount).toBe(repo.openIssues + repo.openPullRequests);
      expect(Date.parse(repo.createdAt)).toBeLessThan(Date.parse(repo.lastCommitAt ?? ''));
      expect(Date.parse(repo.pushedAt)).toBeGreaterThanOrEqual(Date.parse(repo.lastCommitAt ?? ''));
    }
    const largest = Math.max(...repos.map((repo) => repo.commitCount));
    expect(largest).toBeGreaterThan(50_000);
  });

  it('dates the newest commit at the CSV last_commit and keeps history ordered', () => {
    const repo = findRepository('facebook/react', OLDER);
    if (!repo) throw new Error('missing');
    const commits = listCommits(repo, { offset: 0, limit: 100 });
    expect(commits[0]?.committer.date).toBe('2025-07-31T17:13:32Z');
    expect(commits[0]?.sha).toMatch(/^[0-9a-f]{40}$/);
    for (let i = 1; i < commits.length; i++) {
      expect(commits[i - 1]?.parentShas[0]).toBe(commits[i]?.sha);
      expect(Date.parse(commits[i - 1]?.committer.date ?? '')).toBeGreaterThanOrEqual(
        Date.parse(commits[i]?.committer.date ?? ''),
      );
    }
    expect(commits.some((commit) => commit.authorAccount === null)).toBe(true);
    expect(commitByNumber(repo, 1).parentShas).toEqual([]);
    expect(commitDateMs(repo, 1)).toBeGreaterThan(Date.parse(repo.createdAt));
  });

  it('grows histories between snapshots without changing older commits', () => {
    const changed = getCatalogue(OLDER)
      .repositories.filter((repo) => {
        const newer = findRepository(repo.fullName, NEWER);
        return !repo.special && newer && newer.lastCommitAt !== repo.lastCommitAt;
      })
      .slice(0, 25);
    expect(changed).toHaveLength(25);
    for (const older of changed) {
      const newer = findRepository(older.fullName, NEWER);
      if (!newer) throw new Error('missing');
      expect(newer.commitCount).toBeGreaterThan(older.commitCount);
      expect(newer.contributorCount).toBeGreaterThanOrEqual(older.contributorCount);
      expect(listCommits(newer, { offset: 0, limit: 1 })[0]?.committer.date).toBe(newer.lastCommitAt);
      const grown = newer.commitCount - older.commitCount;
      // The old newest commits, unchanged, right below the new ones.
      expect(listCommits(newer, { offset: grown, limit: 5 })).toEqual(
        listCommits(older, { offset: 0, limit: 5 }),
      );
    }
  });

  it('lists contributors by contributions, anonymous ones only with anon', () => {
    const repo = getCatalogue(OLDER).repositories.find(
      (candidate) =>
        !candidate.special && candidate.contributorCount > 50 && candidate.contributorCount < 400,
    );
    if (!repo) throw new Error('missing');
    const all = listContributors(repo, { anon: true, offset: 0, limit: 1000 });
    const linked = listContributors(repo, { anon: false, offset: 0, limit: 1000 });
    expect(all).toHaveLength(contributorTotal(repo, true));
    expect(linked).toHaveLength(contributorTotal(repo, false));
    expect(linked.length).toBeLessThan(all.length);
    expect(linked.every((entry) => entry.kind === 'account')).toBe(true);
    expect(all.filter((entry) => entry.kind === 'account')).toEqual(linked);
    const contributions = all.map((entry) => entry.contributions);
    expect([...contributions].sort((a, b) => b - a)).toEqual(contributions);
  });

  it('defines the special repositories', () => {
    expect(findRepository(EMPTY_REPOSITORY, OLDER)).toMatchObject({
      isEmpty: true,
      sizeKb: 0,
      commitCount: 0,
    });
    expect(findRepository(SINGLE_COMMIT_REPOSITORY, OLDER)).toMatchObject({
      commitCount: 1,
      contributorCount: 1,
    });
    expect(findRepository(RENAMED_REPOSITORY_OLD_NAME, OLDER)).toBeUndefined();
    expect(findRenamedRepository(RENAMED_REPOSITORY_OLD_NAME, OLDER)?.fullName).toBe(
      RENAMED_REPOSITORY_NEW_NAME,
    );
  });
});
