import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags.ts';

const root = new URL('..', import.meta.url).pathname;
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

/** The server's launchers all start it with the same Node flags (node-flags.ts). */
describe('the server is started with its Node flags', () => {
  it('by npm start', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts.start).toBe(`exec node ${SERVER_NODE_FLAGS.join(' ')} server/main.ts`);
  });

  it('by the Dockerfile', () => {
    const cmd = read('Dockerfile')
      .split('\n')
      .find((line) => line.startsWith('CMD '));
    expect(JSON.parse((cmd as string).slice('CMD '.length))).toEqual([
      'node',
      ...SERVER_NODE_FLAGS,
      'server/main.ts',
    ]);
  });

  it('by the systemd unit', () => {
    const exec = read('deploy/repo-tracker.service')
      .split('\n')
      .find((line) => line.startsWith('ExecStart='));
    expect(exec).toBe(
      `ExecStart=/opt/repo-tracker/node_modules/.bin/node ${SERVER_NODE_FLAGS.join(' ')} server/main.ts`,
    );
  });
});
