import type { Kysely } from 'kysely';
import {
  COMPARED_FIELDS,
  type ComparedField,
  type CompareResponse,
  versionExistsMessage,
} from '#shared/schemas/repositories.ts';
import { isUniqueViolation } from '../../db/database.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import { contributorsShown } from '../../repository/repository-presenter.ts';
import * as queries from './versions.queries.ts';

export interface VersionsDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/**
 * Versions: a member records the eight compared values of a repository under a version
 * number, and any two of them are compared (docs/product.md#versions-api).
 */
export class VersionsService {
  readonly #deps: VersionsDeps;

  constructor(deps: VersionsDeps) {
    this.#deps = deps;
  }

  async addVersion(
    viewer: Viewer,
    fullName: string,
    version: { version_number: string; release_date: string | null; description: string | null },
  ) {
    const row = await resolveVisible(this.#deps.db, viewer, fullName);
    try {
      return await queries.insertVersion(this.#deps.db, {
        repository_id: row.id,
        user_id: viewer.id,
        ...version,
        snapshot: JSON.stringify(comparedValues(row)),
        created_at: isoNow(this.#deps.clock),
      });
    } catch (error) {
      // One version of a number per repository, trimmed and in any case (a unique index).
      if (isUniqueViolation(error)) throw conflict(versionExistsMessage(version.version_number));
      throw error;
    }
  }

  async listVersions(viewer: Viewer, fullName: string) {
    const row = await resolveVisible(this.#deps.db, viewer, fullName);
    return queries.listVersions(this.#deps.db, row.id);
  }

  /** A repository's versions, oldest first, for its detail answer. */
  async versionsOf(repositoryId: number) {
    return queries.listVersions(this.#deps.db, repositoryId);
  }

  /** GET /api/compare-versions: the eight fields, '-old'/'+new' lines (docs/product.md#versions-api). */
  async compareVersions(
    viewer: Viewer,
    fullName: string,
    firstId: number,
    secondId: number,
  ): Promise<CompareResponse> {
    if (firstId === secondId) throw badRequest('Please select two different versions to compare.');
    const row = await resolveVisible(this.#deps.db, viewer, fullName);
    const [first, second] = await Promise.all([
      queries.findVersionSnapshot(this.#deps.db, row.id, firstId),
      queries.findVersionSnapshot(this.#deps.db, row.id, secondId),
    ]);
    if (!first || !second) throw notFound('Version not found for this repository');
    return { differences: compareSnapshots(JSON.parse(first.snapshot), JSON.parse(second.snapshot)) };
  }
}

type Compared = Record<ComparedField, string | number | null>;

export function comparedValues(row: RepositoryRow): Compared {
  return {
    description: row.description,
    stars: row.stars,
    forks: row.forks,
    commits: row.commits,
    issues: row.issues,
    // Still being counted after an import: no number to compare yet.
    contributors: contributorsShown(row),
    license: row.license,
    topics: row.topics,
  };
}

/** Numbers and text: '-old', '+new'. Licence and topics: '-' removed and '+' added items. */
export function compareSnapshots(before: Compared, after: Compared): CompareResponse['differences'] {
  const differences = {} as CompareResponse['differences'];
  for (const field of COMPARED_FIELDS) {
    const old = before[field] ?? null;
    const next = after[field] ?? null;
    const changed = String(old ?? '') !== String(next ?? '');
    let diff: string[] = [];
    if (changed && field === 'topics') {
      const oldSet = splitList(old);
      const newSet = splitList(next);
      diff = [
        ...oldSet.filter((topic) => !newSet.includes(topic)).map((topic) => `-${topic}`),
        ...newSet.filter((topic) => !oldSet.includes(topic)).map((topic) => `+${topic}`),
      ];
    } else if (changed) {
      diff = [`-${old ?? ''}`, `+${next ?? ''}`];
    }
    differences[field] = { changed, diff, old, new: next };
  }
  return differences;
}

function splitList(value: string | number | null): string[] {
  return String(value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
