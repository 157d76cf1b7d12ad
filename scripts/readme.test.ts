import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../server/config.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};
const ciRun = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');
const envExample = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');

/** The shell blocks under "Quick start": the run line first, the test line second. */
function quickStartLines(): string[] {
  const section = readme.split('## Quick start')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/```sh\n([^\n]+)\n```/g)].map((match) => match[1] ?? '');
}

describe('README', () => {
  it('names only npm scripts that exist', () => {
    const named = [...readme.matchAll(/npm run ([a-z0-9:_-]+)/gi)].map((match) => match[1] ?? '');
    expect(named.length).toBeGreaterThan(0);
    for (const script of named)
      expect(Object.keys(packageJson.scripts), `npm run ${script}`).toContain(script);
  });

  it('has a two-line quick start whose test line .ci/run runs verbatim', () => {
    const [runLine, testLine] = quickStartLines();
    expect(runLine).toBe('npm ci && npm start');
    expect(testLine).toBe('npm ci && npm test');
    expect(ciRun.split('\n')).toContain(testLine);
  });

  it('documents every configuration variable, in the table and in .env.example', () => {
    const variables = Object.keys(configSchema.in.shape).filter(
      (name) => name !== 'GIT_COMMIT' || readme.includes(name),
    );
    for (const name of variables) {
      expect(readme, name).toMatch(new RegExp(`\\| \`${name}\` \\|`));
      if (name !== 'GIT_COMMIT') expect(envExample, name).toContain(`${name}=`);
    }
  });
});
