import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { NewEvent } from '#shared/schemas/activity.ts';
import {
  type AdvisoriesResponse,
  type Advisory,
  PACKAGE_ECOSYSTEMS,
  type PackageEcosystem,
  type PackageRef,
  type PackagesBody,
} from '#shared/schemas/advisories.ts';
import type { CatalogueChanges } from '../../changes/catalogue-changes.ts';
import { inTransaction } from '../../db/database.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import type { GitHubAdvisory } from '../../github/advisory-client.ts';
import type { GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import type { GitHubHealth } from '../../github/health-query.ts';
import { paceEta } from '../../github/paced-work.ts';
import { jobKind } from '../../jobs/job-definition.ts';
import { type Clock, isoNow, nowMs } from '../../lib/clock.ts';
import { resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import * as queries from './advisories.queries.ts';
import { judgeAdvisory } from './advisory-versions.ts';
import { detectPackages } from './package-detection.ts';

export const advisoriesRefreshJob = jobKind('advisories:refresh', z.object({}));

/** How long a read waits for GitHub's pace before the work yields to a later run. */
const PACE_WAIT_MS = 5000;
/** Listed packages the daily read takes at a time (grouped by ecosystem, ≤ 50 a request). */
const PACKAGES_PER_STEP = 500;
/** Repository ids to a query of `openSevere`: well within both databases' parameter limits. */
const OPEN_SEVERE_CHUNK = 1000;

export interface AdvisoriesDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  clock: Clock;
  /** Records activity events in the caller's transaction (the activity module's recorder). */
  recordEvents: (trx: Kysely<Database>, events: NewEvent[], now: string) => Promise<void>;
}

/** A found advisory for one repository: which source, and which of its packages. */
interface Finding {
  advisory: GitHubAdvisory;
  source: 'repository' | 'global';
  pkg: PackageRef | null;
  /** The first read of the source for it: stored, not news. */
  silent: boolean;
}

const ecosystemOf = (value: string): PackageEcosystem | null =>
  (PACKAGE_ECOSYSTEMS as readonly string[]).includes(value) ? (value as PackageEcosystem) : null;

/**
 * Security advisories per repository (docs/product.md#advisories): its own published advisories
 * and GitHub's database for the packages it publishes, one row per GHSA id, judged open or fixed
 * against its tracked versions. Read after each health read (the same token, at the health
 * query's low priority) and daily for what changed (`advisories:refresh`).
 */
export class AdvisoriesService {
  readonly #deps: AdvisoriesDeps;

  constructor(deps: AdvisoriesDeps) {
    this.#deps = deps;
  }

  /** `GET /repositories/{id}/advisories`: for whoever may see the repository. */
  async read(viewer: Viewer, fullName: string): Promise<AdvisoriesResponse> {
    const row = await resolveVisible(this.#deps.db, viewer, fullName);
    return this.#present(row.id);
  }

  /** `PUT /repositories/{id}/packages`: the member's list, kept across re-detection. */
  async setPackages(viewer: Viewer, fullName: string, body: PackagesBody): Promise<AdvisoriesResponse> {
    const { db } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    await inTransaction(db, async (trx) => {
      await queries.saveChosen(trx, row.id, body.packages);
      // Advisories of a package no longer listed are no longer the repository's.
      const listed = (await queries.listPackages(trx, row.id)).filter(queries.isListed);
      for (const advisory of await queries.listAdvisories(trx, row.id)) {
        if (advisory.source !== 'global') continue;
        const kept = listed.some(
          (pkg) =>
            pkg.ecosystem === advisory.package_ecosystem &&
            pkg.name.toLowerCase() === (advisory.package_name ?? '').toLowerCase(),
        );
        if (!kept) await queries.deleteAdvisory(trx, row.id, advisory.ghsa_id);
      }
      await queries.keepCountsOnRow(trx, row.id);
    });
    return this.#present(row.id);
  }

  /**
   * After GitHub's health query answered for a batch of repositories (≤ 25, one token): their
   * packages from the manifests read, each one's own advisories (public ones, conditional), and
   * the database's for packages never read, one request per ecosystem for the whole batch (that
   * first read is not news). GitHub's pace or quota leaves the rest to the daily read.
   */
  async afterHealthReads(
    reads: Array<{ row: RepositoryRow; health: GitHubHealth }>,
    token: string,
  ): Promise<void> {
    const { db, github, clock } = this.#deps;
    await inTransaction(db, async (trx) => {
      for (const { row, health } of reads)
        await queries.saveDetected(trx, row.id, detectPackages(health.manifests));
    });
    const deadline = nowMs(clock) + PACE_WAIT_MS;
    const found = new Map<
      number,
      { findings: Finding[]; ownEtag: string | null | undefined; packagesRead: PackageRef[] }
    >(reads.map(({ row }) => [row.id, { findings: [], ownEtag: undefined, packagesRead: [] }]));
    const storeAll = async (withPackages: boolean) => {
      for (const [repositoryId, entry] of found) {
        if (
          entry.findings.length === 0 &&
          entry.ownEtag === undefined &&
          (!withPackages || entry.packagesRead.length === 0)
        )
          continue;
        await this.#store(repositoryId, entry.findings, {
          ownEtag: entry.ownEtag,
          packagesRead: withPackages ? entry.packagesRead : [],
        });
      }
    };
    try {
      for (const { row } of reads) {
        if (row.private !== 0) continue;
        const entry = found.get(row.id) as NonNullable<ReturnType<typeof found.get>>;
        const read = await queries.findRead(db, row.id);
        const answer = await github.advisories.repositoryAdvisories(row.full_name, token, {
          deadline,
          etag: read?.etag ?? undefined,
        });
        if ('notModified' in answer) {
          entry.ownEtag = read?.etag ?? null;
          continue;
        }
        entry.ownEtag = answer.etag ?? null;
        for (const advisory of answer.advisories) {
          const first = advisory.vulnerabilities[0];
          const ecosystem = first ? ecosystemOf(first.ecosystem) : null;
          entry.findings.push({
            advisory,
            source: 'repository',
            pkg: first && ecosystem ? { ecosystem, name: first.name } : null,
            silent: !read?.read_at,
          });
        }
      }
      const unread = (await queries.unreadPackagesOf(db, [...found.keys()])).flatMap((pkg) => {
        const ecosystem = ecosystemOf(pkg.ecosystem);
        return ecosystem ? [{ repositoryId: pkg.repository_id, ecosystem, name: pkg.name }] : [];
      });
      for (const ecosystem of new Set(unread.map((pkg) => pkg.ecosystem))) {
        const inEcosystem = unread.filter((pkg) => pkg.ecosystem === ecosystem);
        const names = [...new Set(inEcosystem.map((pkg) => pkg.name))];
        const advisories = await github.advisories.globalAdvisories(ecosystem, names, token, { deadline });
        for (const repositoryId of new Set(inEcosystem.map((pkg) => pkg.repositoryId))) {
          const own = inEcosystem.filter((pkg) => pkg.repositoryId === repositoryId).map((pkg) => pkg.name);
          const entry = found.get(repositoryId) as NonNullable<ReturnType<typeof found.get>>;
          entry.findings.push(...matchPackages(advisories, ecosystem, own, true));
          entry.packagesRead.push(...own.map((name) => ({ ecosystem, name })));
        }
      }
      await storeAll(true);
    } catch (error) {
      // What was read before GitHub said "later" is kept; the daily read does the rest.
      await storeAll(false);
      if (paceEta(error, clock) || error instanceof GitHubError) return;
      throw error;
    }
  }

  /**
   * The daily read (`advisories:refresh`): GitHub's database for every listed package, only
   * what was published or changed since the package was last read (never-read ones in full,
   * silently), ≤ 50 packages of one ecosystem a request. Returns when to go on, or null when done.
   */
  async refreshListed(options: { deadline: number; signal?: AbortSignal }): Promise<Date | null> {
    const { db, github, clock } = this.#deps;
    const token = github.tokenFor(null);
    let after = { repositoryId: 0, key: '' };
    while (nowMs(clock) < options.deadline) {
      if (options.signal?.aborted) return clock.now();
      const rows = await queries.listedPackagesAfter(db, after, PACKAGES_PER_STEP);
      if (rows.length === 0) return null;
      const last = rows.at(-1) as (typeof rows)[number];
      after = { repositoryId: last.repository_id, key: `${last.ecosystem}:${last.name}` };
      // One request per ecosystem and since-date: packages first read in this step go in full.
      const groups = new Map<string, typeof rows>();
      for (const row of rows) {
        const key = `${row.ecosystem}\u0000${row.read_at === null ? '' : row.read_at.slice(0, 10)}`;
        groups.set(key, [...(groups.get(key) ?? []), row]);
      }
      const startedAt = isoNow(clock);
      for (const [key, group] of groups) {
        const [ecosystemText = '', since = ''] = key.split('\u0000');
        const ecosystem = ecosystemOf(ecosystemText);
        if (!ecosystem) continue;
        const names = [...new Set(group.map((row) => row.name))];
        let advisories: GitHubAdvisory[];
        try {
          advisories = await github.advisories.globalAdvisories(ecosystem, names, token, {
            deadline: nowMs(clock) + PACE_WAIT_MS,
            ...(since ? { modifiedSince: since } : {}),
          });
        } catch (error) {
          const eta = paceEta(error, clock);
          if (eta) return eta;
          if (error instanceof GitHubError && error.kind === 'rate_limited')
            return error.resetAt ?? github.quotaResetOf(token);
          throw error;
        }
        for (const repositoryId of new Set(group.map((row) => row.repository_id))) {
          const own = group.filter((row) => row.repository_id === repositoryId);
          const silent = own.every((row) => row.read_at === null);
          const findings = matchPackages(
            advisories,
            ecosystem,
            own.map((row) => row.name),
            silent,
          );
          await this.#store(repositoryId, findings, {
            ownEtag: undefined,
            packagesRead: own.map((row) => ({ ecosystem, name: row.name })),
            at: startedAt,
          });
        }
      }
    }
    return clock.now();
  }

  /** Whether some listed package waits for its first read (the schedule queues a run then too). */
  async hasWork(): Promise<boolean> {
    const rows = await queries.listedPackagesAfter(this.#deps.db, { repositoryId: 0, key: '' }, 1);
    return rows.length > 0;
  }

  /**
   * The open high and critical advisories of these repositories, by repository (the radar's
   * at-risk rule, docs/product.md#the-radar), read with `db` (the caller's transaction or not).
   */
  async openSevere(db: Kysely<Database>, repositoryIds: readonly number[]): Promise<Map<number, string[]>> {
    const found = new Map<number, string[]>();
    for (let start = 0; start < repositoryIds.length; start += OPEN_SEVERE_CHUNK) {
      const chunk = repositoryIds.slice(start, start + OPEN_SEVERE_CHUNK);
      for (const row of await queries.openAdvisoriesOf(db, chunk, ['critical', 'high'])) {
        const ids = found.get(row.repository_id) ?? [];
        ids.push(row.ghsa_id);
        found.set(row.repository_id, ids);
      }
    }
    return found;
  }

  /** A sync wrote the repository (its new releases may be tracked versions now): judged again. */
  async synced(change: CatalogueChanges['repository.synced'], trx: Kysely<Database>): Promise<void> {
    const id = change.after.id;
    const any = await queries.hasAdvisories(trx, id);
    if (any) await this.judgeAgain(trx, id);
  }

  /** Tracked versions changed: every advisory of the repository judged again. */
  async judgeAgain(trx: Kysely<Database>, repositoryId: number): Promise<void> {
    const tracked = await queries.trackedVersions(trx, repositoryId);
    for (const advisory of await queries.listAdvisories(trx, repositoryId)) {
      const judged = judgeAdvisory(advisory, tracked);
      if (judged.open !== (advisory.open === 1) || judged.fixedInVersionId !== advisory.fixed_in_version_id)
        await queries.setJudgement(trx, repositoryId, advisory.ghsa_id, judged.open, judged.fixedInVersionId);
    }
    await queries.keepCountsOnRow(trx, repositoryId);
  }

  /**
   * Writes what was found in one transaction: new advisories (an `advisory_published` event each
   * unless the read was its source's first), changed ones updated (a withdrawal marked, never
   * deleted), open/fixed judged against the tracked versions, the counts on the row.
   */
  async #store(
    repositoryId: number,
    findings: Finding[],
    reads: { ownEtag: string | null | undefined; packagesRead: PackageRef[]; at?: string },
  ): Promise<void> {
    const { db, clock } = this.#deps;
    const now = reads.at ?? isoNow(clock);
    await inTransaction(db, async (trx) => {
      const existing = new Map(
        (await queries.listAdvisories(trx, repositoryId)).map((row) => [row.ghsa_id, row]),
      );
      const tracked = await queries.trackedVersions(trx, repositoryId);
      const events: NewEvent[] = [];
      for (const { advisory, source, pkg, silent } of findings) {
        const before = existing.get(advisory.ghsaId);
        const vulnerability =
          advisory.vulnerabilities.find(
            (entry) =>
              pkg && entry.ecosystem === pkg.ecosystem && entry.name.toLowerCase() === pkg.name.toLowerCase(),
          ) ?? null;
        const fields = {
          cve_id: advisory.cveId,
          severity: advisory.severity,
          summary: advisory.summary,
          url: advisory.url,
          published_at: advisory.publishedAt,
          updated_at: advisory.updatedAt,
          withdrawn_at: advisory.withdrawnAt,
          package_ecosystem: before?.package_ecosystem ?? pkg?.ecosystem ?? null,
          package_name: before?.package_name ?? pkg?.name ?? null,
          vulnerable_range: vulnerability?.vulnerableRange ?? before?.vulnerable_range ?? null,
          patched_versions: vulnerability?.patched ?? before?.patched_versions ?? null,
        };
        const judged = judgeAdvisory(fields, tracked);
        await queries.saveAdvisory(trx, {
          repository_id: repositoryId,
          ghsa_id: advisory.ghsaId,
          source: before?.source ?? source,
          found_at: before?.found_at ?? now,
          open: judged.open ? 1 : 0,
          fixed_in_version_id: judged.fixedInVersionId,
          ...fields,
        });
        existing.set(advisory.ghsaId, { ...(before as queries.AdvisoryRow), ghsa_id: advisory.ghsaId });
        if (before || silent || advisory.withdrawnAt !== null) continue;
        events.push({
          type: 'advisory_published',
          repository_id: repositoryId,
          occurred_at: advisory.publishedAt || now,
          data: {
            ghsa_id: advisory.ghsaId,
            cve_id: advisory.cveId,
            severity: advisory.severity,
            summary: advisory.summary,
            url: advisory.url,
            package:
              fields.package_ecosystem && fields.package_name
                ? { ecosystem: fields.package_ecosystem as PackageEcosystem, name: fields.package_name }
                : null,
            open: judged.open,
          },
        });
      }
      if (reads.ownEtag !== undefined) await queries.saveRead(trx, repositoryId, reads.ownEtag, now);
      await queries.markPackagesRead(trx, repositoryId, reads.packagesRead, now);
      await queries.keepCountsOnRow(trx, repositoryId);
      if (events.length > 0) await this.#deps.recordEvents(trx, events, now);
    });
  }

  async #present(repositoryId: number): Promise<AdvisoriesResponse> {
    const { db } = this.#deps;
    const [rows, packages, read] = await Promise.all([
      queries.listAdvisories(db, repositoryId),
      queries.listPackages(db, repositoryId),
      queries.findRead(db, repositoryId),
    ]);
    const advisories: Advisory[] = rows.map((row) => ({
      ghsa_id: row.ghsa_id,
      cve_id: row.cve_id,
      severity: row.severity,
      summary: row.summary,
      url: row.url,
      published_at: row.published_at,
      withdrawn_at: row.withdrawn_at,
      open: row.open === 1,
      source: row.source,
      package:
        row.package_ecosystem && row.package_name && ecosystemOf(row.package_ecosystem)
          ? { ecosystem: row.package_ecosystem as PackageEcosystem, name: row.package_name }
          : null,
      vulnerable_range: row.vulnerable_range,
      patched_versions: row.patched_versions,
      fixed_in_version_id: row.fixed_in_version_id,
    }));
    const listed = packages.filter(queries.isListed);
    const readTimes = [read?.read_at ?? null, ...listed.map((pkg) => pkg.read_at)].filter(
      (at): at is string => at !== null,
    );
    return {
      advisories,
      packages: listed.flatMap((pkg) => {
        const ecosystem = ecosystemOf(pkg.ecosystem);
        return ecosystem ? [{ ecosystem, name: pkg.name, detected: pkg.detected === 1 }] : [];
      }),
      read_at: readTimes.sort().at(-1) ?? null,
    };
  }
}

/** The advisories that name one of the packages, each with the package it concerns. */
function matchPackages(
  advisories: GitHubAdvisory[],
  ecosystem: PackageEcosystem,
  names: string[],
  silent: boolean,
): Finding[] {
  const wanted = new Map(names.map((name) => [name.toLowerCase(), name]));
  const findings: Finding[] = [];
  for (const advisory of advisories) {
    const hit = advisory.vulnerabilities.find(
      (entry) => entry.ecosystem === ecosystem && wanted.has(entry.name.toLowerCase()),
    );
    if (!hit) continue;
    findings.push({
      advisory,
      source: 'global',
      pkg: { ecosystem, name: wanted.get(hit.name.toLowerCase()) ?? hit.name },
      silent,
    });
  }
  return findings;
}
