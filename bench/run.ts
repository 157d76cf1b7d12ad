/**
 * `npm run bench`: every benchmark part, or those named (`npm run bench -- catalogue sync`).
 * Each part prints its tables and writes its section of bench/results/latest.json
 * (docs/benchmarks.md). Benchmarks are not tests: they report figures against budgets and
 * never fail on speed.
 */
import { runBadgesBench } from './badges.bench.ts';
import { runCatalogueBench } from './catalogue.bench.ts';
import { runFirstScreenBench } from './first-screen.bench.ts';
import { machine, writeSection } from './lib/results.ts';
import { runMatcherBench } from './matcher.bench.ts';
import { runPublicPagesBench } from './public-pages.bench.ts';
import { runRadarBench } from './radar.bench.ts';
import { runImportBench, runSyncBench } from './sync.bench.ts';

const PARTS: Record<string, () => Promise<object>> = {
  catalogue: runCatalogueBench,
  sync: runSyncBench,
  import: runImportBench,
  matcher: runMatcherBench,
  'first-screen': runFirstScreenBench,
  badges: runBadgesBench,
  radar: runRadarBench,
  'public-pages': runPublicPagesBench,
};

const wanted = process.argv.slice(2).filter((arg) => arg !== '--');
const unknown = wanted.filter((part) => !(part in PARTS));
if (unknown.length > 0) {
  console.error(`Unknown bench part(s): ${unknown.join(', ')}. Parts: ${Object.keys(PARTS).join(', ')}.`);
  process.exit(2);
}
const host = machine();
console.log(
  `Machine: ${host.cpu}, ${host.cores} cores, ${host.memory_gib} GiB, Node ${host.node}, ${host.platform}`,
);
for (const part of wanted.length > 0 ? wanted : Object.keys(PARTS)) {
  const started = performance.now();
  const section = await PARTS[part]?.();
  if (section)
    writeSection(part, { duration_s: Math.round((performance.now() - started) / 1000), ...section });
  console.log(`\n[${part}] written to bench/results/latest.json`);
}
process.exit(0);
