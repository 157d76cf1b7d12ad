import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingMantineStyles, servedBytes } from './check-first-load.ts';

const root = mkdtempSync(join(tmpdir(), 'rt-first-load-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A build, Mantine's stylesheets and the web sources, as small as the check needs. */
function world(imports: string[]) {
  const dir = mkdtempSync(join(root, 'case-'));
  mkdirSync(join(dir, 'dist', 'assets'), { recursive: true });
  mkdirSync(join(dir, 'styles'));
  mkdirSync(join(dir, 'web', 'app'), { recursive: true });
  // The build renders Tabs (its class names are in a chunk) but not Chip.
  writeFileSync(
    join(dir, 'dist', 'assets', 'list-abc.js'),
    'const c={root:"m_89ab340"+"0",list:"m_576c9d4"};',
  );
  writeFileSync(join(dir, 'dist', 'assets', 'tabs-def.js'), 'export const t="m_89ab3400 m_576c9d4a";');
  writeFileSync(join(dir, 'styles', 'Tabs.css'), '.m_89ab3400{display:flex}.m_576c9d4a{gap:0}');
  writeFileSync(join(dir, 'styles', 'Tabs.layer.css'), '@layer mantine{.m_89ab3400{display:flex}}');
  writeFileSync(join(dir, 'styles', 'Chip.css'), '.m_f59ffda3{cursor:pointer}');
  writeFileSync(
    join(dir, 'web', 'app', 'styles.ts'),
    imports.map((file) => `import '@mantine/core/styles/${file}';`).join('\n'),
  );
  return missingMantineStyles(join(dir, 'dist'), join(dir, 'web'), join(dir, 'styles'));
}

describe('the Mantine stylesheet check', () => {
  it('names a component the build contains whose stylesheet no web file imports', () => {
    expect(world([])).toEqual(['Tabs.css']);
  });

  it('is satisfied once it is imported, and ignores components the build does not contain', () => {
    expect(world(['Tabs.css'])).toEqual([]);
  });
});

describe('the bytes a screen is sent', () => {
  it("counts each file's precompressed .br, or the file itself where the build wrote none", () => {
    const dist = mkdtempSync(join(root, 'served-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'a.js'), 'x'.repeat(1000));
    writeFileSync(join(dist, 'assets', 'a.js.br'), 'y'.repeat(40));
    writeFileSync(join(dist, 'assets', 'a.js.gz'), 'z'.repeat(50));
    writeFileSync(join(dist, 'assets', 'tiny.js'), 'x'.repeat(9));
    expect(servedBytes(dist, ['assets/a.js', 'assets/tiny.js'])).toBe(49);
  });

  it('refuses a build without precompressed files', () => {
    const dist = mkdtempSync(join(root, 'plain-'));
    writeFileSync(join(dist, 'a.js'), 'x'.repeat(1000));
    expect(() => servedBytes(dist, ['a.js'])).toThrow(/no precompressed/);
  });
});
