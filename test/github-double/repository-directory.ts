import { AdvisoryStore } from './advisories.ts';
import {
  type DoubleRepository,
  findRenamedRepository,
  findRepository,
  findRepositoryById,
  getCatalogue,
} from './catalogue.ts';
import { ownerAccount } from './people.ts';
import type { Caller } from './quota.ts';
import type { SnapshotDate } from './ranking-snapshots.ts';
import { ReleaseOverlay } from './releases.ts';

/**
 * One double's view of the catalogue: which snapshot it serves and what tests changed on top
 * of it (deleted, renamed repositories, who may see private ones). The catalogue itself stays
 * shared and immutable; this is the per-instance, per-test state.
 */

export type Resolution =
  | { kind: 'found'; repo: DoubleRepository }
  /** The name is a former one: GitHub answers 301 to /repositories/{id}. */
  | { kind: 'moved'; repo: DoubleRepository }
  /** Missing, deleted, or private without access: GitHub answers all three with the same 404. */
  | { kind: 'missing' };

export class RepositoryDirectory {
  snapshot: SnapshotDate;
  #removed = new Set<string>();
  /** repo key → full name it was renamed to in this double. */
  #renamedTo = new Map<string, string>();
  /** lower-case former name → repo key. */
  #formerNames = new Map<string, string>();
  /** lower-case current name (after a rename here) → repo key. */
  #currentNames = new Map<string, string>();
  #privateTokens: Set<string>;
  /** Releases published, deleted and tags pushed in this double (releases.ts). */
  readonly releases = new ReleaseOverlay();
  /** Security advisories added and withdrawn in this double (advisories.ts). */
  readonly advisories = new AdvisoryStore();

  constructor(snapshot: SnapshotDate, privateAccessTokens: readonly string[]) {
    this.snapshot = snapshot;
    this.#privateTokens = new Set(privateAccessTokens);
  }

  /** Undo removals and renames made in this double (private access grants stay). */
  resetChanges(): void {
    this.#removed.clear();
    this.#renamedTo.clear();
    this.#formerNames.clear();
    this.#currentNames.clear();
    this.releases.reset();
    this.advisories.reset();
  }

  /**
   * Tokens with private access stand in for collaborators (push access): only they see
   * draft releases, as on GitHub.
   */
  isCollaborator(caller: Caller): boolean {
    return caller.kind === 'token' && this.#privateTokens.has(caller.token);
  }

  grantPrivateAccess(token: string): void {
    this.#privateTokens.add(token);
  }

  /** Resolves `owner/name` the way GitHub does: any case, former names redirect. */
  resolveName(fullName: string, caller: Caller): Resolution {
    const lower = fullName.toLowerCase();
    const renamedHereKey = this.#currentNames.get(lower);
    if (renamedHereKey !== undefined) {
      return this.#visible(this.#byKey(renamedHereKey), 'found', caller);
    }
    const formerKey = this.#formerNames.get(lower);
    if (formerKey !== undefined) {
      return this.#visible(this.#byKey(formerKey), 'moved', caller);
    }
    const repo = findRepository(lower, this.snapshot);
    if (repo) {
      return this.#visible(repo, 'found', caller);
    }
    const renamed = findRenamedRepository(lower, this.snapshot);
    if (renamed) {
      return this.#visible(renamed, 'moved', caller);
    }
    return { kind: 'missing' };
  }

  resolveId(id: number, caller: Caller): Resolution {
    const repo = findRepositoryById(id, this.snapshot);
    return repo ? this.#visible(repo, 'found', caller) : { kind: 'missing' };
  }

  /** Every repository the caller can see, as currently named (for the listing endpoints). */
  listVisible(caller: Caller): DoubleRepository[] {
    const visible: DoubleRepository[] = [];
    for (const repo of getCatalogue(this.snapshot).repositories) {
      const resolution = this.#visible(repo, 'found', caller);
      if (resolution.kind === 'found') visible.push(resolution.repo);
    }
    return visible;
  }

  /** The repository as this double serves it (ignoring privacy), by current or former name. */
  lookup(fullName: string): DoubleRepository | undefined {
    const lower = fullName.toLowerCase();
    const key = this.#currentNames.get(lower) ?? this.#formerNames.get(lower);
    const repo = key
      ? this.#byKey(key)
      : (findRepository(lower, this.snapshot) ?? findRenamedRepository(lower, this.snapshot));
    return repo && !this.#removed.has(repo.key) ? this.#withRename(repo) : undefined;
  }

  /** From now on the repository answers 404, under every name and its id. */
  remove(fullName: string): void {
    this.#removed.add(this.#require(fullName).key);
  }

  restore(fullName: string): void {
    const lower = fullName.toLowerCase();
    const key =
      this.#currentNames.get(lower) ??
      this.#formerNames.get(lower) ??
      findRepository(lower, this.snapshot)?.key;
    if (key === undefined) {
      throw new Error(`GitHub double: no repository named ${fullName}`);
    }
    this.#removed.delete(key);
  }

  /** Renames (or transfers, when the owner changes) a repository; its old names answer 301. */
  rename(fullName: string, newFullName: string): void {
    const repo = this.#require(fullName);
    if (!/^[^/\s]+\/[^/\s]+$/.test(newFullName)) {
      throw new Error(`GitHub double: '${newFullName}' is not owner/name`);
    }
    const newLower = newFullName.toLowerCase();
    const taken = this.#currentNames.get(newLower) ?? findRepository(newLower, this.snapshot)?.key;
    if (taken !== undefined && taken !== repo.key) {
      throw new Error(`GitHub double: ${newFullName} already exists`);
    }
    const current = this.#withRename(repo).fullName;
    this.#formerNames.set(current.toLowerCase(), repo.key);
    this.#formerNames.delete(newLower);
    this.#currentNames.delete(current.toLowerCase());
    this.#currentNames.set(newLower, repo.key);
    this.#renamedTo.set(repo.key, newFullName);
  }

  #require(fullName: string): DoubleRepository {
    const repo = this.lookup(fullName);
    if (!repo) {
      throw new Error(`GitHub double: no repository named ${fullName}`);
    }
    return repo;
  }

  #byKey(key: string): DoubleRepository {
    const repo = getCatalogue(this.snapshot).byName.get(key);
    if (!repo) {
      throw new Error(`GitHub double: unknown repository key ${key}`);
    }
    return repo;
  }

  #visible(repo: DoubleRepository, kind: 'found' | 'moved', caller: Caller): Resolution {
    if (this.#removed.has(repo.key)) {
      return { kind: 'missing' };
    }
    if (repo.isPrivate && (caller.kind === 'anonymous' || !this.#privateTokens.has(caller.token))) {
      return { kind: 'missing' };
    }
    return { kind, repo: this.#withRename(repo) };
  }

  #withRename(derived: DoubleRepository): DoubleRepository {
    // A tag pushed here (a release published) moves `pushed_at`, which changes the answer.
    const pushedAt = this.releases.pushedAt(derived.key);
    const repo = pushedAt && pushedAt > derived.pushedAt ? { ...derived, pushedAt } : derived;
    const newFullName = this.#renamedTo.get(repo.key);
    if (!newFullName) {
      return repo;
    }
    const [owner = '', name = ''] = newFullName.split('/');
    const sameOwner = owner.toLowerCase() === repo.owner.login.toLowerCase();
    return {
      ...repo,
      owner: sameOwner ? { ...repo.owner, login: owner } : ownerAccount(owner),
      name,
      fullName: newFullName,
      previousFullNames: [...repo.previousFullNames, repo.fullName],
    };
  }
}
