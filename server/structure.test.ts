import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The structure the code keeps (docs/architecture.md#layers), checked on every run: no import
 * cycle between files or between module folders (type-only imports count: they couple too), no
 * production file over 500 lines, time read only through the clock, `off` parsed only in the
 * configuration, and every module described in docs/architecture.md.
 */
const root = join(import.meta.dirname, '..');
const MAX_LINES = 500;

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (entry !== 'node_modules' && entry !== 'dist') walk(path);
      } else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry)) {
        found.push(relative(root, path));
      }
    }
  };
  walk(join(root, folder));
  return found.sort();
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const targets = [...text.matchAll(IMPORT)]
        .map((match) => normalize(join(dirname(file), match[1] ?? '')))
        .filter((target) => known.has(target));
      return [file, targets];
    }),
  );
}

/** Strongly connected components with more than one member (or a self-loop): the cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const indices = new Map<string, number>();
  const lowLinks = new Map<string, number>();
  const found: string[][] = [];
  const connect = (node: string) => {
    indices.set(node, index);
    lowLinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        lowLinks.set(node, Math.min(lowLinks.get(node) ?? 0, lowLinks.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowLinks.set(node, Math.min(lowLinks.get(node) ?? 0, indices.get(next) ?? 0));
      }
    }
    if (lowLinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) connect(node);
  return found;
}

const serverFiles = sourceFiles('server').filter((file) => !file.includes('/migrations/'));
const webFiles = sourceFiles('web');

/** A server file's folder as a unit: `server/modules/<name>` for modules, else its top folder. */
function unitOf(file: string): string {
  const parts = file.split('/');
  return parts[1] === 'modules' ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
}

describe('the code keeps its structure', () => {
  it('no import cycle between server files, type-only imports included', () => {
    expect(cycles(importGraph(serverFiles))).toEqual([]);
  });

  it('no module imports a module (or layer) that imports it back', () => {
    const files = importGraph(serverFiles);
    const units = new Map<string, Set<string>>();
    for (const [file, targets] of files) {
      const from = unitOf(file);
      const set = units.get(from) ?? new Set<string>();
      for (const target of targets) if (unitOf(target) !== from) set.add(unitOf(target));
      units.set(from, set);
    }
    expect(cycles(new Map([...units].map(([unit, targets]) => [unit, [...targets]])))).toEqual([]);
  });

  it('no import cycle between web files', () => {
    expect(cycles(importGraph(webFiles))).toEqual([]);
  });

  it(`no production file over ${MAX_LINES} lines in server/ or web/`, () => {
    const long = [...serverFiles, ...webFiles]
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('server code reads the time only through the clock (server/lib/clock.ts)', () => {
    const offenders = serverFiles
      .filter((file) => file !== 'server/lib/clock.ts')
      .filter((file) => /Date\.now\(\)|new Date\(/.test(readFileSync(join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it("a schedule's `off` is read in one place, the configuration", () => {
    const offenders = serverFiles
      .filter((file) => file !== 'server/config.ts')
      .filter((file) => /['"]off['"]/.test(readFileSync(join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('every server module and layer is named in docs/architecture.md', () => {
    const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const modules = readdirSync(join(root, 'server/modules')).map((name) => `server/modules/${name}/`);
    const layers = readdirSync(join(root, 'server'))
      .filter((name) => statSync(join(root, 'server', name)).isDirectory() && name !== 'modules')
      .map((name) => `server/${name}/`);
    const missing = [...modules, ...layers].filter((folder) => !architecture.includes(folder));
    expect(missing).toEqual([]);
  });
});
