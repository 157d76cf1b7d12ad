import { type Insertable, type Kysely, sql } from 'kysely';
import { isPostgres } from '../../server/db/migration-helpers.ts';
import type { Database, RepositoriesTable } from '../../server/db/schema.ts';
import {
  assessHealth,
  FORMULA_VERSION,
  type HealthInputs,
} from '../../server/modules/repository-health/health-formula.ts';
import { rebuildDerivedTables } from '../../server/repository/repository-labels.ts';
import { listDoubleRepositories } from '../../test/github-double/index.ts';

/**
 * Fills a catalogue of `count` repositories for the benchmarks: real names, languages and
 * licences from the ranking fixture (repeated under numbered owners past its ~3,400 rows),
 * generated descriptions, a skewed star distribution, 0–4 tags from 60 and 0–6 topics from 150,
 * 2% private (visible to their adder only), spread over `userIds`. Rows are written directly,
 * 500 to a statement, then the derived tables (tags, topics, search index, sync schedule) are
 * rebuilt by `rebuildDerivedTables` — the path a restore takes — so what the benchmark reads
 * is what a member's catalogue holds.
 */

const TAGS = [
  'frontend',
  'backend',
  'ui',
  'web',
  'cli',
  'database',
  'devops',
  'ml',
  'ai',
  'security',
  'testing',
  'docs',
  'mobile',
  'game',
  'graphics',
  'audio',
  'networking',
  'cloud',
  'infra',
  'data',
  'analytics',
  'compiler',
  'language',
  'editor',
  'terminal',
  'framework',
  'library',
  'tool',
  'sdk',
  'api',
  'auth',
  'crypto',
  'blockchain',
  'iot',
  'embedded',
  'kernel',
  'os',
  'browser',
  'css',
  'design',
  'charts',
  'maps',
  'search',
  'queue',
  'cache',
  'storage',
  'monitoring',
  'logging',
  'tracing',
  'ci',
  'packaging',
  'linting',
  'formatting',
  'bundler',
  'runtime',
  'orm',
  'http',
  'rpc',
  'graphql',
  'wasm',
];
const TOPIC_ROOTS = [
  'javascript',
  'typescript',
  'python',
  'rust',
  'go',
  'java',
  'kotlin',
  'swift',
  'react',
  'vue',
  'svelte',
  'angular',
  'nodejs',
  'deno',
  'django',
  'flask',
  'rails',
  'spring',
  'kubernetes',
  'docker',
  'terraform',
  'ansible',
  'postgres',
  'sqlite',
  'redis',
  'kafka',
  'tensorflow',
  'pytorch',
  'llm',
  'nlp',
];
const TOPIC_SUFFIXES = ['', '-tools', '-library', '-framework', '-examples'];
const TOPICS = TOPIC_ROOTS.flatMap((root) => TOPIC_SUFFIXES.map((suffix) => `${root}${suffix}`));
const WORDS = [
  'fast',
  'simple',
  'modern',
  'lightweight',
  'secure',
  'scalable',
  'open-source',
  'minimal',
  'reactive',
  'declarative',
  'distributed',
  'embedded',
  'typed',
  'async',
  'portable',
  'extensible',
  'tiny',
  'robust',
];
const NOUNS = [
  'framework',
  'library',
  'toolkit',
  'runtime',
  'engine',
  'compiler',
  'server',
  'client',
  'database',
  'editor',
  'parser',
  'renderer',
  'scheduler',
  'bundler',
  'linter',
  'generator',
  'platform',
  'proxy',
];
const PURPOSES = [
  'for building user interfaces',
  'for the web',
  'for data pipelines',
  'for machine learning',
  'for command-line apps',
  'for distributed systems',
  'for mobile apps',
  'for static sites',
  'for realtime apps',
  'for testing',
  'for infrastructure as code',
  'for observability',
];
const LICENSES = [
  'MIT',
  'MIT',
  'MIT',
  'Apache-2.0',
  'Apache-2.0',
  'GPL-3.0',
  'BSD-3-Clause',
  'MPL-2.0',
  'ISC',
  '',
];

/** Ten stored commits, as a synced row holds them (about 1.5 KB the detail screen shows). */
const RECENT_COMMITS = JSON.stringify(
  Array.from({ length: 10 }, (_, i) => ({
    sha: `${(0xabcdef0 + i).toString(16)}${'0'.repeat(33)}`,
    date: new Date(Date.UTC(2026, 10, 20 - i)).toISOString(),
    author: ['Ada Lovelace', 'Grace Hopper', 'Linus Torvalds'][i % 3],
    message: `Fix the ${['parser', 'renderer', 'scheduler', 'cache', 'router'][i % 5]} when the input is empty (#${1200 + i})`,
  })),
);

/** mulberry32: the same catalogue on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

function pickSome(random: () => number, values: readonly string[], max: number): string[] {
  const count = Math.floor(random() * (max + 1));
  const chosen = new Set<string>();
  // Skewed: the first values of the list are the popular ones.
  while (chosen.size < count) chosen.add(values[Math.floor(random() ** 2 * values.length)] as string);
  return [...chosen];
}

export async function seedCatalogue(
  db: Kysely<Database>,
  options: { count: number; userIds: number[] },
): Promise<{ seconds: number; first: string }> {
  const started = performance.now();
  const random = seeded(20261124);
  const fixture = listDoubleRepositories().filter((repository) => !repository.special);
  const now = Date.now();
  const rows: Insertable<RepositoriesTable>[] = [];
  const privateRows: { full_name: string; user_id: number }[] = [];
  let first = '';
  for (let i = 0; i < options.count; i++) {
    const base = fixture[i % fixture.length];
    if (!base) throw new Error('empty fixture');
    const round = Math.floor(i / fixture.length);
    const [owner = 'owner', name = 'name'] = base.fullName.split('/');
    const fullName = round === 0 ? base.fullName : `${owner}-${round}/${name}`;
    if (i === 0) first = fullName;
    const userId = options.userIds[Math.floor(random() ** 1.5 * options.userIds.length)] ?? null;
    const isPrivate = random() < 0.02;
    if (isPrivate && userId !== null) privateRows.push({ full_name: fullName, user_id: userId });
    // Pareto-like stars: most repositories have few, some have hundreds of thousands.
    const stars = Math.floor(10 / (random() + 0.00005) ** 1.1);
    const lastCommit = new Date(now - Math.floor(random() ** 2 * 3 * 365 * 86_400_000)).toISOString();
    // Growth as the history module keeps it on the row: a fifth without 30 days of history (a
    // tenth without 7), the rest a share of their stars, some losing a few.
    const history = random();
    const stars30d = history < 0.2 ? null : Math.floor(stars * (random() * 0.06 - 0.005));
    const stars7d = history < 0.1 || stars30d === null ? null : Math.floor(stars30d * random() * 0.4);
    rows.push({
      full_name: fullName,
      github_id: 10_000_000 + i,
      user_id: userId,
      name,
      description:
        random() < 0.05
          ? null
          : `${pick(random, WORDS)} ${pick(random, WORDS)} ${pick(random, NOUNS)} ${pick(random, PURPOSES)}`,
      url: `https://github.com/${fullName}`,
      license: pick(random, LICENSES),
      topics: pickSome(random, TOPICS, 6).join(','),
      tags: pickSome(random, TAGS, 4).join(','),
      notes: '',
      stars,
      forks: Math.floor(stars * random() * 0.3),
      issues: Math.floor(random() * 500),
      commits: Math.floor(random() * 50_000),
      contributors: Math.floor(random() * 800),
      contributors_capped: 0,
      language: base.language,
      archived: random() < 0.03 ? 1 : 0,
      private: isPrivate ? 1 : 0,
      gone: 0,
      default_branch: 'main',
      last_commit: random() < 0.02 ? null : lastCommit,
      last_synced: new Date(now - Math.floor(random() * 86_400_000)).toISOString(),
      etags: '{}',
      created_at: new Date(now - Math.floor(random() * 365 * 86_400_000)).toISOString(),
      updated_at: new Date(now).toISOString(),
      stars_7d: stars7d,
      stars_30d: stars30d,
    });
  }
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('repositories')
      .values(rows.slice(start, start + 500))
      .execute();
  }
  // Every row has ten stored commits, as after a sync (their own table, read by the detail screen).
  await sql`insert into repository_commits (repository_id, commits)
    select id, ${RECENT_COMMITS} from repositories
    where id not in (select repository_id from repository_commits)`.execute(db);
  // Private repositories are visible to the members who proved access: their adders.
  for (let start = 0; start < privateRows.length; start += 500) {
    const chunk = privateRows.slice(start, start + 500);
    const ids = await db
      .selectFrom('repositories')
      .select(['id', 'full_name'])
      .where(
        'full_name',
        'in',
        chunk.map((row) => row.full_name),
      )
      .execute();
    const byName = new Map(ids.map((row) => [row.full_name, row.id]));
    await db
      .insertInto('repository_access')
      .values(
        chunk.map((row) => ({
          repository_id: byName.get(row.full_name) ?? 0,
          user_id: row.user_id,
          granted_at: new Date(now).toISOString(),
        })),
      )
      .execute();
  }
  await seedHealth(db, random, now);
  await rebuildDerivedTables(db, new Date());
  // What autovacuum does within a minute of a bulk load on PostgreSQL (it can't run inside the
  // rebuild's transaction): the visibility map that lets counts use index-only scans.
  if (isPostgres(db)) await sql`vacuum analyze`.execute(db);
  return { seconds: (performance.now() - started) / 1000, first };
}

/**
 * Every repository assessed once (docs/health.md): inputs as a health query would have
 * measured them, scored by the formula, kept on the row for the list's sort and filter.
 */
async function seedHealth(db: Kysely<Database>, random: () => number, now: number): Promise<void> {
  const at = new Date(now).toISOString();
  const ago = (days: number) => new Date(now - Math.floor(days) * 86_400_000).toISOString();
  const repositories = await db
    .selectFrom('repositories')
    .select(['id', 'license', 'last_commit', 'archived'])
    .execute();
  for (let start = 0; start < repositories.length; start += 500) {
    const rows = repositories.slice(start, start + 500).map((repository) => {
      const active = random();
      const inputs: HealthInputs = {
        archived: { value: repository.archived === 1, at },
        lastCommitAt: { value: repository.last_commit, at },
        commits90d: { value: Math.floor(active * active * 200), at },
        releaseDates: {
          value: Array.from({ length: Math.floor(random() * 11) }, (_, i) => ago(i * 30 + random() * 400)),
          at,
        },
        issueResponses: { value: Array.from({ length: 10 }, () => Math.round(random() * 40 * 10) / 10), at },
        pullRequestsMerged90d: { value: Math.floor(active * 40), at },
        topContributorShare: { value: null, at: null },
        license: { value: repository.license, at },
        securityPolicy: { value: random() < 0.6, at },
        openAdvisories: { value: null, at: null },
      };
      const result = assessHealth(inputs, new Date(now), null);
      return {
        repository_id: repository.id,
        score: result.score,
        grade: result.grade,
        formula_version: FORMULA_VERSION,
        inputs: JSON.stringify(inputs),
        signals: JSON.stringify(result.signals),
        computed_at: at,
        github_read_at: at,
        due_at: ago(-7 * random()),
        failures: 0,
      };
    });
    await db.insertInto('repository_health').values(rows).execute();
  }
  await sql`update repositories set
    health_score = (select h.score from repository_health h where h.repository_id = repositories.id),
    health_grade = (select h.grade from repository_health h where h.repository_id = repositories.id)`.execute(
    db,
  );
}
