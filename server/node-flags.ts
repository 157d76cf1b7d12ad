/**
 * Node flags every launcher of the server passes (`npm start`, the Dockerfile, the systemd
 * unit; node-flags.test.ts holds them to this list, and the benchmarks start the server as
 * `npm start` does). They must be given on the command line: V8 sizes its heap when the
 * process starts.
 *
 * `--max-semi-space-size=16`: Node 24 lets V8's young generation grow to 64 MiB a semi-space.
 * The server's start (migrations, schemas, routes) grows it there, and every later burst of
 * short-lived objects then touches fresh pages of it: a fresh server's first CSV export of
 * 100,000 rows grew its RSS by 62–67 MiB on PostgreSQL and 31–166 MiB on SQLite, nearly all
 * of it garbage. At 16 MiB (what Node 20 allowed), by 25–37 and 10–17 MiB, and faster, since
 * the young objects stay in the CPU's caches (docs/decisions.md, "CSV export").
 *
 * `--no-allocation-site-pretenuring`: V8 watches how many objects of each allocation site
 * survive a scavenge and, past a threshold, allocates that site's objects in the old generation
 * from then on. A scavenge that lands while a page of export rows is alive can tip the row
 * objects' site over it; every later row then goes straight to the old generation, which grows
 * by about 8 MiB a scavenge until the next full collection. That was the rare outlier of the
 * first export: +83 … +86 MiB in 6 of 38 fresh servers on SQLite, against +12 … +36 MiB
 * otherwise; with the flag, +13 … +18 MiB in all 26 (docs/decisions.md, "CSV export").
 */
export const SERVER_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=16',
  '--no-allocation-site-pretenuring',
];
